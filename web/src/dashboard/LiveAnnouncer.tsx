import type { CallerState, LogEntry } from '@locus/machines';
import { VisuallyHidden } from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { AnnouncementQueue } from './announcements';

/** "New location for +12025550163, accurate to 12 metres". */
function fixAnnouncement(number: string, meters: number): string {
  const accuracy = Math.round(meters);
  return `New location for ${number}, accurate to ${accuracy} ${accuracy === 1 ? 'metre' : 'metres'}`;
}

/**
 * The dashboard's one polite live region (WCAG 4.1.3): new log entries (a caller connecting or
 * stopping, a text sent or failed), "SMS Received", and new fixes, paced by
 * {@link AnnouncementQueue}. The history a page opens with (a resumed session) is not read out.
 */
export function useDashboardAnnouncer({
  log,
  callers,
  numberOf,
}: {
  log: readonly LogEntry[];
  callers: Record<string, CallerState>;
  numberOf: (callerId: string) => string;
}): { text: string; announce: (text: string) => void } {
  const [said, setSaid] = useState({ text: '', count: 0 });
  const queue = useRef<AnnouncementQueue | null>(null);
  if (queue.current === null)
    queue.current = new AnnouncementQueue((text) =>
      setSaid((previous) => ({ text, count: previous.count + 1 })),
    );
  useEffect(() => () => queue.current?.stop(), []);

  const seenLog = useRef(log.length);
  useEffect(() => {
    // A new session starts its log afresh: everything in it is new.
    if (log.length < seenLog.current) seenLog.current = 0;
    for (const entry of log.slice(seenLog.current)) {
      const number = entry.callerId ? numberOf(entry.callerId) : '';
      queue.current!.event(
        number && !entry.message.includes(number) ? `${number}: ${entry.message}` : entry.message,
      );
    }
    seenLog.current = log.length;
  }, [log, numberOf]);

  const seenFixes = useRef<Map<string, unknown> | null>(null);
  useEffect(() => {
    const latest = new Map(
      Object.entries(callers).map(([callerId, caller]) => [callerId, caller.locations.at(-1)]),
    );
    const previous = seenFixes.current;
    seenFixes.current = latest;
    if (previous === null) return;
    for (const [callerId, fix] of latest) {
      if (fix && previous.get(callerId) !== fix)
        queue.current!.newFix(fixAnnouncement(numberOf(callerId), fix.uncertaintyRadiusInMeters));
    }
  }, [callers, numberOf]);

  const announce = useCallback((text: string) => queue.current!.event(text), []);
  // The same words twice in a row are still a new announcement: a no-break space tells them apart.
  return { text: said.count % 2 === 1 ? `${said.text}\u00a0` : said.text, announce };
}

export function LiveAnnouncer({ text }: { text: string }) {
  return (
    <VisuallyHidden role="status" aria-live="polite" aria-atomic="true" data-testid="announcer">
      {text}
    </VisuallyHidden>
  );
}
