import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import type { ReactNode, RefObject } from 'react';
import { modalWidths } from '../public-site/modal-widths';
import { failureMessage } from './teams/queries';
import { useReturnFocus } from './use-return-focus';

/**
 * The admin screens' "are you sure?" for an action that is hard or impossible to undo (archive a
 * group, revoke a key): Cancel has the focus, the action is red, and a refusal is said in the
 * dialog, which stays open. On closing, the focus goes back to the button that opened it, or to
 * `returnFocusTo` when the action removed that button.
 */
export function ConfirmModal({
  title,
  children,
  confirmLabel,
  onConfirm,
  onClose,
  pending,
  error,
  returnFocusTo,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
  pending: boolean;
  error: unknown;
  returnFocusTo?: RefObject<HTMLElement | null>;
}) {
  useReturnFocus(returnFocusTo);
  return (
    <Modal opened onClose={onClose} title={title} size={modalWidths.narrow}>
      <Stack>
        {children}
        {error !== null && error !== undefined && (
          <Alert color="red" role="alert">
            {failureMessage(error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            Cancel
          </Button>
          <Button color="red" loading={pending} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
