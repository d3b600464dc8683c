import { grownRadius, phoneStatusLabels, type WatchSettings } from '@locus/contract';
import { CloseButton, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { formatAge, type PhoneView } from './phone-view';
import type { WatchLogEntry } from './watch-store';

const time = (ms: number | null) =>
  ms === null ? 'earlier' : new Date(ms).toLocaleTimeString([], { hour12: false });

/** The phone picked on the map or in the list: where it was last, how sure, and its log. */
export function PhoneDetails({
  view,
  log,
  settings,
  moment,
  onClose,
}: {
  view: PhoneView | undefined;
  log: WatchLogEntry[];
  settings: WatchSettings;
  moment: number;
  onClose: () => void;
}) {
  if (!view) return null;
  const fix = view.fix;
  return (
    <Paper withBorder p="sm" aria-labelledby="overwatch-phone-title">
      <Stack gap={4}>
        <Group justify="space-between">
          <Title order={2} fz="md" id="overwatch-phone-title">
            {view.label ?? view.number}
          </Title>
          <CloseButton aria-label="Close the phone's details" onClick={onClose} />
        </Group>
        {view.label && <Text size="sm">{view.number}</Text>}
        <Text size="sm">
          Status: <strong>{phoneStatusLabels[view.status]}</strong>
        </Text>
        {fix ? (
          <>
            <Text size="sm">
              Last fix {formatAge(view.ageMs)} at {fix.latitude.toFixed(5)},{' '}
              {fix.longitude.toFixed(5)}
            </Text>
            <Text size="sm" data-testid="overwatch-uncertainty">
              Within {Math.round(grownRadius(fix, moment, settings))} m
              {view.status === 'stale' ? ' (grown with the fix’s age)' : ''}
            </Text>
          </>
        ) : (
          <Text size="sm">No fix yet.</Text>
        )}
        <Title order={3} fz="sm" mt="xs">
          Log
        </Title>
        {log.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nothing yet.
          </Text>
        ) : (
          <ol className="locus-overwatch-log">
            {log
              .slice(-30)
              .reverse()
              .map((entry) => (
                <li key={`${entry.seq}-${entry.message}`}>
                  <Text size="xs" span c="dimmed">
                    {time(entry.time)}{' '}
                  </Text>
                  <Text size="xs" span fw={entry.alert ? 700 : 400}>
                    {entry.message}
                  </Text>
                </li>
              ))}
          </ol>
        )}
      </Stack>
    </Paper>
  );
}
