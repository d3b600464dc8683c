import type { CallerTexts } from '@locus/contract';
import { Alert, Box, Group, Paper, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCurrentLocation, IconPlayerStop } from '@tabler/icons-react';
import { useMemo } from 'react';
import type { ConnectionState } from './caller-socket';
import { CallerButton } from './CallerButton';
import { CallerHeading } from './CallerHeading';
import type { SharingState } from './location-sharing';

const dotColors: Record<ConnectionState, string> = {
  connecting: 'var(--mantine-color-yellow-6)',
  connected: 'var(--mantine-color-teal-6)',
  reconnecting: 'var(--mantine-color-orange-6)',
  closed: 'var(--mantine-color-gray-5)',
};

function connectionText(texts: CallerTexts, connection: ConnectionState): string {
  const t = texts.page;
  return connection === 'connected'
    ? t.connected
    : connection === 'reconnecting'
      ? t.reconnecting
      : t.connecting;
}

/** Finding the phone (no fix yet) or sharing it: the last fix, the connection, Stop sharing. */
export function SharingView({
  texts,
  state,
  onStop,
}: {
  texts: CallerTexts;
  state: SharingState;
  onStop: () => void;
}) {
  const t = texts.page;
  const time = useMemo(
    () =>
      new Intl.DateTimeFormat(texts.locale, {
        hour: 'numeric',
        minute: '2-digit',
        second: '2-digit',
      }),
    [texts.locale],
  );
  const { phase, lastFix, problem, connection } = state;
  const sharing = phase === 'sharing' && lastFix !== null;

  return (
    <>
      <CallerHeading
        // Remounted when the first fix arrives, so that the new title is announced.
        key={sharing ? 'sharing' : 'starting'}
        title={sharing ? t.sharingTitle : t.startingStatus}
        icon={<IconCurrentLocation size={30} />}
        color={sharing ? 'teal' : 'navy'}
        announce
      >
        {sharing ? t.sharingBody : t.allowHint}
      </CallerHeading>

      <Paper withBorder radius="md" p="md">
        <Stack gap={6}>
          {lastFix && (
            <>
              <Text size="xl" fw={700}>
                {t.accuracy(Math.round(lastFix.accuracy))}
              </Text>
              <Text>{t.lastUpdate(time.format(lastFix.capturedAt))}</Text>
            </>
          )}
          <Group gap={8} wrap="nowrap" role="status" aria-live="polite">
            <Box
              aria-hidden
              w={12}
              h={12}
              style={{ borderRadius: '50%', flex: 'none', background: dotColors[connection] }}
            />
            <Text fw={600}>{connectionText(texts, connection)}</Text>
          </Group>
        </Stack>
      </Paper>

      {problem && (
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={22} />}>
          <Text size="md">{problem === 'timeout' ? t.positionTimeout : t.positionUnavailable}</Text>
        </Alert>
      )}

      <CallerButton
        variant="outline"
        color="signal"
        icon={<IconPlayerStop size={24} />}
        onClick={onStop}
      >
        {t.stopButton}
      </CallerButton>
    </>
  );
}
