import { Alert, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { modalWidths } from '../../public-site/modal-widths';

/**
 * SPEC.md §2: shown after the text message is sent, until the first location arrives (the
 * machine closes it). Its one way out ends tracking, since nothing else can happen meanwhile.
 */
export function WaitingForLocationModal({
  opened,
  phoneNumber,
  languageLabel,
  callerNotice,
  onStop,
}: {
  opened: boolean;
  phoneNumber: string | null;
  languageLabel: string;
  /** Why no location is coming, when the caller's page said so. */
  callerNotice: string | null;
  onStop: () => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={() => undefined}
      title="Waiting for location…"
      size={modalWidths.narrow}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
    >
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <Loader size="sm" mt={2} aria-hidden />
          <Text size="sm">
            We texted {phoneNumber ?? 'the caller'} a link, in {languageLabel}. When they open it
            and agree to share their location, it appears on the map and this closes.
          </Text>
        </Group>
        <Text size="sm" c="dimmed">
          Ask the caller to open the text message from Locus and tap the link.
        </Text>
        {callerNotice && (
          <Alert color="orange" role="alert" title="No location yet">
            {callerNotice}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onStop}>
            Stop tracking
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
