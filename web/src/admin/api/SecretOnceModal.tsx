import { Alert, Button, CopyButton, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useEffect, useRef, type ReactNode } from 'react';
import { modalWidths } from '../../public-site/modal-widths';
import { useReturnFocus } from '../use-return-focus';

/** A secret to show this once (a new API key, a webhook's signing secret). */
export interface SecretShown {
  /** The alert's title, e.g. "Copy this key now". */
  title: string;
  copyLabel: string;
  label: string;
  secret: string;
  /** What to do with it, in the alert. */
  note: ReactNode;
  extra?: ReactNode;
}

/**
 * A creation dialog whose answer is a secret shown once: the form (`children`) gives way to the
 * secret inside the same dialog, since a second dialog would hand the focus back to the page as
 * the first closed, and the keyboard user lands on Done. Once shown, Escape or a click outside
 * must not lose the only copy: Done (or the close button) does. Closing gives the focus back to
 * the button that opened it.
 */
export function SecretOnceModal({
  formTitle,
  shownTitle,
  shown,
  onClose,
  children,
}: {
  formTitle: string;
  shownTitle: string;
  shown: SecretShown | null;
  onClose: () => void;
  children: ReactNode;
}) {
  useReturnFocus();
  const done = useRef<HTMLButtonElement>(null);
  const showing = shown !== null;
  useEffect(() => {
    if (showing) done.current?.focus();
  }, [showing]);
  return (
    <Modal
      opened
      onClose={onClose}
      title={shown ? shownTitle : formTitle}
      size={modalWidths.wide}
      closeOnClickOutside={!shown}
      closeOnEscape={!shown}
    >
      {shown ? (
        <Stack>
          <Alert color="navy" title={shown.title}>
            {shown.note}
          </Alert>
          <TextInput
            label={shown.label}
            value={shown.secret}
            readOnly
            ff="monospace"
            onFocus={(event) => event.currentTarget.select()}
          />
          {shown.extra}
          <Group justify="flex-end">
            <CopyButton value={shown.secret}>
              {({ copied, copy }) => (
                <Button variant="default" onClick={copy} aria-live="polite">
                  {copied ? 'Copied' : shown.copyLabel}
                </Button>
              )}
            </CopyButton>
            <Button ref={done} onClick={onClose}>
              Done
            </Button>
          </Group>
        </Stack>
      ) : (
        children
      )}
    </Modal>
  );
}
