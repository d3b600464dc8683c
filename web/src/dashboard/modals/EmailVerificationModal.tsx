import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { modalWidths } from '../../public-site/modal-widths';

/** SPEC.md §8: `verify-email` from starting a stream or requesting a text message. */
export function EmailVerificationModal({
  opened,
  email,
  onClose,
}: {
  opened: boolean;
  email: string | null;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Verify your email"
      size={modalWidths.narrow}
      withCloseButton={false}
    >
      <Stack gap="md">
        <Text size="sm">
          Before you can locate callers, confirm your email address
          {email ? ` (${email})` : ''}. We sent you a link when you registered; if you can&apos;t
          find it, you can send it again.
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          <Button component={Link} to="/register/email-confirmation/resend" onClick={onClose}>
            Send the link again
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
