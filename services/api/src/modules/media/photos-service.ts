import {
  mediaLimits,
  type CallerMediaReceipt,
  type CallerMediaUploadQuery,
  type Location,
  type SessionPhoto,
} from '@locus/contract';
import type { ObjectStorage } from '@locus/storage';
import { createHash, randomUUID } from 'node:crypto';
import { ApiError } from '../../http/errors';
import type { AppDeps } from '../../platform/deps';
import type { Principal } from '../auth/guard';
import { findVisibleSession } from '../location/repo';
import type { RealtimeContext } from '../realtime/context';
import { publishServerFix, publishSessionEvent } from '../realtime/session-publisher';
import { hashToken, looksLikeToken } from '../sessions/tokens';
import { cleanImage, detectImageType, ImageError, type PhotoContentType } from './photos-image';
import {
  countCallerMedia,
  type findMedia,
  findSessionCaller,
  findUploadingCaller,
  insertMediaWithin,
  lastStillAt,
  setMediaSeq,
  type MediaAllowance,
  type NewMedia,
} from './photos-repo';
import { signMediaUrl } from './signed-url';
import { photoKey } from './storage';

export interface MediaDeps extends AppDeps {
  realtime: RealtimeContext;
  storage: ObjectStorage;
}

/**
 * A GPS position from EXIF without its error (`GPSHPositioningError` is often absent): drawn as
 * 50 m, the outer end of a phone's usual outdoor GPS error, so that the map does not claim more
 * precision than the photo had. The photo keeps null (unknown).
 */
const exifDefaultRadiusM = 50;

const noSuchSession = () => new ApiError(404, 'not-found', 'There is no such tracking session.');

/**
 * The link's check alone, run before the body is read (routes.ts): an upload with a link that
 * does not work is refused before up to 15 MB of it is buffered.
 */
export async function requireUploadingCaller(deps: MediaDeps, token: unknown): Promise<void> {
  const caller =
    typeof token === 'string' && looksLikeToken(token)
      ? await findUploadingCaller(deps.db, hashToken(token))
      : undefined;
  if (!caller) throw new ApiError(403, 'invalid-token', 'This link no longer works.');
}

/**
 * The caller's page uploads a photo or a still (issue 19). Checked in this order, and nothing is
 * stored unless every check passes: the link, the size, the type by its bytes, the structure
 * (the metadata is removed while it is read), the caller's allowance. Then the file is stored,
 * its row written (where the allowance is checked again under a lock: two uploads at once cannot
 * both be the tenth, and the file of the refused one is deleted), a position published as a fix
 * of the session, and `photo-added` announced.
 */
export async function uploadCallerMedia(
  deps: MediaDeps,
  query: CallerMediaUploadQuery,
  body: Buffer,
): Promise<CallerMediaReceipt> {
  const caller = looksLikeToken(query.token)
    ? await findUploadingCaller(deps.db, hashToken(query.token))
    : undefined;
  if (!caller) throw new ApiError(403, 'invalid-token', 'This link no longer works.');
  // A still is a small JPEG of the camera; a bigger one is not a still.
  if (query.kind === 'still' && body.length > mediaLimits.maxStillBytes)
    throw tooLarge(mediaLimits.maxStillBytes);
  const { contentType, image } = readImage(body);
  const target = { sessionId: caller.session_id, callerId: caller.caller_id };
  if (query.kind === 'photo') {
    const count = await countCallerMedia(deps.db, target.sessionId, target.callerId, 'photo');
    if (count >= mediaLimits.maxPhotosPerCaller) throw tooManyPhotos();
  } else {
    // Stills come every `stillEveryMs` while the video cannot be sustained; faster is a flood.
    const last = await lastStillAt(deps.db, target.sessionId, target.callerId);
    if (last && Date.now() - last.getTime() < mediaLimits.stillEveryMs / 2)
      throw new ApiError(429, 'rate-limited', 'Stills come at most one every 1.5 seconds.');
  }
  const position =
    query.latitude !== undefined && query.longitude !== undefined
      ? {
          latitude: query.latitude,
          longitude: query.longitude,
          uncertaintyRadiusInMeters: query.accuracy ?? null,
        }
      : null;
  const stored = await storeMedia(
    deps,
    {
      ...target,
      kind: query.kind,
      uploadedBy: null,
      contentType,
      ...image,
      // A phone's clock can run ahead: no picture is dated later than its arrival.
      takenAt: earliest(new Date(query.takenAt), new Date()),
      position,
    },
    query.kind === 'photo'
      ? { most: mediaLimits.maxPhotosPerCaller }
      : { bytes: mediaLimits.maxStillBytesPerCaller },
  );
  if (!stored && query.kind === 'still')
    throw new ApiError(
      409,
      'conflict',
      'This call has sent as many stills as it may; photos can still be sent.',
    );
  if (!stored) throw tooManyPhotos();
  // A fix of the session, as the issue asks, dated when the photo was taken: an old picture's
  // fix shows as old on the dashboard, and is not newer than the caller's latest (dedupe), so it
  // never moves where the caller is now.
  if (position) {
    const location: Location = {
      latitude: position.latitude,
      longitude: position.longitude,
      uncertaintyRadiusInMeters: position.uncertaintyRadiusInMeters ?? exifDefaultRadiusM,
      altitude: null,
      address: null,
      // The caller's phone measured it, as it does the page's fixes (SPEC.md has two sources).
      capturedFromSource: 'TEXT_MESSAGE',
      dateTimeCaptured: stored.takenAt,
    };
    await publishServerFix(deps.realtime, target, location);
  }
  await announce(deps, stored);
  const photosLeft =
    mediaLimits.maxPhotosPerCaller -
    (await countCallerMedia(deps.db, target.sessionId, target.callerId, 'photo'));
  return {
    id: stored.id,
    kind: query.kind,
    contentType,
    bytes: stored.bytes,
    sha256: stored.sha256,
    photosLeft: Math.max(0, photosLeft),
  };
}

/** A dispatcher's snapshot of the caller's video: stored and announced like a caller's photo. */
export async function uploadSnapshot(
  deps: MediaDeps,
  principal: Principal,
  sessionId: string,
  query: { callerId: string; takenAt?: string },
  body: Buffer,
): Promise<SessionPhoto> {
  const session = await findVisibleSession(deps.db, sessionId, principal.userId);
  if (!session) throw noSuchSession();
  if (!(await findSessionCaller(deps.db, sessionId, query.callerId)))
    throw new ApiError(404, 'not-found', 'There is no such caller in this session.');
  const { contentType, image } = readImage(body);
  const now = new Date();
  const stored = await storeMedia(
    deps,
    {
      sessionId,
      callerId: query.callerId,
      kind: 'snapshot',
      uploadedBy: principal.userId,
      contentType,
      ...image,
      takenAt: query.takenAt ? earliest(new Date(query.takenAt), now) : now,
      position: null,
    },
    { most: mediaLimits.maxSnapshotsPerCaller },
  );
  if (!stored)
    throw new ApiError(
      409,
      'conflict',
      `At most ${mediaLimits.maxSnapshotsPerCaller} snapshots of one caller can be kept in one session.`,
    );
  await announce(deps, stored);
  return withSignedUrl(deps.config.MEDIA_URL_SECRET, stored);
}

type StoredPhoto = Omit<SessionPhoto, 'url' | 'urlExpiresAt'>;

/** The file first, then its row; a refused row deletes the file, so nothing stays behind. */
async function storeMedia(
  deps: MediaDeps,
  media: Omit<NewMedia, 'id' | 'sha256' | 'storageKey' | 'bytes'> & { bytes: Buffer },
  allowance: MediaAllowance,
): Promise<StoredPhoto | null> {
  const id = randomUUID();
  const storageKey = photoKey(media.sessionId, id, media.contentType);
  const sha256 = createHash('sha256').update(media.bytes).digest('hex');
  await deps.storage.put(storageKey, media.bytes, media.contentType);
  let row: Awaited<ReturnType<typeof insertMediaWithin>>;
  try {
    row = await insertMediaWithin(
      deps.db,
      { ...media, id, sha256, storageKey, bytes: media.bytes.length },
      allowance,
    );
  } catch (error) {
    await deps.storage.delete(storageKey);
    throw error;
  }
  if (!row) {
    await deps.storage.delete(storageKey);
    return null;
  }
  return toStoredPhoto(row);
}

/** The sequenced `photo-added`: dashboards add it to the gallery; it is in the evidence chain. */
async function announce(deps: MediaDeps, photo: StoredPhoto): Promise<void> {
  const seq = await publishSessionEvent(
    deps.realtime,
    { sessionId: photo.sessionId, callerId: photo.callerId },
    'photo-added',
    { photo },
  );
  if (seq > 0) await setMediaSeq(deps.db, photo.id, seq);
}

type Row = NonNullable<Awaited<ReturnType<typeof findMedia>>>;

export function toStoredPhoto(row: Row): StoredPhoto {
  return {
    id: row.id,
    sessionId: row.session_id,
    callerId: row.caller_id,
    kind: row.kind as SessionPhoto['kind'],
    contentType: row.content_type as PhotoContentType,
    bytes: row.bytes,
    width: row.width,
    height: row.height,
    takenAt: row.taken_at.toISOString(),
    uploadedAt: row.uploaded_at.toISOString(),
    position:
      row.latitude !== null && row.longitude !== null
        ? {
            latitude: row.latitude,
            longitude: row.longitude,
            uncertaintyRadiusInMeters: row.uncertainty_radius_m,
          }
        : null,
    sha256: row.sha256,
  };
}

export function withSignedUrl(secret: string, photo: StoredPhoto): SessionPhoto {
  const signed = signMediaUrl(secret, 'photos', photo.id);
  return { ...photo, url: signed.url, urlExpiresAt: signed.expiresAt.toISOString() };
}

/** The type by the bytes, then the bytes as they will be stored (metadata removed). */
function readImage(body: Buffer): {
  contentType: PhotoContentType;
  image: { bytes: Buffer; width: number | null; height: number | null };
} {
  if (body.length === 0)
    throw new ApiError(400, 'validation-failed', 'Send the image as the request body.');
  if (body.length > mediaLimits.maxUploadBytes) throw tooLarge(mediaLimits.maxUploadBytes);
  const contentType = detectImageType(body);
  if (!contentType)
    throw new ApiError(
      415,
      'validation-failed',
      'Only JPEG, PNG, HEIC/HEIF or WebP images can be sent (this file is none of them).',
    );
  try {
    return { contentType, image: cleanImage(body, contentType) };
  } catch (error) {
    if (error instanceof ImageError) throw new ApiError(400, 'validation-failed', error.message);
    throw error;
  }
}

export function tooLarge(limit: number): ApiError {
  const megabytes = Math.round(limit / (1024 * 1024));
  return new ApiError(413, 'validation-failed', `The file is too large: at most ${megabytes} MB.`);
}

function tooManyPhotos(): ApiError {
  return new ApiError(
    409,
    'conflict',
    `At most ${mediaLimits.maxPhotosPerCaller} photos can be sent in one session.`,
  );
}

function earliest(a: Date, b: Date): Date {
  return a.getTime() <= b.getTime() ? a : b;
}
