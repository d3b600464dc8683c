import type { SessionMedia } from '@locus/contract';
import { ApiError } from '../../http/errors';
import type { Principal } from '../auth/guard';
import { findVisibleSession } from '../location/repo';
import { findMedia, listSessionMedia } from './photos-repo';
import { toStoredPhoto, withSignedUrl, type MediaDeps } from './photos-service';
import { listRecordings } from './recordings-repo';
import { recordingFile, toRecording } from './recordings-service';
import { checkMediaSignature, type SignedMediaKind } from './signed-url';

/**
 * The session's gallery with signed URLs: for whoever may see the session (its dispatcher now,
 * or an admin of its team), and 404 for anyone else, exactly as the session's other routes.
 */
export async function sessionMedia(
  deps: MediaDeps,
  principal: Principal,
  sessionId: string,
): Promise<SessionMedia> {
  const session = await findVisibleSession(deps.db, sessionId, principal.userId);
  if (!session) throw new ApiError(404, 'not-found', 'There is no such tracking session.');
  const secret = deps.config.MEDIA_URL_SECRET;
  const [photos, recordings] = await Promise.all([
    listSessionMedia(deps.db, sessionId),
    listRecordings(deps.db, sessionId),
  ]);
  return {
    photos: photos.map((row) => withSignedUrl(secret, toStoredPhoto(row))),
    recordings: recordings.map((row) => toRecording(secret, row)),
  };
}

/**
 * The bytes behind a signed URL. The signature is checked before anything is read, so an
 * unsigned request learns nothing (not even whether the id exists); a purged file is 404.
 */
export async function signedMediaFile(
  deps: MediaDeps,
  kind: SignedMediaKind,
  id: string,
  query: { expires: number; signature: string },
): Promise<MediaFile> {
  const check = checkMediaSignature(deps.config.MEDIA_URL_SECRET, kind, id, query);
  if (check === 'expired')
    throw new ApiError(403, 'forbidden', 'This link has expired: open the gallery again.');
  if (check === 'forged') throw new ApiError(403, 'forbidden', 'This link is not valid.');
  const file = kind === 'photos' ? await photoBytes(deps, id) : await recordingFile(deps, id);
  if (!file) throw new ApiError(404, 'not-found', 'There is no such file.');
  return file;
}

/** A file to answer with: a photo's bytes, or a recording's stream, and its length. */
export interface MediaFile {
  body: Uint8Array | ReadableStream<Uint8Array>;
  contentType: string;
  length: number;
}

async function photoBytes(deps: MediaDeps, id: string): Promise<MediaFile | null> {
  const row = await findMedia(deps.db, id);
  if (!row) return null;
  const bytes = await deps.storage.get(row.storage_key);
  return bytes ? { body: bytes, contentType: row.content_type, length: bytes.length } : null;
}
