import { CallerFix, realtimeLimits, type Location } from '@locus/contract';
import { zodIssues } from '../../http/errors';
import { parseCallerFix } from './fast-fix';

export type FixCheck =
  | {
      ok: true;
      fix: CallerFix;
      location: Omit<Location, 'address'> & { address: null };
      /** How late the fix is (it waited on the phone), or null when it came as it was taken. */
      delayMs: number | null;
      /**
       * How far ahead of the server's estimate the phone stamped the fix, when beyond
       * `realtimeLimits.futureFixToleranceMs` (at most `MAX_SKEW_MS`); null otherwise. When set,
       * the fix does not move its caller's latest capture time (see sequencer.ts).
       */
      clockSkewMs: number | null;
    }
  | { ok: false; issues: { path: string; message: string }[] };

/** The latest time a JavaScript `Date` can hold: a capture time beyond it names no moment. */
const LAST_DATE_MS = 8.64e15;
/**
 * The most `clockSkewMs` says (about 24.8 days, the largest `location_fixes.clock_skew_ms`, an
 * integer, holds): a phone set further ahead is flagged as at least that far ahead.
 */
const MAX_SKEW_MS = 2_147_483_647;

/**
 * A fix is stored only when every number is finite and in range, its capture time is a moment a
 * clock can show, and it did not wait on the phone longer than any request can last. A phone's
 * clock may be set any amount ahead, so a capture time in the future is not refused: the server
 * estimates when the fix was taken (its arrival, less the wait the phone reports, which the
 * phone measures as a difference, so a clock that is merely wrong does not change it) and draws
 * no fix later than that estimate. A fix stamped beyond the estimate by more than
 * `realtimeLimits.futureFixToleranceMs` is flagged with how far ahead it was stamped.
 */
export function checkFix(data: unknown, now: number): FixCheck {
  let fix = parseCallerFix(data);
  if (fix === null) {
    // Refused by the fast check: zod, the contract's own check, words the issues. Should zod
    // accept what the fast check refused (a bug, which fast-fix.property.test.ts rules out), the
    // contract wins.
    const parsed = CallerFix.safeParse(data);
    if (!parsed.success) return { ok: false, issues: zodIssues(parsed.error) };
    fix = parsed.data;
  }
  const delayMs =
    fix.queuedMs !== undefined && fix.queuedMs >= realtimeLimits.delayedFixAfterMs
      ? fix.queuedMs
      : null;
  if (!Number.isSafeInteger(fix.capturedAt) || fix.capturedAt > LAST_DATE_MS) {
    return {
      ok: false,
      issues: [{ path: 'capturedAt', message: 'Capture time is not a valid time.' }],
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
  const clockSkewMs =
    ahead > realtimeLimits.futureFixToleranceMs ? Math.min(Math.round(ahead), MAX_SKEW_MS) : null;
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
      // The phone's stamp, but never later than the estimate: a phone a little ahead (within the
      // tolerance) and one far ahead are drawn alike, so their fixes keep their order.
      dateTimeCaptured: new Date(Math.min(fix.capturedAt, takenBy)).toISOString(),
    },
  };
}
