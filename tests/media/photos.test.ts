import { mediaLimits, type SessionMedia } from '@locus/contract';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signMediaUrl } from '../../services/api/src/modules/media/signed-url';
import { call, signIn, startAuthStack, type AuthStack } from '../auth/support';
import { otherTeamEmail } from '../tracking/support';
import {
  callerIdOf,
  callerUploadPath,
  exifSecret,
  heic,
  hostileHeic,
  jpegWithExif,
  pdf,
  pngWithText,
  sessionWithCaller,
  upload,
  webpWithExif,
} from './photos-support';

// Issue 19's photos against a real API, Postgres and Redis, with the default media storage
// (files under MEDIA_DIR): uploads by the caller's link, the gallery's signed URLs, isolation.

const secret = 'test-media-url-secret-0123456789';
let stack: AuthStack;
let mediaDir: string;

beforeAll(async () => {
  mediaDir = mkdtempSync(join(tmpdir(), 'locus-media-'));
  stack = await startAuthStack({
    env: { MEDIA_DIR: mediaDir, MEDIA_URL_SECRET: secret },
    workerEnv: { MEDIA_DIR: mediaDir },
  });
});
afterAll(async () => {
  await stack?.close();
  rmSync(mediaDir, { recursive: true, force: true });
});

/** Every file under the media directory (a refused upload must leave none). */
function storedFiles(): string[] {
  return readdirSync(mediaDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The session's fixes as [latitude, longitude, captured at]. */
async function storedFixes(sessionId: string) {
  const fixes = await stack.database.db
    .selectFrom('location_fixes')
    .select(['latitude', 'longitude', 'captured_at'])
    .where('session_id', '=', sessionId)
    .execute();
  return fixes.map((fix) => [fix.latitude, fix.longitude, fix.captured_at.toISOString()]);
}

async function mediaRows(sessionId: string) {
  return stack.database.db
    .selectFrom('session_media')
    .selectAll()
    .where('session_id', '=', sessionId)
    .orderBy('uploaded_at')
    .execute();
}

describe("the caller's photo upload", () => {
  it('stores a JPEG without its EXIF, makes its GPS a fix, and tells the dashboard', async () => {
    const { request, token, linkToken, dispatcher } = await sessionWithCaller(
      stack.api,
      '+12025550171',
    );
    const takenAt = new Date(Date.now() - 60_000).toISOString();
    const original = jpegWithExif();
    expect(original.toString('latin1')).toContain(exifSecret);
    const answer = await upload(
      stack.api,
      callerUploadPath(linkToken, { takenAt, latitude: 38.8977, longitude: -77.0365, accuracy: 9 }),
      original,
      // A name and a header that say nothing true: the bytes decide.
      { contentType: 'application/octet-stream' },
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body).toMatchObject({
      kind: 'photo',
      contentType: 'image/jpeg',
      photosLeft: mediaLimits.maxPhotosPerCaller - 1,
    });

    // Stored stripped: no EXIF, XMP or comment, the image data and the frame intact.
    const [row] = await mediaRows(request.uuid);
    expect(row).toMatchObject({
      kind: 'photo',
      content_type: 'image/jpeg',
      width: 640,
      height: 480,
    });
    const stored = readFileSync(join(mediaDir, row!.storage_key));
    const text = stored.toString('latin1');
    expect(text).not.toContain('Exif');
    expect(text).not.toContain('GPS');
    expect(text).not.toContain('Elm Street');
    expect(text).toContain('JFIF');
    expect(stored.subarray(-10)).toEqual(original.subarray(-10));
    expect(stored.length).toBeLessThan(original.length);
    expect(row!.sha256).toBe(createHash('sha256').update(stored).digest('hex'));
    expect(answer.body.sha256).toBe(row!.sha256);
    expect(row).toMatchObject({ latitude: 38.8977, longitude: -77.0365, uncertainty_radius_m: 9 });

    // The position is a fix of the session, published and stored like the provider's.
    const [fix] = await dispatcher.count('new-location-available', 1);
    expect(fix!.data).toMatchObject({ latitude: 38.8977, longitude: -77.0365 });
    const [added] = await dispatcher.count('photo-added', 1);
    expect(added!.data).toMatchObject({
      sessionId: request.uuid,
      photo: {
        id: row!.id,
        kind: 'photo',
        contentType: 'image/jpeg',
        sha256: row!.sha256,
        takenAt,
        position: { latitude: 38.8977, longitude: -77.0365, uncertaintyRadiusInMeters: 9 },
      },
    });
    await expect.poll(() => storedFixes(request.uuid)).toEqual([[38.8977, -77.0365, takenAt]]);
    await expect
      .poll(async () => (await mediaRows(request.uuid))[0]!.seq)
      .toBe((added!.data as { seq: number }).seq);

    // The gallery: a signed URL that serves the stored bytes, privately and never sniffed.
    const gallery = await call<SessionMedia>(
      stack.api,
      'GET',
      `/api/v1/sessions/${request.uuid}/media`,
      { token },
    );
    expect(gallery.status).toBe(200);
    expect(gallery.body.recordings).toEqual([]);
    const [photo] = gallery.body.photos;
    expect(photo).toMatchObject({ id: row!.id, width: 640, height: 480, bytes: stored.length });
    const expiresIn = Date.parse(photo!.urlExpiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan((mediaLimits.signedUrlSeconds - 5) * 1000);
    expect(expiresIn).toBeLessThanOrEqual(mediaLimits.signedUrlSeconds * 1000);
    const file = await fetch(`${stack.api.url}${photo!.url}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/jpeg');
    expect(file.headers.get('cache-control')).toBe('private');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(stored);
    dispatcher.close();
  });

  it('makes an old photo’s position a fix dated when it was taken; an empty position is none', async () => {
    const { request, linkToken, dispatcher } = await sessionWithCaller(stack.api, '+12025550175');
    // From the phone's gallery, two days old: a fix of then, not of now.
    const takenAt = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const old = await upload(
      stack.api,
      callerUploadPath(linkToken, { takenAt, latitude: 40.7128, longitude: -74.006 }),
      jpegWithExif(),
      { contentType: 'image/jpeg' },
    );
    expect(old.status, JSON.stringify(old.body)).toBe(201);
    // A page that sent the fields empty sent no position (not 0°, 0°).
    const empty = await upload(
      stack.api,
      callerUploadPath(linkToken, { latitude: '', longitude: '', accuracy: '' }),
      jpegWithExif(),
      { contentType: 'image/jpeg' },
    );
    expect(empty.status, JSON.stringify(empty.body)).toBe(201);
    await dispatcher.count('photo-added', 2);
    const rows = await mediaRows(request.uuid);
    expect(rows.map((row) => [row.latitude, row.longitude])).toEqual([
      [40.7128, -74.006],
      [null, null],
    ]);
    await expect.poll(() => storedFixes(request.uuid)).toEqual([[40.7128, -74.006, takenAt]]);
    dispatcher.close();
  });

  it('accepts PNG, WebP and HEIC by their bytes, and strips what the format allows', async () => {
    const { request, linkToken } = await sessionWithCaller(stack.api, '+12025550172');
    const cases = [
      { bytes: pngWithText(), type: 'image/png', size: [4, 3], header: 'image/jpeg' },
      { bytes: webpWithExif(), type: 'image/webp', size: [300, 200], header: 'text/plain' },
      { bytes: heic(), type: 'image/heic', size: [4032, 3024], header: 'image/png' },
    ] as const;
    for (const { bytes, type, header } of cases) {
      const answer = await upload(stack.api, callerUploadPath(linkToken), bytes, {
        contentType: header,
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      expect(answer.body.contentType).toBe(type);
    }
    const rows = await mediaRows(request.uuid);
    expect(rows.map((row) => [row.content_type, row.width, row.height])).toEqual(
      cases.map(({ type, size }) => [type, ...size]),
    );
    const png = readFileSync(join(mediaDir, rows[0]!.storage_key)).toString('latin1');
    expect(png).not.toContain('tEXt');
    expect(png).toContain('IDAT');
    const webp = readFileSync(join(mediaDir, rows[1]!.storage_key));
    expect(webp.toString('latin1')).not.toContain('SECRET');
    // The VP8X flags no longer announce EXIF, and the RIFF size is the file's.
    expect(webp[20]! & 0b1000).toBe(0);
    expect(webp.readUInt32LE(4)).toBe(webp.length - 8);
    // HEIC: the EXIF item's bytes are zeroed in place; every box and offset is where it was.
    const original = heic();
    const stored = readFileSync(join(mediaDir, rows[2]!.storage_key));
    expect(original.toString('latin1')).toContain(exifSecret);
    expect(stored.toString('latin1')).not.toContain('SECRET');
    expect(stored.length).toBe(original.length);
    expect(stored.subarray(0, 100)).toEqual(original.subarray(0, 100));
  });

  it('refuses a PDF named .jpg, and a file over 15 MB, storing nothing', async () => {
    const { request, linkToken } = await sessionWithCaller(stack.api, '+12025550173');
    const before = storedFiles();
    const disguised = await fetch(`${stack.api.url}${callerUploadPath(linkToken)}`, {
      method: 'POST',
      headers: {
        'content-type': 'image/jpeg',
        'content-disposition': 'attachment; filename="photo.jpg"',
      },
      body: pdf,
    });
    expect(disguised.status).toBe(415);
    expect(await disguised.json()).toEqual({
      error: 'validation-failed',
      message: 'Only JPEG, PNG, HEIC/HEIF or WebP images can be sent (this file is none of them).',
    });

    const huge = Buffer.alloc(mediaLimits.maxUploadBytes + 1, 0);
    jpegWithExif().copy(huge);
    const tooLarge = await upload(stack.api, callerUploadPath(linkToken), huge, {
      contentType: 'image/jpeg',
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toEqual({
      error: 'validation-failed',
      message: 'The file is too large: at most 15 MB.',
    });
    // A HEIC built to keep the parser busy for minutes is refused as damaged, at once.
    const hostile = await upload(stack.api, callerUploadPath(linkToken), hostileHeic(), {
      contentType: 'image/heic',
    });
    expect(hostile.status).toBe(400);
    expect(hostile.body).toMatchObject({ error: 'validation-failed' });
    expect(await mediaRows(request.uuid)).toEqual([]);
    expect(storedFiles()).toEqual(before);
  });

  it('refuses the eleventh photo, and a link that no longer works', async () => {
    const { request, linkToken, token } = await sessionWithCaller(stack.api, '+12025550174');
    for (let index = 0; index < mediaLimits.maxPhotosPerCaller; index += 1) {
      const answer = await upload(stack.api, callerUploadPath(linkToken), pngWithText());
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      expect(answer.body.photosLeft).toBe(mediaLimits.maxPhotosPerCaller - index - 1);
    }
    const filesBefore = storedFiles();
    const eleventh = await upload(stack.api, callerUploadPath(linkToken), pngWithText());
    expect(eleventh.status).toBe(409);
    expect(eleventh.body).toEqual({
      error: 'conflict',
      message: 'At most 10 photos can be sent in one session.',
    });
    expect(await mediaRows(request.uuid)).toHaveLength(mediaLimits.maxPhotosPerCaller);
    expect(storedFiles()).toEqual(filesBefore);

    // Stills are not photos: one is accepted beyond the ten.
    const still = await upload(stack.api, callerUploadPath(linkToken, { kind: 'still' }), heic());
    expect(still.status).toBe(201);

    const ended = await call(
      stack.api,
      'POST',
      `/api/v1/location/set-date-time-completed/${request.uuid}`,
      { token, body: {} },
    );
    expect(ended.status).toBe(200);
    const late = await upload(stack.api, callerUploadPath(linkToken), pngWithText());
    expect(late.status).toBe(403);
    expect(late.body).toEqual({ error: 'invalid-token', message: 'This link no longer works.' });
  });
});

describe('access to media', () => {
  it("answers another team's dispatcher 404, and a forged or expired URL 403", async () => {
    const { request, linkToken, token } = await sessionWithCaller(stack.api, '+12025550175');
    expect((await upload(stack.api, callerUploadPath(linkToken), jpegWithExif())).status).toBe(201);
    const [row] = await mediaRows(request.uuid);

    const neighbour = await signIn(stack.api, otherTeamEmail);
    const list = await call(stack.api, 'GET', `/api/v1/sessions/${request.uuid}/media`, {
      token: neighbour,
    });
    expect(list.status).toBe(404);
    expect(list.body).toEqual({
      error: 'not-found',
      message: 'There is no such tracking session.',
    });
    // The same answer as for a session that does not exist.
    const none = await call(
      stack.api,
      'GET',
      '/api/v1/sessions/00000000-0000-4000-8000-000000000000/media',
      { token },
    );
    expect(none.status).toBe(404);
    const snapshot = await upload(
      stack.api,
      `/api/v1/sessions/${request.uuid}/media/snapshots?callerId=${row!.caller_id}`,
      pngWithText(),
      { token: neighbour },
    );
    expect(snapshot.status).toBe(404);

    const valid = signMediaUrl(secret, 'photos', row!.id);
    const signature = new URL(valid.url, stack.api.url).searchParams.get('signature')!;
    const expires = Math.floor(valid.expiresAt.getTime() / 1000);
    const forged = await call(
      stack.api,
      'GET',
      `/api/v1/media/photos/${row!.id}?expires=${expires + 3600}&signature=${signature}`,
    );
    expect(forged.status).toBe(403);
    expect(forged.body).toEqual({ error: 'forbidden', message: 'This link is not valid.' });
    const otherSecret = signMediaUrl('another-deployments-secret-123', 'photos', row!.id);
    expect((await call(stack.api, 'GET', otherSecret.url)).status).toBe(403);
    const expired = signMediaUrl(secret, 'photos', row!.id, Date.now() - 16 * 60_000);
    const late = await call(stack.api, 'GET', expired.url);
    expect(late.status).toBe(403);
    expect(late.body).toEqual({
      error: 'forbidden',
      message: 'This link has expired: open the gallery again.',
    });
    // A photo's signature does not open a recording of the same id.
    const moved = valid.url.replace('/photos/', '/recordings/');
    expect((await call(stack.api, 'GET', moved)).status).toBe(403);
    const unknown = signMediaUrl(secret, 'photos', '00000000-0000-4000-8000-000000000000');
    expect((await call(stack.api, 'GET', unknown.url)).status).toBe(404);
    expect((await call(stack.api, 'GET', valid.url.split('?')[0]!)).status).toBe(400);
  });

  it("stores a dispatcher's snapshot and announces it", async () => {
    const { request, token, dispatcher } = await sessionWithCaller(stack.api, '+12025550176');
    const callerRow = { id: await callerIdOf(stack.database.db, request.uuid) };
    const answer = await upload(
      stack.api,
      `/api/v1/sessions/${request.uuid}/media/snapshots?callerId=${callerRow.id}`,
      webpWithExif(),
      { token, contentType: 'image/webp' },
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body).toMatchObject({ kind: 'snapshot', contentType: 'image/webp' });
    expect(String(answer.body.url)).toMatch(/^\/api\/v1\/media\/photos\//);
    const [added] = await dispatcher.count('photo-added', 1);
    expect(added!.data).toMatchObject({ photo: { id: answer.body.id, kind: 'snapshot' } });
    dispatcher.close();
  });

  it("refuses a still over its size, stills past the caller's budget and snapshots past theirs, storing nothing", async () => {
    const { request, token, linkToken } = await sessionWithCaller(stack.api, '+12025550177');
    const callerId = await callerIdOf(stack.database.db, request.uuid);
    const before = storedFiles();
    const big = await upload(
      stack.api,
      callerUploadPath(linkToken, { kind: 'still' }),
      Buffer.alloc(mediaLimits.maxStillBytes + 1, 0xff),
    );
    expect(big.status).toBe(413);
    expect(big.body).toEqual({
      error: 'validation-failed',
      message: 'The file is too large: at most 1 MB.',
    });

    // Stills already sent (rows as the upload writes them), a minute ago: 100 bytes of the
    // budget left, less than any still.
    const earlier = (kind: 'still' | 'snapshot', bytes: number, n: number) => ({
      session_id: request.uuid,
      caller_id: callerId,
      kind,
      content_type: 'image/jpeg',
      bytes,
      taken_at: new Date(Date.now() - 60_000),
      uploaded_at: new Date(Date.now() - 60_000),
      sha256: '0'.repeat(64),
      storage_key: `${request.uuid}/photos/earlier-${kind}-${n}.jpg`,
    });
    await stack.database.db
      .insertInto('session_media')
      .values(earlier('still', mediaLimits.maxStillBytesPerCaller - 100, 0))
      .execute();
    const past = await upload(stack.api, callerUploadPath(linkToken, { kind: 'still' }), heic());
    expect(past.status).toBe(409);
    expect(past.body).toEqual({
      error: 'conflict',
      message: 'This call has sent as many stills as it may; photos can still be sent.',
    });
    // Photos have their own allowance.
    expect((await upload(stack.api, callerUploadPath(linkToken), pngWithText())).status).toBe(201);

    await stack.database.db
      .insertInto('session_media')
      .values(
        Array.from({ length: mediaLimits.maxSnapshotsPerCaller }, (_, n) =>
          earlier('snapshot', 1_000, n),
        ),
      )
      .execute();
    const snapshot = await upload(
      stack.api,
      `/api/v1/sessions/${request.uuid}/media/snapshots?callerId=${callerId}`,
      pngWithText(),
      { token },
    );
    expect(snapshot.status).toBe(409);
    expect(snapshot.body).toEqual({
      error: 'conflict',
      message: 'At most 100 snapshots of one caller can be kept in one session.',
    });
    // Only the photo was stored.
    expect(storedFiles().length).toBe(before.length + 1);
  });
});
