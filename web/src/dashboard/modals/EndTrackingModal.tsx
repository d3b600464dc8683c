import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { modalWidths } from '../../public-site/modal-widths';

/** SPEC.md §2 "End Tracking confirmation": Are you sure? with Cancel and End Tracking. */
export function EndTrackingModal({
  opened,
  phoneNumber,
  onCancel,
  onConfirm,
}: {
  opened: boolean;
  phoneNumber: string | null;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onCancel}
      title="Are you sure?"
      size={modalWidths.narrow}
      withCloseButton={false}
    >
      <Stack gap="md">
        <Text size="sm">
          Tracking {phoneNumber ?? 'this caller'} stops, the caller&apos;s link stops working and
          the map is cleared.
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button color="signal" onClick={onConfirm}>
            End Tracking
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
