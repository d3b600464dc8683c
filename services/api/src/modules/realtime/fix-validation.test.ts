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
    ['a capture time far in the future', { capturedAt: now + 60_000 }, 'capturedAt'],
    ['a fractional capture time', { capturedAt: now - 0.5 }, 'capturedAt'],
    ['an unknown field', { teleport: true }, ''],
  ])('refuses %s', (_name, change, path) => {
    const result = checkFix({ ...good, ...change }, now);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.map((issue) => issue.path)).toContain(path);
  });

  it('allows a phone clock a little ahead of ours', () => {
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

  it('leaves a fix stamped within the tolerance as it is', () => {
    const result = checkFix({ ...good, capturedAt: now + 800 }, now);
    expect(result).toMatchObject({
      ok: true,
      clockSkewMs: null,
      location: { dateTimeCaptured: '2026-11-22T08:00:00.800Z' },
    });
  });
});
