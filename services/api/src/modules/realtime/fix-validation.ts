import { CallerFix, realtimeLimits, type Location } from '@locus/contract';
import { zodIssues } from '../../http/errors';

export type FixCheck =
  | {
      ok: true;
      fix: CallerFix;
      location: Omit<Location, 'address'> & { address: null };
      /** How late the fix is (it waited on the phone), or null when it came as it was taken. */
      delayMs: number | null;
      /**
       * How far ahead of the server's estimate the phone stamped the fix, when beyond
       * `realtimeLimits.futureFixToleranceMs`; null otherwise. When set, `location`'s time is the
       * estimate, and the fix is deduped by its exact capture time (see sequencer.ts).
       */
      clockSkewMs: number | null;
    }
  | { ok: false; issues: { path: string; message: string }[] };

/**
 * A fix is stored only when every number is finite and in range, its capture time is not in
 * the future beyond the allowed clock skew, and it did not wait on the phone longer than any
 * request can last. A fix stamped later than it can have been taken (its arrival, less the wait
 * the phone reports, which the phone measures as a difference, so a clock that is merely wrong
 * does not change it) is kept at that estimate and flagged with how far ahead it was stamped.
 */
export function checkFix(data: unknown, now: number): FixCheck {
  const parsed = CallerFix.safeParse(data);
  if (!parsed.success) return { ok: false, issues: zodIssues(parsed.error) };
  const fix = parsed.data;
  const delayMs =
    fix.queuedMs !== undefined && fix.queuedMs >= realtimeLimits.delayedFixAfterMs
      ? fix.queuedMs
      : null;
  if (fix.capturedAt > now + realtimeLimits.maxClockSkewMs) {
    return {
      ok: false,
      issues: [{ path: 'capturedAt', message: 'Capture time is in the future.' }],
    };
  }
  if (fix.queuedMs !== undefined && fix.queuedMs > realtimeLimits.maxFixAgeMs) {
    return {
      ok: false,
      issues: [{ path: 'queuedMs', message: 'The fix waited on the phone too long.' }],
    };
  }
  const takenBy = now - (fix.queuedMs ?? 0);
  const ahead = fix.capturedAt - takenBy;
  const clockSkewMs = ahead > realtimeLimits.futureFixToleranceMs ? Math.round(ahead) : null;
  return {
    ok: true,
    fix,
    delayMs,
    clockSkewMs,
    location: {
      latitude: fix.latitude,
      longitude: fix.longitude,
      uncertaintyRadiusInMeters: fix.accuracy,
      altitude: fix.altitude ?? null,
      address: null,
      capturedFromSource: 'TEXT_MESSAGE',
      dateTimeCaptured: new Date(clockSkewMs === null ? fix.capturedAt : takenBy).toISOString(),
    },
  };
}
