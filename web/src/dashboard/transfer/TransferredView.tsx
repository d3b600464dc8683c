import { Alert, Button, Group, Text } from '@mantine/core';

/**
 * The header once the case went to a colleague: who has it, and instead of End Tracking (the
 * case is theirs to end) a way back to an empty dashboard.
 */
export function TransferredControls({
  transferredTo,
  onLeave,
}: {
  transferredTo: string;
  onLeave: () => void;
}) {
  return (
    <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
      <Text c="white" fw={600} truncate="end">
        Transferred to {transferredTo}
      </Text>
      <Button variant="white" color="navy" onClick={onLeave} style={{ flexShrink: 0 }}>
        Close case
      </Button>
    </Group>
  );
}

/** Said in the details panel: the map and the log stay, nothing here acts on the case. */
export function TransferredNotice({ transferredTo }: { transferredTo: string }) {
  return (
    <Alert
      color="blue"
      p="xs"
      data-testid="transferred-notice"
      title={`Transferred to ${transferredTo}`}
    >
      The case is {transferredTo}&apos;s now. The map and the log stay here, read-only, until you
      close the case.
    </Alert>
  );
}
