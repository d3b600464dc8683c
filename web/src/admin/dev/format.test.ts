import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatBytesOf,
  formatDuration,
  formatMs,
  formatRatio,
  formatWaiting,
} from './format';
import { sparkPath } from './spark-path';

describe('the operations console figures', () => {
  it('read the way an operator says them', () => {
    expect(formatMs(0.42)).toBe('0.4 ms');
    expect(formatMs(12.3)).toBe('12 ms');
    expect(formatMs(1_250)).toBe('1.3 s');
    expect(formatMs(95_000)).toBe('1 min 35 s');
    expect(formatDuration(45_900)).toBe('45 s');
    expect(formatDuration(3 * 3_600_000 + 12 * 60_000)).toBe('3 h 12 min');
    expect(formatDuration(2 * 86_400_000)).toBe('2 d');
    expect(formatBytes(512)).toBe('512 bytes');
    expect(formatBytesOf(1.2 * 1024 ** 3, 4 * 1024 ** 3)).toBe('1.2 GB of 4 GB');
    expect(formatBytesOf(300 * 1024 ** 2, null)).toBe('300 MB (no limit)');
    expect(formatRatio(0.953)).toBe('95%');
    expect(formatRatio(0.0004)).toBe('0.04%');
    expect(formatWaiting(3, 45_000)).toBe('3 waiting, oldest 45 s');
    expect(formatWaiting(0, null)).toBe('nothing waiting');
  });
});

describe('a sparkline', () => {
  it('spreads the samples over the width, zero at the bottom, and breaks at a gap', () => {
    expect(sparkPath([])).toBe('');
    expect(
      sparkPath([
        { at: 0, value: 0 },
        { at: 10, value: 10 },
        { at: 20, value: null },
        { at: 30, value: 5 },
        { at: 40, value: 5 },
      ]),
    ).toBe('M0.0 34.0L40.0 2.0M120.0 18.0L160.0 18.0');
  });
});
