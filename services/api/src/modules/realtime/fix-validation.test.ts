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
