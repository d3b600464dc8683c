/**
 * A JPEG with an EXIF APP1 segment written by hand (GPS position, GPS time, DateTimeOriginal),
 * as a phone's camera writes it: what the caller page's EXIF reader and the photo upload tests
 * feed it. Big-endian ("MM") or little-endian ("II"), to cover both byte orders cameras use.
 */
export interface ExifFixture {
  latitude: number;
  longitude: number;
  /** GPSHPositioningError, metres. */
  uncertainty?: number;
  /** UTC, written as GPSDateStamp and GPSTimeStamp. */
  gpsTime?: Date;
  /** "YYYY:MM:DD HH:MM:SS". */
  dateTimeOriginal?: string;
  littleEndian?: boolean;
}

interface Entry {
  tag: number;
  type: 2 | 4 | 5;
  values: number[] | string;
}

function rationals(value: number, parts = 3): number[] {
  const abs = Math.abs(value);
  const degrees = Math.floor(abs);
  const minutes = Math.floor((abs - degrees) * 60);
  const seconds = (abs - degrees - minutes / 60) * 3600;
  return parts === 3 ? [degrees, 1, minutes, 1, Math.round(seconds * 10_000), 10_000] : [];
}

/** The APP1 segment (marker included) for `fixture`. */
export function exifSegment(fixture: ExifFixture): Uint8Array {
  const little = fixture.littleEndian ?? false;
  const gps: Entry[] = [
    { tag: 0x01, type: 2, values: fixture.latitude < 0 ? 'S' : 'N' },
    { tag: 0x02, type: 5, values: rationals(fixture.latitude) },
    { tag: 0x03, type: 2, values: fixture.longitude < 0 ? 'W' : 'E' },
    { tag: 0x04, type: 5, values: rationals(fixture.longitude) },
  ];
  if (fixture.gpsTime) {
    const t = fixture.gpsTime;
    gps.push({
      tag: 0x07,
      type: 5,
      values: [t.getUTCHours(), 1, t.getUTCMinutes(), 1, t.getUTCSeconds(), 1],
    });
    const date = `${t.getUTCFullYear()}:${String(t.getUTCMonth() + 1).padStart(2, '0')}:${String(t.getUTCDate()).padStart(2, '0')}`;
    gps.push({ tag: 0x1d, type: 2, values: date });
  }
  if (fixture.uncertainty !== undefined)
    gps.push({ tag: 0x1f, type: 5, values: [Math.round(fixture.uncertainty * 100), 100] });
  const exif: Entry[] = fixture.dateTimeOriginal
    ? [{ tag: 0x9003, type: 2, values: fixture.dateTimeOriginal }]
    : [];

  // Layout: header (8), IFD0 (2 entries), Exif IFD, GPS IFD, then every out-of-line value.
  const ifdSize = (entries: Entry[]) => 2 + entries.length * 12 + 4;
  const ifd0At = 8;
  const exifAt = ifd0At + ifdSize([{} as Entry, {} as Entry]);
  const gpsAt = exifAt + ifdSize(exif);
  let dataAt = gpsAt + ifdSize(gps);
  const tiff = new DataView(new ArrayBuffer(dataAt + 512));
  const u16 = (at: number, value: number) => tiff.setUint16(at, value, little);
  const u32 = (at: number, value: number) => tiff.setUint32(at, value, little);
  u16(0, little ? 0x4949 : 0x4d4d);
  u16(2, 42);
  u32(4, ifd0At);

  const writeIfd = (at: number, entries: Entry[]) => {
    u16(at, entries.length);
    entries.forEach((entry, index) => {
      const slot = at + 2 + index * 12;
      const bytes =
        typeof entry.values === 'string'
          ? [...entry.values].map((char) => char.charCodeAt(0)).concat(0)
          : null;
      const count = bytes
        ? bytes.length
        : entry.type === 5
          ? entry.values.length / 2
          : entry.values.length;
      const size = bytes ? bytes.length : entry.type === 5 ? count * 8 : count * 4;
      u16(slot, entry.tag);
      u16(slot + 2, entry.type);
      u32(slot + 4, count);
      const target = size > 4 ? dataAt : slot + 8;
      if (size > 4) {
        u32(slot + 8, dataAt);
        dataAt += size + (size % 2);
      }
      if (bytes) bytes.forEach((byte, offset) => tiff.setUint8(target + offset, byte));
      else (entry.values as number[]).forEach((value, offset) => u32(target + offset * 4, value));
    });
    u32(at + 2 + entries.length * 12, 0);
  };
  writeIfd(ifd0At, [
    { tag: 0x8769, type: 4, values: [exifAt] },
    { tag: 0x8825, type: 4, values: [gpsAt] },
  ]);
  writeIfd(exifAt, exif);
  writeIfd(gpsAt, gps);

  const body = new Uint8Array(tiff.buffer, 0, dataAt);
  const length = 2 + 6 + body.length;
  const segment = new Uint8Array(2 + length);
  segment.set([0xff, 0xe1, length >> 8, length & 0xff, 0x45, 0x78, 0x69, 0x66, 0, 0]);
  segment.set(body, 10);
  return segment;
}

/** `jpeg` with `fixture`'s EXIF inserted right after its start-of-image marker. */
export function withExif(jpeg: Uint8Array, fixture: ExifFixture): Uint8Array {
  const segment = exifSegment(fixture);
  const out = new Uint8Array(jpeg.length + segment.length);
  out.set(jpeg.subarray(0, 2));
  out.set(segment, 2);
  out.set(jpeg.subarray(2), 2 + segment.length);
  return out;
}
