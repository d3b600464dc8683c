import { mediaLimits, type SessionMedia, type SessionRecording } from '@locus/contract';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, startAuthStack, type AuthStack } from '../auth/support';
import { otherTeamEmail } from '../tracking/support';
import { callerIdOf, sessionWithCaller, upload } from './photos-support';

// Issue 19's evidence recording: a dispatcher's dashboard uploads the received video in WebM
// chunks while the team's `recordMedia` is on. Real API, Postgres and Redis; local storage.

let stack: AuthStack;
let mediaDir: string;
const teamAdminEmail = 'teamadmin@demo-county.test';
const webmStart = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);

beforeAll(async () => {
  mediaDir = mkdtempSync(join(tmpdir(), 'locus-recordings-'));
  stack = await startAuthStack({
    env: { MEDIA_DIR: mediaDir },
    workerEnv: { MEDIA_DIR: mediaDir },
  });
});
afterAll(async () => {
  await stack?.close();
  rmSync(mediaDir, { recursive: true, force: true });
});

async function demoCountyId(): Promise<string> {
  const team = await stack.database.db
    .selectFrom('teams')
    .select('id')
    .where('team_name', '=', 'Demo County 911')
    .executeTakeFirstOrThrow();
  return team.id;
}

async function setRecordMedia(recordMedia: boolean) {
  const admin = await signIn(stack.api, teamAdminEmail);
  return call<{ recordMedia: boolean }>(
    stack.api,
    'PATCH',
    `/api/v1/teams/${await demoCountyId()}`,
    {
      token: admin,
      body: { recordMedia },
    },
  );
}

describe('evidence recording of the video', () => {
  it('follows the team setting, which its admin may change', async () => {
    const { request, token } = await sessionWithCaller(stack.api, '+12025550191');
    const callerId = await callerIdOf(stack.database.db, request.uuid);
    const start = () =>
      call<SessionRecording>(stack.api, 'POST', `/api/v1/sessions/${request.uuid}/recordings`, {
        token,
        body: { callerId, contentType: 'video/webm' },
      });
    const off = await setRecordMedia(false);
    expect(off.status).toBe(200);
    expect(off.body.recordMedia).toBe(false);
    const refused = await start();
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'forbidden' });
    expect((await setRecordMedia(true)).body.recordMedia).toBe(true);

    // Another team's dispatcher cannot start one: the session does not exist for them.
    const neighbour = await signIn(stack.api, otherTeamEmail);
    const foreign = await call(stack.api, 'POST', `/api/v1/sessions/${request.uuid}/recordings`, {
      token: neighbour,
      body: { callerId, contentType: 'video/webm' },
    });
    expect(foreign.status).toBe(404);

    const started = await start();
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ callerId, bytes: 0, sha256: null, endedAt: null });
    const chunkPath = (index: number) =>
      `/api/v1/sessions/${request.uuid}/recordings/${started.body.id}/chunks/${index}`;
    const put = (index: number, bytes: Buffer, as = token) =>
      upload(stack.api, chunkPath(index), bytes, { token: as, method: 'PUT' });

    // The first chunk must be WebM; chunks go in order; each at most 8 MB.
    expect((await put(0, Buffer.from('not a video'))).status).toBe(415);
    const first = Buffer.concat([webmStart, Buffer.alloc(1000, 1)]);
    expect((await put(0, first)).status).toBe(200);
    expect((await put(2, Buffer.alloc(10, 3))).status).toBe(409);
    const huge = await put(1, Buffer.alloc(mediaLimits.maxRecordingChunkBytes + 1, 2));
    expect(huge.status).toBe(413);
    expect(huge.body).toEqual({
      error: 'validation-failed',
      message: 'The file is too large: at most 8 MB.',
    });
    expect((await put(1, Buffer.alloc(10, 2), neighbour)).status).toBe(404);
    const second = Buffer.alloc(2000, 2);
    const sent = await put(1, second);
    expect(sent.body).toEqual({
      index: 1,
      bytes: 2000,
      sha256: createHash('sha256').update(second).digest('hex'),
    });
    // A retried request with the same bytes is the same chunk; other bytes never replace it.
    expect((await put(1, second)).status).toBe(200);
    const other = await put(1, Buffer.alloc(2000, 9));
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ error: 'conflict' });

    const finish = () =>
      fetch(
        `${stack.api.url}/api/v1/sessions/${request.uuid}/recordings/${started.body.id}/finish`,
        { method: 'POST', headers: { authorization: `Bearer ${token}` } },
      );
    const done = (await (await finish()).json()) as SessionRecording;
    const whole = Buffer.concat([first, second]);
    expect(done).toMatchObject({
      bytes: whole.length,
      sha256: createHash('sha256').update(whole).digest('hex'),
    });
    expect(done.endedAt).not.toBeNull();
    // Idempotent, and closed to more chunks.
    expect(((await (await finish()).json()) as SessionRecording).sha256).toBe(done.sha256);
    expect((await put(2, Buffer.alloc(10, 3))).status).toBe(409);

    // In the gallery, with a signed URL serving the chunks as one file.
    const gallery = await call<SessionMedia>(
      stack.api,
      'GET',
      `/api/v1/sessions/${request.uuid}/media`,
      { token },
    );
    expect(gallery.body.recordings).toHaveLength(1);
    const file = await fetch(`${stack.api.url}${gallery.body.recordings[0]!.url}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('video/webm');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(whole);
  });
});
