import type { LogEntry } from '@locus/machines';
import { Box, Paper, Text, Title } from '@mantine/core';
import { useEffect, useId, useLayoutEffect, useRef } from 'react';
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
}: {
  entries: LogEntry[];
  tracking: boolean;
  /** Take the remaining height of the side column and scroll inside it. */
  fill: boolean;
}) {
  const headingId = useId();
  const viewport = useRef<HTMLDivElement>(null);
  const stuck = useRef(true);

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
  }, [entries.length]);

  return (
    <Paper
      component="section"
      aria-labelledby={headingId}
      withBorder
      p="sm"
      style={{
        display: 'flex',
        flexDirection: 'column',
        minHeight: fill ? 0 : undefined,
        flex: fill ? 1 : undefined,
      }}
    >
      <Title order={2} size="h5" id={headingId} mb={6}>
        Log
      </Title>
      <Box
        ref={viewport}
        style={{ overflowY: 'auto', flex: 1, minHeight: 0, maxHeight: fill ? undefined : 220 }}
      >
        {entries.length === 0 ? (
          <Text size="sm" c="dimmed">
            {tracking
              ? 'Nothing yet.'
              : 'Enter a phone number above and press Locate to find the caller.'}
          </Text>
        ) : (
          <Box
            component="ol"
            role="log"
            aria-label="Log entries"
            m={0}
            p={0}
            style={{ listStyle: 'none' }}
          >
            {entries.map((entry, index) => (
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
                {entry.message}
              </Box>
            ))}
          </Box>
        )}
      </Box>
    </Paper>
  );
}
