import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { modalWidths } from '../../public-site/modal-widths';
import { failureMessage } from '../teams/queries';
import { closableNotice, useArchiveGroup } from './queries';

/** Archiving asks first; the group can be restored from "Show archived". */
export function ArchiveGroupModal({
  group,
  onClose,
  onArchived,
}: {
  group: { id: string; name: string };
  onClose: () => void;
  onArchived?: () => void;
}) {
  const archive = useArchiveGroup();
  return (
    <Modal opened onClose={onClose} title="Archive group" size={modalWidths.narrow}>
      <Stack>
        <Text>
          Archive <strong style={{ overflowWrap: 'anywhere' }}>{group.name}</strong>? It leaves the
          list of groups and cannot be opened in Overwatch until it is restored (Show archived, then
          Restore). A watch already running keeps going.
        </Text>
        {archive.isError && (
          <Alert color="red" role="alert">
            {failureMessage(archive.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            Cancel
          </Button>
          <Button
            color="red"
            loading={archive.isPending}
            onClick={() =>
              archive.mutate(
                { id: group.id, archive: true },
                {
                  onSuccess: () => {
                    notifications.show({
                      ...closableNotice,
                      color: 'gray',
                      message: `${group.name} archived`,
                    });
                    onClose();
                    onArchived?.();
                  },
                },
              )
            }
          >
            Archive group
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
