import { describe, expect, it } from 'vitest';
import { withExif } from '../../../../tests/browser/media-exif-fixture';
import { readExif } from './exif';

/** The smallest thing the reader needs: start of image, then end of image. */
const bareJpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xd9]);
const buffer = (bytes: Uint8Array) =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

describe('readExif', () => {
  it.each([false, true])(
    'reads position, accuracy and GPS time (little-endian: %s)',
    (littleEndian) => {
      const gpsTime = new Date('2026-11-29T22:41:07Z');
      const exif = readExif(
        buffer(
          withExif(bareJpeg, {
            latitude: 38.8895,
            longitude: -77.0353,
            uncertainty: 12.5,
            gpsTime,
            dateTimeOriginal: '2026:11:29 17:41:07',
            littleEndian,
          }),
        ),
      );
      expect(exif.latitude).toBeCloseTo(38.8895, 5);
      expect(exif.longitude).toBeCloseTo(-77.0353, 5);
      expect(exif.uncertaintyRadiusInMeters).toBe(12.5);
      expect(exif.takenAt?.toISOString()).toBe(gpsTime.toISOString());
    },
  );

  it('falls back to DateTimeOriginal, in the phone’s zone, without a GPS clock', () => {
    const exif = readExif(
      buffer(
        withExif(bareJpeg, {
          latitude: -33.8568,
          longitude: 151.2153,
          dateTimeOriginal: '2026:11:29 17:41:07',
        }),
      ),
    );
    expect(exif.latitude).toBeCloseTo(-33.8568, 5);
    expect(exif.longitude).toBeCloseTo(151.2153, 5);
    expect(exif.uncertaintyRadiusInMeters).toBeNull();
    expect(exif.takenAt?.getTime()).toBe(new Date(2026, 10, 29, 17, 41, 7).getTime());
  });

  it('gives nulls for a JPEG without EXIF, a PNG, a zero position and garbage', () => {
    const empty = {
      latitude: null,
      longitude: null,
      uncertaintyRadiusInMeters: null,
      takenAt: null,
    };
    expect(readExif(buffer(bareJpeg))).toEqual(empty);
    expect(readExif(buffer(new Uint8Array([0x89, 0x50, 0x4e, 0x47])))).toEqual(empty);
    expect(readExif(buffer(withExif(bareJpeg, { latitude: 0, longitude: 0 })))).toEqual(empty);
    const truncated = withExif(bareJpeg, { latitude: 1, longitude: 2 }).subarray(0, 40);
    expect(readExif(buffer(truncated))).toEqual(empty);
  });
});
