import type { photoContentTypes } from '@locus/contract';

export type PhotoContentType = (typeof photoContentTypes)[number];

/**
 * Image types by their magic numbers (issue 19: "by content, not by name"): a file named
 * `.jpg` that holds a PDF is refused, and a JPEG sent as `application/octet-stream` is a JPEG.
 */
export function detectImageType(bytes: Uint8Array): PhotoContentType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return 'image/jpeg';
  if (startsWith(bytes, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return 'image/webp';
  // ISO BMFF: a first box `ftyp` whose major (or a compatible) brand names an HEIF image.
  if (ascii(bytes, 4, 4) === 'ftyp') {
    const size = readUint32(bytes, 0);
    // A real ftyp box lists a handful of brands: read at most 256 bytes of it, whatever it says.
    const end = Math.min(bytes.length, size >= 16 ? size : 16, 256);
    const brands = [ascii(bytes, 8, 4)];
    for (let at = 16; at + 4 <= end; at += 4) brands.push(ascii(bytes, at, 4));
    if (brands.some((brand) => heicBrands.has(brand))) return 'image/heic';
    if (brands.some((brand) => heifBrands.has(brand))) return 'image/heif';
  }
  return null;
}

/** HEVC-coded HEIF (what iPhones write) and the generic HEIF image brands. */
const heicBrands = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx']);
const heifBrands = new Set(['mif1', 'msf1', 'heif', 'avif']);

function startsWith(bytes: Uint8Array, at: number, expected: number[]): boolean {
  return bytes.length >= at + expected.length && expected.every((b, i) => bytes[at + i] === b);
}

function ascii(bytes: Uint8Array, at: number, length: number): string {
  if (bytes.length < at + length) return '';
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

function readUint32(bytes: Uint8Array, at: number): number {
  if (bytes.length < at + 4) return 0;
  return (
    ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0
  );
}

function readUint16(bytes: Uint8Array, at: number): number {
  return (bytes[at]! << 8) | bytes[at + 1]!;
}

function readUint24le(bytes: Uint8Array, at: number): number {
  return bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
}

export interface CleanImage {
  bytes: Buffer;
  width: number | null;
  height: number | null;
}

/** The image as stored: its metadata removed where the format allows, and its size if readable. */
export function cleanImage(bytes: Buffer, type: PhotoContentType): CleanImage {
  switch (type) {
    case 'image/jpeg':
      return stripJpeg(bytes);
    case 'image/png':
      return stripPng(bytes);
    case 'image/webp':
      return stripWebp(bytes);
    case 'image/heic':
    case 'image/heif':
      try {
        return { bytes: blankHeifMetadata(bytes), ...heifSize(bytes) };
      } catch (error) {
        // A size or offset that points past the end of the file.
        if (error instanceof RangeError) throw new ImageError('The HEIF image is damaged.');
        throw error;
      }
  }
}

/**
 * JPEG: every APPn segment but APP0 (JFIF) and APP14 (Adobe: how to read the colours) is
 * dropped (APP1 holds EXIF with GPS, the camera's serial and a thumbnail, and XMP; APP2 an ICC
 * profile or FlashPix data; APP13 Photoshop's IPTC), and comments. The image data from the
 * start of scan on is copied as it is. EXIF orientation goes with it: the phone draws the photo
 * upright on a canvas when it resizes, so what arrives needs none.
 */
function stripJpeg(bytes: Buffer): CleanImage {
  const kept: Buffer[] = [bytes.subarray(0, 2)];
  let width: number | null = null;
  let height: number | null = null;
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) throw new ImageError('The JPEG is damaged (a segment is missing).');
    const marker = bytes[at + 1]!;
    // Fill bytes before a marker.
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    // Start of scan: the compressed image and everything after it.
    if (marker === 0xda) {
      kept.push(bytes.subarray(at));
      return { bytes: Buffer.concat(kept), width, height };
    }
    // Markers without a length (TEM, RSTn).
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      kept.push(bytes.subarray(at, at + 2));
      at += 2;
      continue;
    }
    const length = readUint16(bytes, at + 2);
    if (length < 2 || at + 2 + length > bytes.length)
      throw new ImageError('The JPEG is damaged (a segment runs past its end).');
    const segment = bytes.subarray(at, at + 2 + length);
    const isApp = marker >= 0xe0 && marker <= 0xef;
    const keep = (!isApp || marker === 0xe0 || marker === 0xee) && marker !== 0xfe;
    if (keep) kept.push(segment);
    // Start of frame (not DHT, JPG or DAC, which share the range): height, then width.
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker) && length >= 7) {
      height = readUint16(bytes, at + 5) || null;
      width = readUint16(bytes, at + 7) || null;
    }
    at += 2 + length;
  }
  throw new ImageError('The JPEG is damaged (it has no image data).');
}

/** PNG's text, EXIF and time chunks (where a phone or an editor writes metadata). */
const pngMetadataChunks = new Set(['tEXt', 'zTXt', 'iTXt', 'eXIf', 'tIME']);

function stripPng(bytes: Buffer): CleanImage {
  const kept: Buffer[] = [bytes.subarray(0, 8)];
  let at = 8;
  let width: number | null = null;
  let height: number | null = null;
  while (at + 12 <= bytes.length) {
    const length = readUint32(bytes, at);
    const type = ascii(bytes, at + 4, 4);
    const end = at + 12 + length;
    if (end > bytes.length) throw new ImageError('The PNG is damaged (a chunk runs past its end).');
    if (type === 'IHDR') {
      width = readUint32(bytes, at + 8) || null;
      height = readUint32(bytes, at + 12) || null;
    }
    if (!pngMetadataChunks.has(type)) kept.push(bytes.subarray(at, end));
    at = end;
    if (type === 'IEND') return { bytes: Buffer.concat(kept), width, height };
  }
  throw new ImageError('The PNG is damaged (it has no end).');
}

/**
 * WebP: the extended format's `EXIF` and `XMP ` chunks are dropped, and the VP8X header's flags
 * for them cleared; the simple formats (VP8, VP8L alone) carry no metadata.
 */
function stripWebp(bytes: Buffer): CleanImage {
  const kept: Buffer[] = [];
  let at = 12;
  let width: number | null = null;
  let height: number | null = null;
  while (at + 8 <= bytes.length) {
    const type = ascii(bytes, at, 4);
    const length = bytes.readUInt32LE(at + 4);
    // Chunks are padded to an even length.
    const end = at + 8 + length + (length % 2);
    if (at + 8 + length > bytes.length)
      throw new ImageError('The WebP is damaged (a chunk runs past its end).');
    const chunk = Buffer.from(bytes.subarray(at, Math.min(end, bytes.length)));
    if (type === 'VP8X' && length >= 10) {
      // Flags: bit 3 EXIF, bit 2 XMP.
      chunk[8] = chunk[8]! & ~0b1100;
      width = readUint24le(chunk, 12) + 1;
      height = readUint24le(chunk, 15) + 1;
    } else if (type === 'VP8 ' && length >= 10 && width === null) {
      width = chunk.readUInt16LE(14) & 0x3fff;
      height = chunk.readUInt16LE(16) & 0x3fff;
    } else if (type === 'VP8L' && length >= 5 && width === null) {
      const bits = chunk.readUInt32LE(9);
      width = (bits & 0x3fff) + 1;
      height = ((bits >> 14) & 0x3fff) + 1;
    }
    if (type !== 'EXIF' && type !== 'XMP ') kept.push(chunk);
    at = end;
  }
  const body = Buffer.concat(kept);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(body.length + 4, 4);
  header.write('WEBP', 8, 'ascii');
  return { bytes: Buffer.concat([header, body]), width: width || null, height: height || null };
}

/**
 * HEIF's size: the largest `ispe` (image spatial extents) property, since a photo's primary
 * image is a grid whose tiles and thumbnail have their own, smaller ones.
 */
function heifSize(bytes: Buffer): { width: number | null; height: number | null } {
  let best: { width: number; height: number } | null = null;
  for (let at = bytes.indexOf('ispe'); at !== -1; at = bytes.indexOf('ispe', at + 4)) {
    const width = readUint32(bytes, at + 8);
    const height = readUint32(bytes, at + 12);
    if (width > 0 && height > 0 && (!best || width * height > best.width * best.height))
      best = { width, height };
  }
  return best ?? { width: null, height: null };
}

interface Box {
  type: string;
  /** Where its content starts (after the header) and where the box ends. */
  start: number;
  end: number;
}

/** The boxes between `from` and `to` (ISO BMFF: 32-bit size, or 64-bit, or 0 for "to the end"). */
function boxes(bytes: Buffer, from: number, to: number): Box[] {
  const found: Box[] = [];
  let at = from;
  while (at + 8 <= to) {
    let size = readUint32(bytes, at);
    let header = 8;
    if (size === 1) {
      if (at + 16 > to) break;
      size = Number(bytes.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) size = to - at;
    if (size < header || at + size > to) break;
    found.push({ type: ascii(bytes, at + 4, 4), start: at + header, end: at + size });
    at += size;
  }
  return found;
}

function readSized(bytes: Buffer, at: number, size: number): number {
  if (size === 0) return 0;
  if (size === 4) return readUint32(bytes, at);
  if (size === 8) return Number(bytes.readBigUInt64BE(at));
  if (size === 2) return readUint16(bytes, at);
  throw new ImageError('The HEIF image is damaged (an item location has an odd size).');
}

/**
 * HEIF keeps EXIF (with the GPS position) as an item of type `Exif`, and XMP (which may repeat
 * the position) as a `mime` item of type `application/rdf+xml`, whose bytes the `iloc` box
 * locates by file offset. Rewriting the box tree to remove them would move every offset, so the
 * items' bytes are overwritten with zeros instead: the structure stays valid, the metadata is
 * gone. Left are items whose `iloc` the parser does not follow (in an `idat` box, or in another
 * file): rare from a phone's camera.
 */
/** More item extents than any camera writes (an iPhone's HEIC has a few dozen). */
const MAX_HEIF_EXTENTS = 100_000;

function blankHeifMetadata(original: Buffer): Buffer {
  const bytes = Buffer.from(original);
  const meta = boxes(bytes, 0, bytes.length).find((box) => box.type === 'meta');
  if (!meta) return bytes;
  // `meta` is a full box: version and flags before its children.
  const children = boxes(bytes, meta.start + 4, meta.end);
  const iinf = children.find((box) => box.type === 'iinf');
  const iloc = children.find((box) => box.type === 'iloc');
  if (!iinf || !iloc) return bytes;
  const metadataItems = new Set<number>();
  const iinfVersion = bytes[iinf.start]!;
  const entriesAt = iinf.start + 4 + (iinfVersion === 0 ? 2 : 4);
  for (const infe of boxes(bytes, entriesAt, iinf.end)) {
    if (infe.type !== 'infe') continue;
    const version = bytes[infe.start]!;
    if (version < 2) continue;
    const idSize = version === 2 ? 2 : 4;
    const id = readSized(bytes, infe.start + 4, idSize);
    const typeAt = infe.start + 4 + idSize + 2;
    const type = ascii(bytes, typeAt, 4);
    if (
      type === 'Exif' ||
      (type === 'mime' && mimeContentType(bytes, typeAt + 4, infe.end) === xmpType)
    )
      metadataItems.add(id);
  }
  if (metadataItems.size === 0) return bytes;
  const version = bytes[iloc.start]!;
  let at = iloc.start + 4;
  const offsetSize = bytes[at]! >> 4;
  const lengthSize = bytes[at]! & 0x0f;
  const baseOffsetSize = bytes[at + 1]! >> 4;
  const indexSize = version === 1 || version === 2 ? bytes[at + 1]! & 0x0f : 0;
  // The format allows field sizes of 0, 4 or 8 bytes only. Anything else, or a file whose
  // extents take no bytes at all, is broken or hostile: 65,535 empty extents per item over a
  // 15 MB box would hold this instance's event loop for minutes.
  const sizes = [offsetSize, lengthSize, baseOffsetSize, indexSize];
  if (sizes.some((size) => size !== 0 && size !== 4 && size !== 8))
    throw new ImageError('The HEIF image is damaged (its item locations are not valid).');
  const extentBytes = indexSize + offsetSize + lengthSize;
  let extentsSeen = 0;
  at += 2;
  const itemCount = version < 2 ? readUint16(bytes, at) : readUint32(bytes, at);
  at += version < 2 ? 2 : 4;
  for (let item = 0; item < itemCount && at < iloc.end; item += 1) {
    const id = version < 2 ? readUint16(bytes, at) : readUint32(bytes, at);
    at += version < 2 ? 2 : 4;
    let construction = 0;
    if (version === 1 || version === 2) {
      construction = readUint16(bytes, at) & 0x0f;
      at += 2;
    }
    at += 2; // data_reference_index
    const baseOffset = readSized(bytes, at, baseOffsetSize);
    at += baseOffsetSize;
    const extentCount = readUint16(bytes, at);
    at += 2;
    if (extentBytes === 0 || at + extentCount * extentBytes > iloc.end)
      throw new ImageError('The HEIF image is damaged (its item locations are not valid).');
    extentsSeen += extentCount;
    if (extentsSeen > MAX_HEIF_EXTENTS)
      throw new ImageError('The HEIF image is damaged (too many item locations).');
    for (let extent = 0; extent < extentCount; extent += 1) {
      at += indexSize;
      const offset = readSized(bytes, at, offsetSize);
      at += offsetSize;
      const length = readSized(bytes, at, lengthSize);
      at += lengthSize;
      const start = baseOffset + offset;
      if (
        metadataItems.has(id) &&
        construction === 0 &&
        length > 0 &&
        start + length <= bytes.length
      )
        bytes.fill(0, start, start + length);
    }
  }
  return bytes;
}

const xmpType = 'application/rdf+xml';

/** A `mime` item's content type: after the item's name, both ending in a zero byte in its box. */
function mimeContentType(bytes: Buffer, nameAt: number, end: number): string | null {
  const box = bytes.subarray(nameAt, Math.min(end, bytes.length));
  const nameEnd = box.indexOf(0);
  const typeEnd = nameEnd === -1 ? -1 : box.indexOf(0, nameEnd + 1);
  // A content type is a few dozen characters; a longer one is not XMP's.
  if (typeEnd === -1 || typeEnd - nameEnd > 128) return null;
  return box.toString('latin1', nameEnd + 1, typeEnd);
}

/** An image whose type was recognised but whose structure is broken: refused, not stored. */
export class ImageError extends Error {}
