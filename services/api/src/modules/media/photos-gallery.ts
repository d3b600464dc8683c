import type { SessionMedia } from '@locus/contract';
import { ApiError } from '../../http/errors';
import type { Principal } from '../auth/guard';
import { findVisibleSession } from '../location/repo';
import { findMedia, listSessionMedia } from './photos-repo';
import { toStoredPhoto, withSignedUrl, type MediaDeps } from './photos-service';
import { listRecordings } from './recordings-repo';
import { recordingBytes, toRecording } from './recordings-service';
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
): Promise<{ bytes: Buffer; contentType: string }> {
  const check = checkMediaSignature(deps.config.MEDIA_URL_SECRET, kind, id, query);
  if (check === 'expired')
    throw new ApiError(403, 'forbidden', 'This link has expired: open the gallery again.');
  if (check === 'forged') throw new ApiError(403, 'forbidden', 'This link is not valid.');
  const file = kind === 'photos' ? await photoBytes(deps, id) : await recordingBytes(deps, id);
  if (!file) throw new ApiError(404, 'not-found', 'There is no such file.');
  return file;
}

async function photoBytes(
  deps: MediaDeps,
  id: string,
): Promise<{ bytes: Buffer; contentType: string } | null> {
  const row = await findMedia(deps.db, id);
  if (!row) return null;
  const bytes = await deps.storage.get(row.storage_key);
  return bytes ? { bytes, contentType: row.content_type } : null;
}
