import { describe, expect, it } from 'vitest';
import { checkFix } from './fix-validation';

const now = Date.parse('2026-11-22T08:00:00Z');
const good = {
  latitude: 38.9,
  longitude: -77.03,
  accuracy: 8,
  altitude: 12,
  capturedAt: now - 1000,
};

describe('checkFix', () => {
  it('turns a browser fix into a Location', () => {
    const result = checkFix(good, now);
    expect(result).toMatchObject({
      ok: true,
      location: {
        latitude: 38.9,
        longitude: -77.03,
        uncertaintyRadiusInMeters: 8,
        altitude: 12,
        capturedFromSource: 'TEXT_MESSAGE',
        dateTimeCaptured: '2026-11-22T07:59:59.000Z',
      },
    });
  });

  it.each([
    ['latitude above 90', { latitude: 90.0001 }, 'latitude'],
    ['latitude below -90', { latitude: -91 }, 'latitude'],
    ['longitude out of range', { longitude: 180.5 }, 'longitude'],
    ['negative accuracy', { accuracy: -0.1 }, 'accuracy'],
    ['infinite accuracy', { accuracy: Number.POSITIVE_INFINITY }, 'accuracy'],
    ['a missing latitude', { latitude: undefined }, 'latitude'],
    ['a capture time no clock can show', { capturedAt: 8.64e15 + 1 }, 'capturedAt'],
    ['an unsafe capture time', { capturedAt: 2 ** 60 }, 'capturedAt'],
    ['a fractional capture time', { capturedAt: now - 0.5 }, 'capturedAt'],
    ['an unknown field', { teleport: true }, ''],
  ])('refuses %s', (_name, change, path) => {
    const result = checkFix({ ...good, ...change }, now);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.map((issue) => issue.path)).toContain(path);
  });

  it('allows a phone clock ahead of ours', () => {
    expect(checkFix({ ...good, capturedAt: now + 20_000 }, now).ok).toBe(true);
  });
});

describe('a phone clock that runs ahead', () => {
  it('keeps a fix stamped ahead at the time it arrived, and says by how much it was ahead', () => {
    const result = checkFix({ ...good, capturedAt: now + 29_000 }, now);
    expect(result).toMatchObject({
      ok: true,
      clockSkewMs: 29_000,
      location: { dateTimeCaptured: '2026-11-22T08:00:00.000Z' },
    });
  });

  it('estimates when a fix that waited on the phone was taken from the wait the phone reports', () => {
    const result = checkFix({ ...good, capturedAt: now - 31_000, queuedMs: 60_000 }, now);
    expect(result).toMatchObject({
      ok: true,
      clockSkewMs: 29_000,
      location: { dateTimeCaptured: '2026-11-22T07:59:00.000Z' },
    });
  });

  it('does not flag a fix stamped within the tolerance, but draws it no later than the estimate', () => {
    const result = checkFix({ ...good, capturedAt: now + 800 }, now);
    expect(result).toMatchObject({
      ok: true,
      clockSkewMs: null,
      location: { dateTimeCaptured: '2026-11-22T08:00:00.000Z' },
    });
  });

  it('keeps a fix stamped minutes or days ahead (a clock set by hand) at the estimate', () => {
    expect(checkFix({ ...good, capturedAt: now + 600_000 }, now)).toMatchObject({
      ok: true,
      clockSkewMs: 600_000,
      location: { dateTimeCaptured: '2026-11-22T08:00:00.000Z' },
    });
    const days = checkFix({ ...good, capturedAt: now + 3 * 86_400_000, queuedMs: 5_000 }, now);
    expect(days).toMatchObject({
      ok: true,
      clockSkewMs: 3 * 86_400_000 + 5_000,
      location: { dateTimeCaptured: '2026-11-22T07:59:55.000Z' },
    });
  });

  it('says at most what location_fixes.clock_skew_ms (an integer) holds for a clock years ahead', () => {
    const result = checkFix({ ...good, capturedAt: now + 10 * 365 * 86_400_000 }, now);
    expect(result).toMatchObject({ ok: true, clockSkewMs: 2_147_483_647 });
  });

  it('draws a fix a little ahead and one far ahead alike, at the estimate, so they keep their order', () => {
    // A phone 1.5 s fast. A fix taken 1.1 s before it arrives (a slow link) is within the
    // tolerance; the next, taken 1.3 s later and arriving at once, is not. By their stamps the
    // first would be drawn after the second.
    const slow = checkFix({ ...good, capturedAt: now + 400 }, now);
    const fast = checkFix({ ...good, capturedAt: now + 1_700 }, now + 200);
    if (!slow.ok || !fast.ok) throw new Error('both are valid');
    expect([slow.clockSkewMs, fast.clockSkewMs]).toEqual([null, 1_500]);
    expect(Date.parse(slow.location.dateTimeCaptured)).toBeLessThan(
      Date.parse(fast.location.dateTimeCaptured),
    );
  });
});
