import type { CallerDevice } from '@locus/machines';
import { Group, Paper, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { warningText } from '../theme';
import { deviceFacts, formatClock } from './format';

/** The caller's phone's facts as one line of small text (a row of the Numbers panel). */
export function DeviceFactsLine({ device }: { device: CallerDevice }) {
  return (
    <Text size="xs" ml={18} data-testid="device-facts">
      {deviceFacts(device).map((fact, index) => (
        <Text
          key={fact.text}
          span
          size="xs"
          c={fact.warning ? warningText : 'dimmed'}
          fw={fact.warning ? 600 : undefined}
        >
          {index > 0 ? ' · ' : ''}
          {fact.text}
        </Text>
      ))}
    </Text>
  );
}

/**
 * What the caller's phone says about itself, so that the dispatcher knows why fixes stopped:
 * the page went to the background (screen locked, another app), the battery is nearly empty,
 * location was blocked, the network is poor.
 */
export function PhonePanel({ device }: { device: CallerDevice }) {
  const headingId = useId();
  return (
    <Paper component="section" aria-labelledby={headingId} withBorder p="sm">
      <Group justify="space-between" mb={6} wrap="nowrap">
        <Title order={2} size="h5" id={headingId}>
          Caller&apos;s phone
        </Title>
        <Text size="xs" c="dimmed">
          as of {formatClock(Date.parse(device.reportedAt))}
        </Text>
      </Group>
      <ul style={{ margin: 0, paddingLeft: 18 }}>
        {deviceFacts(device).map((fact) => (
          <Text
            component="li"
            key={fact.text}
            size="sm"
            c={fact.warning ? warningText : undefined}
            fw={fact.warning ? 600 : undefined}
          >
            {fact.text}
          </Text>
        ))}
      </ul>
    </Paper>
  );
}
