import { describe, expect, it } from 'vitest';
import {
  durationBucketLabel,
  formatMs,
  percentOf,
  radiusBucketLabel,
  shortDay,
  shortMonth,
  toSeconds,
  weekdayHour,
} from './format';

describe('the metrics figures', () => {
  it('read the way a director says them', () => {
    expect(formatMs(null)).toBe('—');
    expect(formatMs(4_250)).toBe('4.3 s');
    expect(formatMs(42_400)).toBe('42 s');
    expect(formatMs(250_000)).toBe('4 min 10 s');
    expect(formatMs(300_000)).toBe('5 min');
    expect(formatMs(7_500_000)).toBe('2 h 5 min');
    expect(toSeconds(12_345)).toBe(12.3);
    expect(toSeconds(null)).toBeNull();
    expect(durationBucketLabel(0, 60_000)).toBe('0–1 min');
    expect(durationBucketLabel(300_000, 900_000)).toBe('5–15 min');
    expect(durationBucketLabel(1_800_000, 3_600_000)).toBe('30 min–1 h');
    expect(durationBucketLabel(7_200_000, null)).toBe('2 h and more');
    expect(radiusBucketLabel(500, 1000)).toBe('500–1,000 m');
    expect(radiusBucketLabel(1000, null)).toBe('1,000 m and more');
    expect(shortDay('2026-11-03')).toBe('Nov 3');
    expect(shortMonth('2026-01')).toBe('Jan 2026');
    expect(weekdayHour(1, 9)).toBe('Mon 09:00');
    expect(percentOf(1, 3)).toBe('33%');
    expect(percentOf(0, 0)).toBe('—');
  });
});
