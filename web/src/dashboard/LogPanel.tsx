import type { LogEntry } from '@locus/machines';
import { Box, Group, Paper, Select, Text, Title } from '@mantine/core';
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { formatClock } from './format';

/** Within this many pixels of the bottom counts as "reading the newest entries". */
const STICK_TO_BOTTOM_PX = 24;

/**
 * The tracking log (SPEC.md §3 "log entries (message, time)"), oldest first. It follows new
 * entries while the dispatcher is at the bottom, and stays put while they scroll back to read.
 */
export function LogPanel({
  entries,
  tracking,
  fill,
  numbers,
}: {
  entries: LogEntry[];
  tracking: boolean;
  /**
   * A multi-number session's phones: the log can then be filtered by number, and each live
   * event names the number it came from.
   */
  numbers?: { callerId: string; phoneNumber: string }[];
  /** Take the remaining height of the side column and scroll inside it. */
  fill: boolean;
}) {
  const headingId = useId();
  const viewport = useRef<HTMLDivElement>(null);
  const stuck = useRef(true);
  const [filter, setFilter] = useState<string>('all');
  const numberOf = useMemo(
    () => new Map((numbers ?? []).map((row) => [row.callerId, row.phoneNumber])),
    [numbers],
  );
  const shown = useMemo(
    () => (filter === 'all' ? entries : entries.filter((entry) => entry.callerId === filter)),
    [entries, filter],
  );

  useEffect(() => {
    const element = viewport.current;
    if (!element) return;
    const onScroll = () => {
      stuck.current =
        element.scrollHeight - element.scrollTop - element.clientHeight <= STICK_TO_BOTTOM_PX;
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => element.removeEventListener('scroll', onScroll);
  }, []);

  useLayoutEffect(() => {
    const element = viewport.current;
    if (element && stuck.current) element.scrollTop = element.scrollHeight;
  }, [shown.length]);

  return (
    <Paper
      component="section"
      aria-labelledby={headingId}
      data-tour="log"
      withBorder
      p="sm"
      style={{
        display: 'flex',
        flexDirection: 'column',
        minHeight: fill ? 0 : undefined,
        flex: fill ? 1 : undefined,
      }}
    >
      <Group justify="space-between" wrap="nowrap" mb={6} gap="xs">
        <Title order={2} size="h5" id={headingId}>
          Log
        </Title>
        {numbers && numbers.length > 1 && (
          <Select
            size="xs"
            label="Filter log"
            aria-label="Filter log"
            styles={{ label: { display: 'none' } }}
            w={170}
            allowDeselect={false}
            value={filter}
            onChange={(value) => setFilter(value ?? 'all')}
            data={[
              { value: 'all', label: 'All numbers' },
              ...numbers.map((row) => ({ value: row.callerId, label: row.phoneNumber })),
            ]}
          />
        )}
      </Group>
      {/* It scrolls, so it takes focus: arrow keys then scroll it (WCAG 2.1.1). */}
      <Box
        ref={viewport}
        tabIndex={0}
        role="group"
        aria-labelledby={headingId}
        style={{ overflowY: 'auto', flex: 1, minHeight: 0, maxHeight: fill ? undefined : 220 }}
      >
        {shown.length === 0 ? (
          <Text size="sm" c="dimmed">
            {tracking || entries.length > 0
              ? 'Nothing yet.'
              : 'Enter a phone number above and press Locate to find the caller.'}
          </Text>
        ) : (
          // A plain list, not a live region: the dashboard's announcer says what matters, at
          // a pace a screen reader can follow (a log region would read every entry).
          <Box component="ol" m={0} p={0} style={{ listStyle: 'none' }}>
            {shown.map((entry, index) => (
              <Box component="li" key={`${entry.time}-${index}`} py={2} fz="sm">
                <Text
                  component="time"
                  dateTime={new Date(entry.time).toISOString()}
                  ff="monospace"
                  c="dimmed"
                  fz="sm"
                  mr={8}
                >
                  {formatClock(entry.time)}
                </Text>
                {numbers && entry.callerId && numberOf.has(entry.callerId) && (
                  <Text component="span" fw={600} fz="sm" mr={6}>
                    {numberOf.get(entry.callerId)}:
                  </Text>
                )}
                {entry.message}
              </Box>
            ))}
          </Box>
        )}
      </Box>
    </Paper>
  );
}
