import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { modalWidths } from '../../public-site/modal-widths';
import { downloadChat, useWiderThanDownloadThreshold } from '../chat/download-chat';

/**
 * SPEC.md §2 "End Tracking confirmation": Are you sure? with Cancel and End Tracking. It also
 * offers Download Chat, only if the chat was initiated and the screen is wider than 960 px.
 */
export function EndTrackingModal({
  opened,
  phoneNumber,
  chatSessionId = null,
  onCancel,
  onConfirm,
}: {
  opened: boolean;
  phoneNumber: string | null;
  /** The session whose chat was initiated (SPEC.md §3 chatInitiated); null when it was not. */
  chatSessionId?: string | null;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const wide = useWiderThanDownloadThreshold();
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const onDownload = () => {
    if (!chatSessionId) return;
    setDownloading(true);
    setDownloadError(null);
    downloadChat(chatSessionId)
      .catch((error: unknown) =>
        setDownloadError(error instanceof Error ? error.message : String(error)),
      )
      .finally(() => setDownloading(false));
  };
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
        {downloadError && (
          <Text size="sm" c="red" role="alert">
            {downloadError}
          </Text>
        )}
        <Group justify="flex-end" gap="sm">
          {chatSessionId && wide && (
            <Button
              variant="default"
              leftSection={<IconDownload size={16} aria-hidden />}
              loading={downloading}
              onClick={onDownload}
              mr="auto"
            >
              Download Chat
            </Button>
          )}
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
