import { Alert, Button, CopyButton, Group, Stack, TextInput } from '@mantine/core';
import type { ReactNode, RefObject } from 'react';

/** A secret shown this once (a new API key, a webhook's signing secret), with Copy and Done. */
export function ShownSecret({
  title,
  copyLabel,
  label,
  secret,
  done,
  onClose,
  children,
  extra,
}: {
  title: string;
  copyLabel: string;
  label: string;
  secret: string;
  done: RefObject<HTMLButtonElement | null>;
  onClose: () => void;
  children: ReactNode;
  extra?: ReactNode;
}) {
  return (
    <Stack>
      <Alert color="navy" title={title}>
        {children}
      </Alert>
      <TextInput
        label={label}
        value={secret}
        readOnly
        ff="monospace"
        onFocus={(event) => event.currentTarget.select()}
      />
      {extra}
      <Group justify="flex-end">
        <CopyButton value={secret}>
          {({ copied, copy }) => (
            <Button variant="default" onClick={copy} aria-live="polite">
              {copied ? 'Copied' : copyLabel}
            </Button>
          )}
        </CopyButton>
        <Button ref={done} onClick={onClose}>
          Done
        </Button>
      </Group>
    </Stack>
  );
}
