import { Anchor, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { modalWidths } from '../../public-site/modal-widths';
import { usePublicConfig } from '../../public-site/public-config';
import { useSession } from '../session';

/**
 * The training menu's Change Email. A sign-in address is an agency's record of who may locate
 * callers, so it changes through support, not self-service.
 */
export function ChangeEmailModal({
  opened,
  onClose,
  onExited,
}: {
  opened: boolean;
  onClose: () => void;
  /** After the closing transition: the opener takes focus back (its menu item is gone). */
  onExited: () => void;
}) {
  const { user } = useSession();
  const config = usePublicConfig().data;
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Change Email"
      size={modalWidths.narrow}
      returnFocus={false}
      onExitTransitionEnd={onExited}
    >
      <Stack>
        <Text>
          You sign in as <strong>{user?.email}</strong>.
        </Text>
        <Text>
          Your address is how your agency knows who can locate callers, so our support team changes
          it for you once your agency confirms the new one.
        </Text>
        {config && (
          <Anchor href={config.links.helpCentre} target="_blank" rel="noopener noreferrer">
            Ask support to change your email (opens in a new tab)
          </Anchor>
        )}
        <Group justify="flex-end">
          <Button onClick={onClose}>Close</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
