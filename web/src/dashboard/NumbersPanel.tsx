import type { CallerDevice, CallerProgress, TrackedLocation } from '@locus/machines';
import {
  ActionIcon,
  Badge,
  Box,
  Group,
  Paper,
  Text,
  Title,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { IconCopy } from '@tabler/icons-react';
import { memo, useId } from 'react';
import { panelBorder } from '../theme';
import { AskLocationByTextIcon } from './AskLocationByText';
import { formatCoordinate, formatFixCount } from './format';
import { copyFix } from './LatestFixPanel';
import { DeviceFactsLine } from './PhoneStatus';

const progressColours: Record<CallerProgress, string> = {
  'SMS queued': 'gray',
  'SMS sent': 'gray',
  'SMS delivered': 'blue',
  'Link opened': 'cyan',
  Sharing: 'green',
  Stopped: 'orange',
  Failed: 'red',
  'Opted out': 'red',
};

export interface NumberRow {
  callerId: string;
  phoneNumber: string;
  progress: CallerProgress;
  colour: string;
  latest: TrackedLocation | null;
  fixCount: number;
  device: CallerDevice | null;
  /** The running session, for "Ask for location by text"; null before it exists. */
  connectionRequestUuid: string | null;
}

/** One number: re-renders only when its own progress or newest fix changes. */
const NumberItem = memo(
  function NumberItem({ row, onShow }: { row: NumberRow; onShow: (callerId: string) => void }) {
    const { phoneNumber, progress, colour, latest, fixCount, device, connectionRequestUuid } = row;
    return (
      <Box component="li" py={4} style={{ borderBottom: panelBorder }}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
            <Box
              aria-hidden
              w={12}
              h={12}
              style={{ borderRadius: '50%', background: colour, flex: '0 0 auto' }}
            />
            {latest ? (
              // The list is the map's equivalent for keyboards and screen readers: picking a
              // number here centres the map on that caller.
              <UnstyledButton
                onClick={() => onShow(row.callerId)}
                style={{ minWidth: 0, textDecoration: 'underline' }}
              >
                <Text span size="sm" ff="monospace" truncate>
                  {phoneNumber}
                </Text>
                <VisuallyHidden> show on map</VisuallyHidden>
              </UnstyledButton>
            ) : (
              <Text size="sm" ff="monospace" truncate>
                {phoneNumber}
              </Text>
            )}
          </Group>
          <Group gap={6} wrap="nowrap">
            <Badge size="sm" variant="light" color={progressColours[progress]} tt="none">
              {progress}
            </Badge>
            {connectionRequestUuid && (
              <AskLocationByTextIcon
                connectionRequestUuid={connectionRequestUuid}
                callerId={row.callerId}
                phoneNumber={phoneNumber}
              />
            )}
            {latest && (
              <ActionIcon
                size="sm"
                variant="subtle"
                aria-label={`Copy fix for ${phoneNumber}`}
                onClick={() => void copyFix(latest)}
              >
                <IconCopy size={14} aria-hidden />
              </ActionIcon>
            )}
          </Group>
        </Group>
        {latest && (
          <Text size="xs" c="dimmed" ml={18}>
            {formatCoordinate(latest.latitude)}, {formatCoordinate(latest.longitude)} ·{' '}
            {formatFixCount(fixCount)}
          </Text>
        )}
        {device && <DeviceFactsLine device={device} />}
      </Box>
    );
  },
  // The rows are rebuilt on every fix of any caller; only this row's own fields matter.
  (before, after) =>
    before.row.progress === after.row.progress &&
    before.row.latest === after.row.latest &&
    before.row.device === after.row.device &&
    before.row.colour === after.row.colour &&
    before.row.phoneNumber === after.row.phoneNumber &&
    before.row.connectionRequestUuid === after.row.connectionRequestUuid,
);

/**
 * A multi-number session's phones (SPEC.md §4 "Multi-number flows"): each with its colour on the
 * map, where its text and its page stand, and its newest fix, copyable.
 */
export function NumbersPanel({
  rows,
  onShow,
}: {
  rows: NumberRow[];
  /** Centre the map on this caller (stable: every row keeps it). */
  onShow: (callerId: string) => void;
}) {
  const headingId = useId();
  return (
    <Paper component="section" aria-labelledby={headingId} withBorder p="sm">
      <Title order={2} size="h5" id={headingId} mb={6}>
        Numbers
      </Title>
      <Box
        component="ul"
        m={0}
        p={0}
        style={{ listStyle: 'none', maxHeight: 240, overflowY: 'auto' }}
      >
        {rows.map((row) => (
          <NumberItem key={row.callerId} row={row} onShow={onShow} />
        ))}
      </Box>
    </Paper>
  );
}
