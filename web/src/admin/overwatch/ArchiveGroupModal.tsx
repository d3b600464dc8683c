import { Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ConfirmModal } from '../ConfirmModal';
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
    <ConfirmModal
      title="Archive group"
      confirmLabel="Archive group"
      onConfirm={() =>
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
      onClose={onClose}
      pending={archive.isPending}
      error={archive.error}
    >
      <Text>
        Archive <strong style={{ overflowWrap: 'anywhere' }}>{group.name}</strong>? It leaves the
        list of groups and cannot be opened in Overwatch until it is restored (Show archived, then
        Restore). A watch already running keeps going.
      </Text>
    </ConfirmModal>
  );
}
