/**
 * What the caller's page reads from a JPEG's EXIF before the photo is re-encoded (which drops
 * every tag): where and when it was taken. A small reader of the APP1 segment's TIFF structure,
 * so the page loads no EXIF library; anything it does not understand yields nulls, never throws.
 */
export interface PhotoExif {
  latitude: number | null;
  longitude: number | null;
  /** GPSHPositioningError, in metres, when the camera wrote one. */
  uncertaintyRadiusInMeters: number | null;
  /** When it was taken: the GPS clock (UTC) if present, else DateTimeOriginal (the phone's zone). */
  takenAt: Date | null;
}

const none: PhotoExif = {
  latitude: null,
  longitude: null,
  uncertaintyRadiusInMeters: null,
  takenAt: null,
};

const TAG_EXIF_IFD = 0x8769;
const TAG_GPS_IFD = 0x8825;
const TAG_DATETIME_ORIGINAL = 0x9003;
const TAG_DATETIME = 0x0132;
const GPS_LAT_REF = 0x01;
const GPS_LAT = 0x02;
const GPS_LON_REF = 0x03;
const GPS_LON = 0x04;
const GPS_TIME = 0x07;
const GPS_H_ERROR = 0x1f;
const GPS_DATE = 0x1d;

type Value = string | number[] | null;

/** The EXIF of a JPEG's first bytes (EXIF sits in the first 64 KiB). */
export function readExif(bytes: ArrayBuffer): PhotoExif {
  try {
    const view = new DataView(bytes);
    if (view.byteLength < 4 || view.getUint16(0) !== 0xffd8) return none;
    let offset = 2;
    while (offset + 4 <= view.byteLength) {
      const marker = view.getUint16(offset);
      if ((marker & 0xff00) !== 0xff00 || marker === 0xffda) return none;
      const length = view.getUint16(offset + 2);
      // "Exif\0\0"
      if (marker === 0xffe1 && view.getUint32(offset + 4) === 0x45786966)
        return readTiff(view, offset + 10, length - 8);
      offset += 2 + length;
    }
    return none;
  } catch {
    return none;
  }
}

function readTiff(view: DataView, start: number, length: number): PhotoExif {
  const end = Math.min(view.byteLength, start + length);
  const little = view.getUint16(start) === 0x4949;
  const u16 = (at: number) => view.getUint16(start + at, little);
  const u32 = (at: number) => view.getUint32(start + at, little);

  /** One IFD's tags, by number: ASCII as a string, (S)RATIONAL and integers as numbers. */
  const ifd = (at: number): Map<number, Value> => {
    const tags = new Map<number, Value>();
    if (at <= 0 || start + at + 2 > end) return tags;
    const count = u16(at);
    for (let index = 0; index < count; index += 1) {
      const entry = at + 2 + index * 12;
      if (start + entry + 12 > end) break;
      tags.set(u16(entry), valueOf(u16(entry + 2), u32(entry + 4), entry + 8));
    }
    return tags;
  };

  const valueOf = (type: number, count: number, at: number): Value => {
    const size = ({ 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1, 9: 4, 10: 8 } as Record<number, number>)[
      type
    ];
    if (size === undefined || count > 1_000) return null;
    const where = size * count > 4 ? u32(at) : at;
    if (start + where + size * count > end) return null;
    if (type === 2) {
      let text = '';
      for (let index = 0; index < count; index += 1) {
        const code = view.getUint8(start + where + index);
        if (code === 0) break;
        text += String.fromCharCode(code);
      }
      return text;
    }
    const values: number[] = [];
    for (let index = 0; index < count; index += 1) {
      const item = where + index * size;
      if (type === 5 || type === 10) {
        const numerator = type === 5 ? u32(item) : view.getInt32(start + item, little);
        const denominator = type === 5 ? u32(item + 4) : view.getInt32(start + item + 4, little);
        values.push(denominator === 0 ? NaN : numerator / denominator);
      } else if (type === 3) values.push(u16(item));
      else if (type === 4) values.push(u32(item));
      else if (type === 9) values.push(view.getInt32(start + item, little));
      else values.push(view.getUint8(start + item));
    }
    return values;
  };

  if (u16(2) !== 42) return none;
  const ifd0 = ifd(u32(4));
  const pointer = (tags: Map<number, Value>, tag: number) => {
    const value = tags.get(tag);
    return Array.isArray(value) ? (value[0] ?? 0) : 0;
  };
  const exif = ifd(pointer(ifd0, TAG_EXIF_IFD));
  const gps = ifd(pointer(ifd0, TAG_GPS_IFD));

  const latitude = coordinate(gps.get(GPS_LAT), gps.get(GPS_LAT_REF), 'S', 90);
  const longitude = coordinate(gps.get(GPS_LON), gps.get(GPS_LON_REF), 'W', 180);
  const error = gps.get(GPS_H_ERROR);
  const uncertainty = Array.isArray(error) && Number.isFinite(error[0]) ? error[0]! : null;
  const positioned = latitude !== null && longitude !== null;
  return {
    latitude: positioned ? latitude : null,
    longitude: positioned ? longitude : null,
    uncertaintyRadiusInMeters:
      positioned && uncertainty !== null && uncertainty >= 0 ? uncertainty : null,
    takenAt:
      gpsTime(gps.get(GPS_DATE), gps.get(GPS_TIME)) ??
      localTime(exif.get(TAG_DATETIME_ORIGINAL) ?? ifd0.get(TAG_DATETIME) ?? null),
  };
}

function coordinate(
  value: Value | undefined,
  ref: Value | undefined,
  negative: string,
  max: number,
) {
  if (!Array.isArray(value) || value.length < 3) return null;
  const [degrees, minutes, seconds] = value as [number, number, number];
  const decimal = degrees + minutes / 60 + seconds / 3600;
  if (!Number.isFinite(decimal) || decimal > max) return null;
  // A camera without a fix writes zeros: that is no position, not the Gulf of Guinea.
  if (decimal === 0) return null;
  return typeof ref === 'string' && ref.toUpperCase() === negative ? -decimal : decimal;
}

/** GPSDateStamp "YYYY:MM:DD" and GPSTimeStamp [h, m, s], both UTC. */
function gpsTime(date: Value | undefined, time: Value | undefined): Date | null {
  if (typeof date !== 'string' || !Array.isArray(time) || time.length < 3) return null;
  const match = /^(\d{4}):(\d{2}):(\d{2})$/.exec(date.trim());
  if (!match) return null;
  const [hours, minutes, seconds] = time as [number, number, number];
  const ms = Date.UTC(
    Number(match[1]),
    Number(match[2]) - 1,
    Number(match[3]),
    hours,
    minutes,
    Math.floor(seconds),
  );
  return Number.isFinite(ms) ? new Date(ms) : null;
}

/** "YYYY:MM:DD HH:MM:SS" in the camera's own zone, which is taken to be the phone's. */
function localTime(value: Value): Date | null {
  if (typeof value !== 'string') return null;
  const match = /^(\d{4}):(\d{2}):(\d{2}) (\d{2}):(\d{2}):(\d{2})/.exec(value);
  if (!match) return null;
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  const date = new Date(y!, mo! - 1, d!, h!, mi!, s!);
  return Number.isFinite(date.getTime()) && y! > 1990 ? date : null;
}
