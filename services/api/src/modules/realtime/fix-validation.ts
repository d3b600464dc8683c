import { CallerFix, realtimeLimits, type Location } from '@locus/contract';
import { zodIssues } from '../../http/errors';

export type FixCheck =
  | {
      ok: true;
      fix: CallerFix;
      location: Omit<Location, 'address'> & { address: null };
      /** How late the fix is (it waited on the phone), or null when it came as it was taken. */
      delayMs: number | null;
    }
  | { ok: false; issues: { path: string; message: string }[] };

/**
 * A fix is stored only when every number is finite and in range, its capture time is not in
 * the future beyond the allowed clock skew, and it did not wait on the phone longer than any
 * request can last.
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
  return {
    ok: true,
    fix,
    delayMs,
    location: {
      latitude: fix.latitude,
      longitude: fix.longitude,
      uncertaintyRadiusInMeters: fix.accuracy,
      altitude: fix.altitude ?? null,
      address: null,
      capturedFromSource: 'TEXT_MESSAGE',
      dateTimeCaptured: new Date(fix.capturedAt).toISOString(),
    },
  };
}
