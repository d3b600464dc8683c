import { mediaLimits, type SessionRecording } from '@locus/contract';
import { createHash } from 'node:crypto';
import { ApiError } from '../../http/errors';
import type { Principal } from '../auth/guard';
import { findVisibleSession } from '../location/repo';
import { findSessionCaller } from './photos-repo';
import { tooLarge, type MediaDeps } from './photos-service';
import {
  findRecording,
  insertRecording,
  lastChunkIndex,
  finishLocked,
  recordingChunks,
  teamRecordsMedia,
  insertChunk,
  type RecordingRow,
} from './recordings-repo';
import { signMediaUrl } from './signed-url';
import { chunkKey } from './storage';

/**
 * Evidence recording of the live video (issue 19): the dashboard of a dispatcher of the session
 * records the stream it receives (MediaRecorder, WebM) and uploads it in chunks. Recorded on the
 * receiving side rather than on the phone: the caller's uplink is the scarce resource (it
 * already carries the live video), and the dispatcher's network is the reliable one; what is
 * kept is what the dispatcher saw.
 */
const noSuchSession = () => new ApiError(404, 'not-found', 'There is no such tracking session.');
const noSuchRecording = () => new ApiError(404, 'not-found', 'There is no such recording.');

export async function startRecording(
  deps: MediaDeps,
  principal: Principal,
  sessionId: string,
  body: { callerId: string; contentType: string },
): Promise<SessionRecording> {
  const session = await findVisibleSession(deps.db, sessionId, principal.userId);
  if (!session) throw noSuchSession();
  if (session.status !== 'active')
    throw new ApiError(409, 'conflict', 'This tracking session has ended.');
  if (!(await teamRecordsMedia(deps.db, session.teamId)))
    throw new ApiError(
      403,
      'forbidden',
      "Your team does not record video (a team admin can turn on 'Record video as evidence').",
    );
  if (!(await findSessionCaller(deps.db, sessionId, body.callerId)))
    throw new ApiError(404, 'not-found', 'There is no such caller in this session.');
  const row = await insertRecording(deps.db, {
    sessionId,
    callerId: body.callerId,
    recordedBy: principal.userId,
    contentType: body.contentType,
  });
  return toRecording(deps.config.MEDIA_URL_SECRET, row);
}

/** The recording, if the principal may see its session (404 otherwise, as for the session). */
async function visibleRecording(
  deps: MediaDeps,
  principal: Principal,
  sessionId: string,
  recordingId: string,
): Promise<RecordingRow> {
  const session = await findVisibleSession(deps.db, sessionId, principal.userId);
  if (!session) throw noSuchSession();
  const recording = await findRecording(deps.db, recordingId);
  if (!recording || recording.session_id !== sessionId) throw noSuchRecording();
  return recording;
}

/** WebM (Matroska) files begin with the EBML magic number. */
const ebmlMagic = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);

export async function uploadChunk(
  deps: MediaDeps,
  principal: Principal,
  params: { sessionId: string; recordingId: string; index: number },
  body: Buffer,
): Promise<{ index: number; bytes: number; sha256: string }> {
  const recording = await visibleRecording(deps, principal, params.sessionId, params.recordingId);
  if (recording.ended_at) throw new ApiError(409, 'conflict', 'This recording is finished.');
  if (body.length === 0)
    throw new ApiError(400, 'validation-failed', 'Send the chunk as the request body.');
  if (body.length > mediaLimits.maxRecordingChunkBytes)
    throw tooLarge(mediaLimits.maxRecordingChunkBytes);
  if (params.index === 0 && !body.subarray(0, 4).equals(ebmlMagic))
    throw new ApiError(415, 'validation-failed', 'A recording is WebM: its first chunk is not.');
  const last = await lastChunkIndex(deps.db, recording.id);
  if (params.index > last + 1)
    throw new ApiError(409, 'conflict', `Send chunk ${last + 1} first (chunks go in order).`);
  const sha256 = createHash('sha256').update(body).digest('hex');
  // Named by its content too: a chunk sent again with other bytes never overwrites the stored one.
  const storageKey = chunkKey(params.sessionId, recording.id, params.index, sha256);
  await deps.storage.put(storageKey, body, 'video/webm');
  const outcome = await insertChunk(deps.db, {
    recordingId: recording.id,
    index: params.index,
    bytes: body.length,
    sha256,
    storageKey,
  });
  if (outcome === 'stored') return { index: params.index, bytes: body.length, sha256 };
  await deps.storage.delete(storageKey).catch(() => undefined);
  throw outcome === 'finished'
    ? new ApiError(409, 'conflict', 'This recording is finished.')
    : new ApiError(409, 'conflict', `Chunk ${params.index} is already stored, with other bytes.`);
}

/** The chunks in order make the file; its SHA-256 is what the evidence chain covers. */
export async function finishRecording(
  deps: MediaDeps,
  principal: Principal,
  sessionId: string,
  recordingId: string,
): Promise<SessionRecording> {
  const recording = await visibleRecording(deps, principal, sessionId, recordingId);
  if (!recording.ended_at)
    await finishLocked(deps.db, recording.id, async (chunks) => {
      const hash = createHash('sha256');
      let bytes = 0;
      for (const chunk of chunks) {
        const data = await deps.storage.get(chunk.storage_key);
        // Storage lost a file it acknowledged: an operator's problem, not the dispatcher's.
        if (!data) throw new Error(`recording ${recording.id}: chunk ${chunk.index} is missing`);
        hash.update(data);
        bytes += data.length;
      }
      if (bytes === 0) throw new ApiError(409, 'conflict', 'The recording has no chunks yet.');
      return { bytes, sha256: hash.digest('hex') };
    });
  const finished = await findRecording(deps.db, recording.id);
  if (!finished) throw noSuchRecording();
  return toRecording(deps.config.MEDIA_URL_SECRET, finished);
}

/**
 * The whole recording as one WebM file (the chunks in order), for its signed URL, streamed a
 * chunk at a time: an hour of video is a few hundred megabytes, which must never sit whole in
 * the memory of an instance that also carries live fixes. A chunk storage lost midway ends the
 * stream with an error (the answer is cut short and its length does not match).
 */
export async function recordingFile(
  deps: MediaDeps,
  recordingId: string,
): Promise<{ body: ReadableStream<Uint8Array>; contentType: string; length: number } | null> {
  const recording = await findRecording(deps.db, recordingId);
  if (!recording) return null;
  const chunks = await recordingChunks(deps.db, recording.id);
  if (chunks.length === 0) return null;
  const length = chunks.reduce((sum, chunk) => sum + Number(chunk.bytes), 0);
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = chunks[next];
      next += 1;
      if (!chunk) return controller.close();
      const data = await deps.storage.get(chunk.storage_key);
      if (!data)
        return controller.error(
          new Error(`recording ${recording.id}: chunk ${chunk.index} is missing`),
        );
      controller.enqueue(new Uint8Array(data.buffer, data.byteOffset, data.length));
    },
  });
  return { body, contentType: recording.content_type, length };
}

export function toRecording(secret: string, row: RecordingRow): SessionRecording {
  const signed = signMediaUrl(secret, 'recordings', row.id);
  return {
    id: row.id,
    sessionId: row.session_id,
    callerId: row.caller_id,
    contentType: row.content_type,
    startedAt: row.started_at.toISOString(),
    endedAt: row.ended_at?.toISOString() ?? null,
    bytes: Number(row.bytes),
    sha256: row.sha256,
    url: signed.url,
    urlExpiresAt: signed.expiresAt.toISOString(),
  };
}
