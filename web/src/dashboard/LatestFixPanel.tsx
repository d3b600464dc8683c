import type { TrackedLocation } from '@locus/machines';
import { Box, Button, Code, Group, Paper, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCopy } from '@tabler/icons-react';
import { Fragment, useId, type ReactNode } from 'react';
import { copyText } from './clipboard';
import {
  fixAgeMs,
  formatAccuracy,
  formatAge,
  formatAltitude,
  formatCoordinate,
  formatDelay,
  formatFixForCopy,
  formatLocal,
  formatUtc,
  isStale,
  sourceLabel,
} from './format';
import { delayedText, textedText, warningText } from '../theme';
import { useNow } from './use-now';

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <Fragment>
      <Text component="dt" size="sm" c="dimmed">
        {term}
      </Text>
      <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Fragment>
  );
}

export async function copyFix(location: TrackedLocation) {
  const copied = await copyText(formatFixForCopy(location));
  notifications.show(
    copied
      ? { message: 'Location copied', color: 'green', autoClose: 2000 }
      : {
          message: 'Could not copy. Select the line under the Copy button instead.',
          color: 'red',
        },
  );
}

/** Where focus goes when a tracking step takes the focused control away (see DashboardPage). */
export const LATEST_FIX_ID = 'latest-fix';

/**
 * The newest fix as text a dispatcher can read out or paste into another system (a CAD, a
 * radio log): coordinates, accuracy, altitude, source, capture time and how old it is.
 */
export function LatestFixPanel({ location }: { location: TrackedLocation | null }) {
  const headingId = useId();
  const now = useNow(1000, location !== null);
  return (
    <Paper
      component="section"
      id={LATEST_FIX_ID}
      tabIndex={-1}
      aria-labelledby={headingId}
      withBorder
      p="sm"
    >
      <Group justify="space-between" mb={6} wrap="nowrap">
        <Title order={2} size="h5" id={headingId}>
          Latest fix
        </Title>
        {location && (
          <Button
            size="compact-sm"
            variant="light"
            leftSection={<IconCopy size={14} aria-hidden />}
            onClick={() => void copyFix(location)}
          >
            Copy
          </Button>
        )}
      </Group>
      {location ? (
        <>
          <Box
            component="dl"
            m={0}
            style={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 12, rowGap: 2 }}
          >
            <Row term="Latitude">{formatCoordinate(location.latitude)}</Row>
            <Row term="Longitude">{formatCoordinate(location.longitude)}</Row>
            <Row term="Accuracy">{formatAccuracy(location.uncertaintyRadiusInMeters)}</Row>
            <Row term="Altitude">{formatAltitude(location.altitude)}</Row>
            <Row term="Source">
              {sourceLabel(location.capturedFromSource)} ({location.capturedFromSource})
            </Row>
            <Row term="Captured">{formatLocal(location.dateTimeCaptured)}</Row>
            <Row term="UTC">{formatUtc(location.dateTimeCaptured)}</Row>
            <Row term="Age">
              <Text
                component="span"
                size="sm"
                c={isStale(location, now) ? warningText : undefined}
                fw={isStale(location, now) ? 600 : undefined}
              >
                {formatAge(fixAgeMs(location, now))}
                {/* Said in words too, not by the red alone (WCAG 1.4.1). */}
                {isStale(location, now) && ' (stale)'}
              </Text>
            </Row>
            {location.address && <Row term="Address">{location.address}</Row>}
            {location.deliveredBy === 'sms' && (
              <Row term="Arrived">
                <Text component="span" size="sm" c={textedText} fw={600} data-testid="texted-fix">
                  By text message (the caller&apos;s page could not get through)
                </Text>
              </Row>
            )}
            {location.delayMs !== undefined && (
              <Row term="Arrived">
                <Text component="span" size="sm" c={delayedText} fw={600}>
                  {formatDelay(location.delayMs)} (the phone was offline)
                </Text>
              </Row>
            )}
          </Box>
          <Code block mt="xs" fz="xs" style={{ userSelect: 'all', whiteSpace: 'pre-wrap' }}>
            {formatFixForCopy(location)}
          </Code>
        </>
      ) : (
        <Text size="sm" c="dimmed">
          No location yet.
        </Text>
      )}
    </Paper>
  );
}
