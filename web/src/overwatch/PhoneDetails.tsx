import {
  grownRadius,
  phoneStatusLabels,
  type SmsLanguage,
  type WatchSettings,
} from '@locus/contract';
import { Button, CloseButton, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { api, ApiError, expect } from '../app/api';
import { formatAge, type PhoneView } from './phone-view';
import type { WatchLogEntry } from './watch-store';

const time = (ms: number | null) =>
  ms === null ? 'earlier' : new Date(ms).toLocaleTimeString([], { hour12: false });

/** The phone picked on the map or in the list: where it was last, how sure, and its log. */
/**
 * A new link for one phone: one the lookup found (it was never texted, and one fix does not
 * follow anyone), one that never opened its text, or one that stopped. The previous link stops
 * working.
 */
function useTextLink(sessionId: string, language: SmsLanguage) {
  return useMutation({
    mutationFn: async (phoneNumber: string) =>
      expect(
        await api.tracking.requestAdditionalLocations({
          body: { connectionRequestUuid: sessionId, newNumbers: [phoneNumber], language },
        }),
        200,
      ),
  });
}

export function PhoneDetails({
  view,
  log,
  settings,
  moment,
  sessionId,
  language,
  onClose,
}: {
  view: PhoneView | undefined;
  log: WatchLogEntry[];
  settings: WatchSettings;
  moment: number;
  sessionId: string;
  language: SmsLanguage;
  onClose: () => void;
}) {
  const textLink = useTextLink(sessionId, language);
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
        <Group gap="xs">
          <Button
            size="compact-sm"
            variant="light"
            loading={textLink.isPending}
            onClick={() => textLink.mutate(view.number)}
          >
            Text a new link
          </Button>
          <Text size="xs" role="status">
            {textLink.isSuccess && 'Texted.'}
            {textLink.error &&
              (textLink.error instanceof ApiError
                ? textLink.error.message
                : 'Not texted; try again.')}
          </Text>
        </Group>
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
