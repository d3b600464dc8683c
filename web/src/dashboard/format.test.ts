import { describe, expect, it } from 'vitest';
import {
  STALE_FIX_AFTER_MS,
  fixAgeMs,
  formatAccuracy,
  formatAge,
  formatAltitude,
  formatClock,
  formatDuration,
  formatFixCount,
  formatFixForCopy,
  formatUtc,
  isStale,
} from './format';

const fix = {
  latitude: 38.8977,
  longitude: -77.0365,
  uncertaintyRadiusInMeters: 12.4,
  altitude: null,
  address: null,
  capturedFromSource: 'TEXT_MESSAGE' as const,
  dateTimeCaptured: '2026-11-23T10:00:00.000Z',
};
const captured = Date.parse(fix.dateTimeCaptured);

describe('fix formatting', () => {
  it('copies one line with six decimals, whole metres, the source and the UTC capture time', () => {
    expect(formatFixForCopy(fix)).toBe(
      '38.897700, -77.036500 ±12 m (TEXT_MESSAGE, 2026-11-23T10:00:00Z)',
    );
    expect(formatFixForCopy({ ...fix, capturedFromSource: 'RAPID_SOS', latitude: -0.1 })).toBe(
      '-0.100000, -77.036500 ±12 m (RAPID_SOS, 2026-11-23T10:00:00Z)',
    );
  });

  it('keeps UTC to the second and shows a missing altitude as a dash', () => {
    expect(formatUtc('2026-11-23T10:00:00.987Z')).toBe('2026-11-23T10:00:00Z');
    expect(formatUtc('2026-11-23T11:00:00+01:00')).toBe('2026-11-23T10:00:00Z');
    expect(formatAltitude(null)).toBe('—');
    expect(formatAltitude(12.345)).toBe('12.3 m');
    expect(formatAccuracy(0.4)).toBe('±0 m');
  });

  it('stamps log entries HH:MM:SS in local time', () => {
    expect(formatClock(new Date(2026, 10, 23, 9, 5, 7).getTime())).toBe('09:05:07');
    expect(formatClock(new Date(2026, 10, 23, 23, 59, 59).getTime())).toBe('23:59:59');
  });

  it('counts fixes in plain digits', () => {
    expect(formatFixCount(0)).toBe('0 fixes');
    expect(formatFixCount(1)).toBe('1 fix');
    expect(formatFixCount(12345)).toBe('12345 fixes');
  });
});

describe('fix age', () => {
  it('measures from the capture time and never goes negative for a phone clock ahead', () => {
    expect(fixAgeMs(fix, captured + 80_500)).toBe(80_500);
    expect(fixAgeMs(fix, captured - 5_000)).toBe(0);
  });

  it('reads as the two largest units', () => {
    expect(formatDuration(45_999)).toBe('45s');
    expect(formatDuration(80_000)).toBe('1m 20s');
    expect(formatDuration(2 * 3_600_000 + 5 * 60_000 + 9_000)).toBe('2h 5m');
    expect(formatDuration(3 * 86_400_000 + 4 * 3_600_000)).toBe('3d 4h');
    expect(formatAge(400)).toBe('just now');
    expect(formatAge(12_000)).toBe('12s ago');
  });

  it(`turns stale after ${STALE_FIX_AFTER_MS} ms without a new fix`, () => {
    expect(isStale(fix, captured + STALE_FIX_AFTER_MS - 1)).toBe(false);
    expect(isStale(fix, captured + STALE_FIX_AFTER_MS)).toBe(true);
  });
});
