import type { WatchAlert } from '@locus/contract';
import { Paper, Text, Title, UnstyledButton } from '@mantine/core';

const time = (ms: number) => new Date(ms).toLocaleTimeString([], { hour12: false });

/** Geofence crossings and impossible jumps, newest first; picking one shows its phone. */
export function AlertList({
  alerts,
  numbers,
  onSelect,
}: {
  alerts: WatchAlert[];
  numbers: Map<string, string>;
  /** The store's change counter: the list re-renders when it moves. */
  version: number;
  onSelect: (callerId: string) => void;
}) {
  if (alerts.length === 0) return null;
  return (
    <Paper withBorder p="sm" aria-labelledby="overwatch-alerts-title">
      <Title order={2} fz="md" id="overwatch-alerts-title">
        Alerts ({alerts.length})
      </Title>
      <ul className="locus-overwatch-alerts" data-testid="overwatch-alerts">
        {alerts
          .slice(-20)
          .reverse()
          .map((alert) => (
            <li key={`${alert.seq}-${alert.kind}-${alert.geofenceId ?? ''}`}>
              <UnstyledButton onClick={() => onSelect(alert.callerId)}>
                <Text size="sm" span fw={600}>
                  {numbers.get(alert.callerId)}
                </Text>{' '}
                <Text size="sm" span>
                  {alert.message}
                </Text>{' '}
                <Text size="xs" span c="dimmed">
                  {time(alert.at)}
                </Text>
              </UnstyledButton>
            </li>
          ))}
      </ul>
    </Paper>
  );
}
