import { contract, ErrorBody, type SessionMedia, type SessionRecording } from '@locus/contract';
import { api, ApiError, expect } from '../../app/api';
import { sessionStore } from '../../app/session';

/**
 * Issue 19's REST routes for the dashboard (`mediaContract`). The JSON ones go through the
 * typed client; the raw-bytes uploads (a snapshot, a recording's chunk) are sent with `fetch`,
 * since the client would encode a body as JSON, to the paths the contract gives.
 */
async function sendBytes(path: string, method: 'POST' | 'PUT', body: Blob): Promise<void> {
  const { token } = sessionStore.get();
  const response = await fetch(path, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      'content-type': body.type || 'application/octet-stream',
    },
    body,
  });
  if (response.ok) return;
  const error = ErrorBody.safeParse(await response.json().catch(() => null));
  throw new ApiError(response.status, error.success ? error.data : null);
}

const fill = (path: string, params: Record<string, string | number>) =>
  path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(params[name])));

/** The session's photos, stills, snapshots and recordings, with signed URLs that expire. */
export async function fetchSessionMedia(sessionId: string): Promise<SessionMedia> {
  return expect(await api.media.list({ params: { sessionId } }), 200);
}

/** A snapshot of the caller's video as this dispatcher sees it (JPEG), stored with the session. */
export async function uploadSnapshot(sessionId: string, callerId: string, blob: Blob) {
  const query = new URLSearchParams({ callerId, takenAt: new Date().toISOString() });
  await sendBytes(
    `${fill(contract.media.snapshot.path, { sessionId })}?${query.toString()}`,
    'POST',
    blob,
  );
}

export async function startRecording(
  sessionId: string,
  callerId: string,
  contentType: string,
): Promise<SessionRecording> {
  return expect(
    await api.media.startRecording({ params: { sessionId }, body: { callerId, contentType } }),
    201,
  );
}

export async function uploadChunk(
  sessionId: string,
  recordingId: string,
  index: number,
  chunk: Blob,
): Promise<void> {
  await sendBytes(
    fill(contract.media.recordingChunk.path, { sessionId, recordingId, index }),
    'PUT',
    chunk,
  );
}

export async function finishRecording(sessionId: string, recordingId: string): Promise<void> {
  expect(await api.media.finishRecording({ params: { sessionId, recordingId } }), 200);
}
