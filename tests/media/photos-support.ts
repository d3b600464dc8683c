import type { Database } from '@locus/db';
import type { TestApi } from '../support/api';
import { call, signIn } from '../auth/support';
import type { TestSocket } from '../support/sockets';
import {
  dispatcherEmail,
  joinSession,
  linkTokenIn,
  sentTexts,
  startStream,
  type ConnectionRequest,
} from '../tracking/support';

// Images built byte by byte, so that each test knows exactly what metadata went in.

function segment(marker: number, payload: Buffer): Buffer {
  const header = Buffer.from([0xff, marker, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([header, payload]);
}

/** The EXIF text a phone would write: a GPS position and the camera's serial number. */
export const exifSecret = 'GPSLatitude 38.8977 N GPSLongitude 77.0365 W BodySerial 4242-SECRET';

/**
 * A baseline JPEG's structure (markers as a camera writes them): JFIF, an EXIF APP1 with GPS,
 * an XMP APP1, a comment, quantisation, the frame (640×480), Huffman tables, the scan, the end.
 */
export function jpegWithExif(): Buffer {
  const exif = Buffer.concat([
    Buffer.from('Exif\0\0MM\0*\0\0\0\x08', 'binary'),
    Buffer.from(exifSecret),
  ]);
  const frame = Buffer.from([8, 0x01, 0xe0, 0x02, 0x80, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'binary')),
    segment(0xe1, exif),
    segment(0xe1, Buffer.from('http://ns.adobe.com/xap/1.0/\0<x:xmpmeta>GPS secret</x:xmpmeta>')),
    segment(0xfe, Buffer.from('comment: taken at 12 Elm Street')),
    segment(0xdb, Buffer.alloc(65, 1)),
    segment(0xc0, frame),
    segment(0xc4, Buffer.alloc(30, 2)),
    segment(0xda, Buffer.from([3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3f, 0])),
    Buffer.from([0x12, 0x34, 0x56, 0x78, 0x9a, 0xff, 0x00, 0xbc]),
    Buffer.from([0xff, 0xd9]),
  ]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  // The CRC is not checked by the server; a fixed one keeps the builder short.
  return Buffer.concat([length, Buffer.from(type, 'ascii'), data, Buffer.alloc(4)]);
}

/** A 4×3 PNG with a text chunk (where editors write metadata). */
export function pngWithText(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(4, 0);
  header.writeUInt32BE(3, 4);
  header[8] = 8;
  header[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('tEXt', Buffer.from('Comment\0GPS secret')),
    pngChunk('IDAT', Buffer.from([0x78, 0x9c, 1, 2, 3])),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function riffChunk(type: string, data: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.write(type, 0, 'ascii');
  header.writeUInt32LE(data.length, 4);
  return Buffer.concat([header, data, data.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
}

/** An extended WebP (VP8X, 300×200) with an EXIF chunk. */
export function webpWithExif(): Buffer {
  const vp8x = Buffer.alloc(10);
  vp8x[0] = 0b1000; // EXIF present
  vp8x.writeUIntLE(299, 4, 3);
  vp8x.writeUIntLE(199, 7, 3);
  const body = Buffer.concat([
    riffChunk('VP8X', vp8x),
    riffChunk('VP8L', Buffer.from([0x2f, 0x2b, 0xc0, 0x31, 0x00, 0x07])),
    riffChunk('EXIF', Buffer.from(`MM\0*${exifSecret}`, 'binary')),
  ]);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(body.length + 4, 4);
  header.write('WEBP', 8, 'ascii');
  return Buffer.concat([header, body]);
}

function box(type: string, data: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(data.length + 8);
  header.write(type, 4, 'ascii');
  return Buffer.concat([header, data]);
}

/**
 * An iPhone-like HEIC: `ftyp` with the heic brand; `meta` with an `Exif` item and an XMP item
 * (`mime`, `application/rdf+xml`) in `iinf`, both located in `mdat` by `iloc`, and an `ispe` of
 * 4032×3024; the EXIF bytes hold the GPS text, and so does the XMP.
 */
export function heic(): Buffer {
  const ispe = Buffer.alloc(12);
  ispe.writeUInt32BE(4032, 4);
  ispe.writeUInt32BE(3024, 8);
  const exifInfe = box('infe', Buffer.from('\x02\0\0\0\0\x01\0\0Exif\0', 'binary'));
  const xmpInfe = box(
    'infe',
    Buffer.from('\x02\0\0\0\0\x02\0\0mime\0application/rdf+xml\0', 'binary'),
  );
  const iinf = box('iinf', Buffer.concat([Buffer.from([0, 0, 0, 0, 0, 2]), exifInfe, xmpInfe]));
  const exif = Buffer.from(`\0\0\0\x06Exif\0\0MM\0*${exifSecret}`, 'binary');
  const xmp = Buffer.from(
    `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description exif:GPSLatitude="XMP ${exifSecret}"/></rdf:RDF></x:xmpmeta>`,
    'binary',
  );
  const location = (offset: number) => {
    const data = Buffer.alloc(4 + 2 + 2 + 2 * (2 + 2 + 2 + 8));
    data.writeUInt8(0x44, 4); // offset and length: 4 bytes each; no base offset
    data.writeUInt16BE(2, 6); // two items
    let at = 8;
    for (const [id, start, length] of [
      [1, offset, exif.length],
      [2, offset + exif.length, xmp.length],
    ] as const) {
      data.writeUInt16BE(id, at);
      data.writeUInt16BE(1, at + 4); // one extent
      data.writeUInt32BE(start, at + 6);
      data.writeUInt32BE(length, at + 10);
      at += 14;
    }
    return box('iloc', data);
  };
  const ftyp = box('ftyp', Buffer.from('heic\0\0\0\0mif1heic', 'binary'));
  const meta = (offset: number) =>
    box('meta', Buffer.concat([Buffer.alloc(4), iinf, location(offset), box('ispe', ispe)]));
  const mdatStart = ftyp.length + meta(0).length + 8;
  return Buffer.concat([
    ftyp,
    meta(mdatStart),
    box('mdat', Buffer.concat([exif, xmp, Buffer.alloc(64, 7)])),
  ]);
}

/**
 * A hostile HEIC: an `Exif` item, and an `iloc` whose offsets and lengths take 0 bytes, with a
 * thousand items of 65,535 extents each: walking them would take 65 million steps for nothing.
 */
export function hostileHeic(): Buffer {
  const infe = box('infe', Buffer.from('\x02\0\0\0\0\x01\0\0Exif\0', 'binary'));
  const iinf = box('iinf', Buffer.concat([Buffer.from([0, 0, 0, 0, 0, 1]), infe]));
  const items = 1_000;
  const data = Buffer.alloc(4 + 2 + 2 + items * 6);
  data.writeUInt16BE(items, 6); // version 0, every size 0
  for (let item = 0; item < items; item += 1) {
    data.writeUInt16BE(1, 8 + item * 6); // the Exif item, again and again
    data.writeUInt16BE(0xffff, 8 + item * 6 + 4); // 65,535 extents of no bytes
  }
  const ftyp = box('ftyp', Buffer.from('heic\0\0\0\0mif1heic', 'binary'));
  return Buffer.concat([
    ftyp,
    box('meta', Buffer.concat([Buffer.alloc(4), iinf, box('iloc', data)])),
  ]);
}

export const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer\n%%EOF\n');

/** A texted caller's link token and the dispatcher's socket, joined to the session. */
export async function sessionWithCaller(
  api: TestApi,
  phoneNumber: string,
  email = dispatcherEmail,
): Promise<{
  request: ConnectionRequest;
  token: string;
  linkToken: string;
  dispatcher: TestSocket;
}> {
  const token = await signIn(api, email);
  const request = await startStream(api, token, phoneNumber);
  const dispatcher = await joinSession(api, request);
  const texted = await call(api, 'POST', '/api/v1/location/request-text-message-location', {
    token,
    body: { connectionRequestUuid: request.uuid, language: 'en' },
  });
  if (texted.status !== 200) throw new Error(`texting answered ${texted.status}`);
  const linkToken = linkTokenIn((await sentTexts(api, phoneNumber))[0]!.body);
  return { request, token, linkToken, dispatcher };
}

export interface Upload {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

/** A raw upload, as the caller's page sends it (fetch with the bytes as the body). */
export async function upload(
  api: TestApi,
  path: string,
  bytes: Buffer,
  options: { contentType?: string; token?: string; method?: string } = {},
): Promise<Upload> {
  const headers: Record<string, string> = {
    'content-type': options.contentType ?? 'application/octet-stream',
  };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(`${api.url}${path}`, {
    method: options.method ?? 'POST',
    headers,
    body: new Uint8Array(bytes),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: (text ? JSON.parse(text) : {}) as Record<string, unknown>,
    headers: response.headers,
  };
}

export function callerUploadPath(
  linkToken: string,
  query: Record<string, string | number> = {},
): string {
  const params = new URLSearchParams({
    token: linkToken,
    takenAt: new Date().toISOString(),
    ...Object.fromEntries(Object.entries(query).map(([key, value]) => [key, String(value)])),
  });
  return `/api/v1/caller/media?${params}`;
}

/** The id of the (only) caller of a session. */
export async function callerIdOf(db: Database, sessionId: string): Promise<string> {
  const row = await db
    .selectFrom('session_callers')
    .select('id')
    .where('session_id', '=', sessionId)
    .executeTakeFirstOrThrow();
  return row.id;
}
