import { SessionMedia } from '@locus/contract';
import { sessionStore } from '../../app/session';

/**
 * Issue 19's REST routes for the dashboard. They are not in the contract yet (the photo, list,
 * snapshot and recording routes are being added to packages/contract/src/media.ts): this is
 * the one place that names them, to be replaced by the typed client once they are.
 */
export const mediaRoutes = {
  list: (sessionId: string) => `/api/v1/location/media/${sessionId}`,
  snapshot: (sessionId: string) => `/api/v1/location/media/${sessionId}/snapshots`,
};

function authorization(): Record<string, string> {
  const { token } = sessionStore.get();
  return token ? { authorization: `Bearer ${token}` } : {};
}

/** The session's photos, stills, snapshots and recordings, with signed URLs that expire. */
export async function fetchSessionMedia(sessionId: string): Promise<SessionMedia> {
  const response = await fetch(mediaRoutes.list(sessionId), { headers: authorization() });
  if (!response.ok) throw new Error(`The media list answered ${response.status}`);
  return SessionMedia.parse(await response.json());
}

/** A snapshot of the caller's video as this dispatcher sees it (JPEG), stored with the session. */
export async function uploadSnapshot(
  sessionId: string,
  callerId: string,
  blob: Blob,
  size: { width: number; height: number },
): Promise<void> {
  const query = new URLSearchParams({
    callerId,
    takenAt: new Date().toISOString(),
    width: String(size.width),
    height: String(size.height),
  });
  const response = await fetch(`${mediaRoutes.snapshot(sessionId)}?${query.toString()}`, {
    method: 'POST',
    headers: { ...authorization(), 'content-type': 'image/jpeg' },
    body: blob,
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: unknown } | null;
    throw new Error(
      typeof body?.message === 'string'
        ? body.message
        : `The snapshot upload answered ${response.status}`,
    );
  }
}
