import type { Broadcast } from '@locus/contract';
import { Alert, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { currentBroadcastsKey, fetchCurrentBroadcasts, isShowing } from './broadcasts-data';

/** Broadcasts closed in this tab (sessionStorage: this tab only, kept across reloads). */
const DISMISSED_KEY = 'locus.dismissedBroadcasts';

function readDismissed(): Set<string> {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(DISMISSED_KEY) ?? '[]');
    return new Set(Array.isArray(stored) ? stored.filter((id) => typeof id === 'string') : []);
  } catch {
    return new Set();
  }
}

function writeDismissed(ids: Set<string>): void {
  try {
    sessionStorage.setItem(DISMISSED_KEY, JSON.stringify([...ids]));
  } catch {
    // Private mode without storage: closing still works until the page is reloaded.
  }
}

/** The longest a timer may wait (setTimeout's limit is about 24.8 days). */
const MAX_WAIT_MS = 3_600_000;

/** `Date.now()`, updated when the next of these broadcasts reaches its end time. */
function useNowUntilNextEnd(broadcasts: Broadcast[]): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const ends = broadcasts
      .map((broadcast) => (broadcast.endsAt ? Date.parse(broadcast.endsAt) : Infinity))
      .filter((end) => end > now && Number.isFinite(end));
    if (ends.length === 0) return;
    const wait = Math.min(Math.min(...ends) - Date.now(), MAX_WAIT_MS);
    const timer = setTimeout(() => setNow(Date.now()), Math.max(wait, 0) + 50);
    return () => clearTimeout(timer);
  }, [broadcasts, now]);
  return now;
}

/**
 * Warning: dark text on pale amber, info: on pale blue, each with a strong left edge: both far
 * above AA contrast, in the light and the dark colour scheme alike (the colours are fixed).
 */
const levelStyles = {
  info: { background: '#e7f5ff', edge: '#1864ab', title: 'Notice from Locus operations' },
  warning: { background: '#fff3bf', edge: '#b35900', title: 'Warning from Locus operations' },
} as const;

/**
 * The maintenance broadcasts the platform owner posted (issue 22), at the top of every
 * signed-in layout. The list comes from `GET /broadcasts/current` and then the console socket
 * (`useConsoleSocket`); a broadcast hides itself when its end time passes, and "×" hides it in
 * this tab only.
 */
export function BroadcastBanner() {
  const current = useQuery({
    queryKey: currentBroadcastsKey,
    queryFn: fetchCurrentBroadcasts,
    // The console socket keeps it current.
    staleTime: Infinity,
  });
  const [dismissed, setDismissed] = useState(readDismissed);
  const broadcasts = current.data ?? [];
  const now = useNowUntilNextEnd(broadcasts);
  const showing = broadcasts.filter(
    (broadcast) => isShowing(broadcast, now) && !dismissed.has(broadcast.id),
  );
  if (showing.length === 0) return null;

  const dismiss = (id: string) => {
    const next = new Set(dismissed).add(id);
    writeDismissed(next);
    setDismissed(next);
  };

  return (
    <Stack gap={0} data-testid="broadcast-banner">
      {showing.map((broadcast) => {
        const look = levelStyles[broadcast.level];
        const Icon = broadcast.level === 'warning' ? IconAlertTriangle : IconInfoCircle;
        return (
          <Alert
            key={broadcast.id}
            role={broadcast.level === 'warning' ? 'alert' : 'status'}
            radius={0}
            icon={<Icon size={20} color={look.edge} aria-hidden />}
            title={look.title}
            withCloseButton
            closeButtonLabel="Hide this message in this tab"
            onClose={() => dismiss(broadcast.id)}
            styles={{
              root: {
                background: look.background,
                borderLeft: `6px solid ${look.edge}`,
                color: '#1a1b1e',
              },
              title: { color: '#1a1b1e' },
              message: { color: '#1a1b1e' },
              closeButton: { color: '#1a1b1e' },
            }}
          >
            <Text size="sm" style={{ overflowWrap: 'anywhere' }} c="#1a1b1e">
              {broadcast.text}
            </Text>
          </Alert>
        );
      })}
    </Stack>
  );
}
