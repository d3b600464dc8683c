import { SessionMedia, SessionRecording } from '@locus/contract';
import { sessionStore } from '../../app/session';

/**
 * Issue 19's REST routes for the dashboard, as `mediaContract` (packages/contract/src/media.ts)
 * describes them. The raw-bytes bodies are sent with `fetch` (the typed client would encode
 * them as JSON); the others too, until the contract holding them has landed.
 */
export const mediaRoutes = {
  list: (sessionId: string) => `/api/v1/sessions/${sessionId}/media`,
  snapshot: (sessionId: string) => `/api/v1/sessions/${sessionId}/media/snapshots`,
  startRecording: (sessionId: string) => `/api/v1/sessions/${sessionId}/recordings`,
  chunk: (sessionId: string, recordingId: string, index: number) =>
    `/api/v1/sessions/${sessionId}/recordings/${recordingId}/chunks/${index}`,
  finishRecording: (sessionId: string, recordingId: string) =>
    `/api/v1/sessions/${sessionId}/recordings/${recordingId}/finish`,
};

/** A refusal, with the API's `error` code and its words. */
export class MediaApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
  ) {
    super(message);
  }
}

function authorization(): Record<string, string> {
  const { token } = sessionStore.get();
  return token ? { authorization: `Bearer ${token}` } : {};
}

async function call(path: string, init: RequestInit = {}): Promise<unknown> {
  const response = await fetch(path, {
    ...init,
    headers: { ...authorization(), ...(init.headers as Record<string, string> | undefined) },
  });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const { error, message } = (body ?? {}) as { error?: unknown; message?: unknown };
    throw new MediaApiError(
      response.status,
      typeof error === 'string' ? error : null,
      typeof message === 'string' ? message : `${path} answered ${response.status}`,
    );
  }
  return body;
}

/** The session's photos, stills, snapshots and recordings, with signed URLs that expire. */
export async function fetchSessionMedia(sessionId: string): Promise<SessionMedia> {
  return SessionMedia.parse(await call(mediaRoutes.list(sessionId)));
}

/** A snapshot of the caller's video as this dispatcher sees it (JPEG), stored with the session. */
export async function uploadSnapshot(
  sessionId: string,
  callerId: string,
  blob: Blob,
): Promise<void> {
  const query = new URLSearchParams({ callerId, takenAt: new Date().toISOString() });
  await call(`${mediaRoutes.snapshot(sessionId)}?${query.toString()}`, {
    method: 'POST',
    headers: { 'content-type': 'image/jpeg' },
    body: blob,
  });
}

export async function startRecording(
  sessionId: string,
  callerId: string,
  contentType: string,
): Promise<SessionRecording> {
  return SessionRecording.parse(
    await call(mediaRoutes.startRecording(sessionId), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ callerId, contentType }),
    }),
  );
}

export async function uploadChunk(
  sessionId: string,
  recordingId: string,
  index: number,
  chunk: Blob,
): Promise<void> {
  await call(mediaRoutes.chunk(sessionId, recordingId, index), {
    method: 'PUT',
    headers: { 'content-type': 'video/webm' },
    body: chunk,
  });
}

export async function finishRecording(sessionId: string, recordingId: string): Promise<void> {
  await call(mediaRoutes.finishRecording(sessionId, recordingId), { method: 'POST' });
}
