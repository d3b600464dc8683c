import { verifyEvidence, type EvidenceFile } from '@locus/client/evidence';
import { localStorage } from '../../services/worker/src/providers/storage';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retentionPurge } from '../../services/worker/src/jobs/maintenance/retention-purge';
import type { JobContext } from '../../services/worker/src/processor';
import { call, startAuthStack, type AuthStack } from '../auth/support';
import {
  callerIdOf,
  callerUploadPath,
  jpegWithExif,
  pngWithText,
  sessionWithCaller,
  upload,
} from '../media/photos-support';

// Issue 19's evidence: a session's photos and recording are copied into its export, each
// covered by the signed hash chain with its SHA-256, and deleted (rows and files) by the
// retention purge. Real API, worker, Postgres and Redis; local media and export storage.

let stack: AuthStack;
let work: string;
let mediaDir: string;
let exportDir: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'locus-media-evidence-'));
  mediaDir = join(work, 'media');
  exportDir = join(work, 'exports');
  stack = await startAuthStack({
    env: { MEDIA_DIR: mediaDir },
    workerEnv: {
      MEDIA_DIR: mediaDir,
      EXPORT_STORAGE: 'local',
      EXPORT_DIR: exportDir,
      EVIDENCE_SIGNING_KEY_FILE: join(work, 'signing.pem'),
    },
  });
});
afterAll(async () => {
  await stack?.close();
  rmSync(work, { recursive: true, force: true });
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function mediaFiles(): string[] {
  if (!existsSync(mediaDir)) return [];
  return readdirSync(mediaDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

async function exportOf(sessionId: string) {
  for (;;) {
    const row = await stack.database.db
      .selectFrom('session_exports')
      .select(['state', 'evidence_key', 'last_error'])
      .where('session_id', '=', sessionId)
      .executeTakeFirst();
    if (row?.state === 'stored') return row;
    if (row?.state === 'failed') throw new Error(`export failed: ${row.last_error}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A dashboard's recording of the session's video: two chunks, finished. */
async function recordVideo(sessionId: string, token: string) {
  const callerId = await callerIdOf(stack.database.db, sessionId);
  const started = await call<{ id: string }>(
    stack.api,
    'POST',
    `/api/v1/sessions/${sessionId}/recordings`,
    { token, body: { callerId, contentType: 'video/webm;codecs=vp8' } },
  );
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const chunks = [
    Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(300, 1)]),
    Buffer.alloc(500, 2),
  ];
  for (const [index, chunk] of chunks.entries()) {
    const sent = await upload(
      stack.api,
      `/api/v1/sessions/${sessionId}/recordings/${started.body.id}/chunks/${index}`,
      chunk,
      { token, method: 'PUT', contentType: 'video/webm' },
    );
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  }
  const finished = await fetch(
    `${stack.api.url}/api/v1/sessions/${sessionId}/recordings/${started.body.id}/finish`,
    { method: 'POST', headers: { authorization: `Bearer ${token}` } },
  );
  expect(finished.status).toBe(200);
  const recording = (await finished.json()) as { id: string; sha256: string; bytes: number };
  return { recording, chunks };
}

/** The dispatcher ends the session: its export is queued. */
async function endSession(
  sessionId: string,
  token: string,
  dispatcher: { closed(): Promise<number> },
) {
  const ended = await call(
    stack.api,
    'POST',
    `/api/v1/location/set-date-time-completed/${sessionId}`,
    { token, body: {} },
  );
  expect(ended.status).toBe(200);
  await dispatcher.closed();
}

describe("a session's media as evidence", () => {
  it('exports the photos and the recording, chained by SHA-256, and purges them with the session', async () => {
    const { request, token, linkToken, dispatcher } = await sessionWithCaller(
      stack.api,
      '+12025550181',
    );
    const photo = await upload(
      stack.api,
      callerUploadPath(linkToken, { latitude: 38.8977, longitude: -77.0365 }),
      jpegWithExif(),
    );
    expect(photo.status, JSON.stringify(photo.body)).toBe(201);
    const second = await upload(stack.api, callerUploadPath(linkToken), pngWithText());
    expect(second.status).toBe(201);

    // The dispatcher's dashboard records the received video (Demo County records media).
    const { recording, chunks } = await recordVideo(request.uuid, token);
    expect(recording).toMatchObject({ sha256: sha256(Buffer.concat(chunks)), bytes: 804 });

    await endSession(request.uuid, token, dispatcher);

    // The export: every file beside the rows, each a `media` record of the verified chain.
    const exported = await exportOf(request.uuid);
    const file = JSON.parse(readFileSync(exported.evidence_key!, 'utf8')) as EvidenceFile;
    expect(verifyEvidence(file)).toMatchObject({ ok: true });
    const media = file.records.filter((record) => record.kind === 'media');
    const data = media.map(
      (record) => record.data as { kind: string; file: string; sha256: string },
    );
    expect(data.map((item) => item.kind)).toEqual(['photo', 'photo', 'recording']);
    const folder = join(exportDir, file.session.teamId, request.uuid);
    const stored = await stack.database.db
      .selectFrom('session_media')
      .select(['sha256', 'storage_key'])
      .where('session_id', '=', request.uuid)
      .orderBy('uploaded_at')
      .execute();
    expect(data.map((item) => item.sha256)).toEqual([
      ...stored.map((row) => row.sha256),
      recording.sha256,
    ]);
    for (const item of data)
      expect(sha256(readFileSync(join(folder, item.file)))).toBe(item.sha256);
    // The photo-added events are in the chain too, with the same hashes.
    const announced = file.records
      .filter((record) => record.kind === 'event')
      .map((record) => record.data as { event: string; payload: { photo?: { sha256: string } } })
      .filter((record) => record.event === 'photo-added')
      .map((record) => record.payload.photo?.sha256);
    expect(announced).toEqual(stored.map((row) => row.sha256));

    // A swapped file's hash does not verify.
    const altered = structuredClone(file);
    (altered.records[file.records.indexOf(media[0]!)]!.data as { sha256: string }).sha256 = sha256(
      Buffer.from('another picture'),
    );
    expect(verifyEvidence(altered)).toMatchObject({ ok: false });

    // Retention: past the team's period, the rows go, then the files.
    expect(mediaFiles().length).toBe(4);
    await sql`update tracking_sessions set ended_at = now() - interval '400 days'
      where id = ${request.uuid}`.execute(stack.database.db);
    const context = {
      db: stack.database.db,
      log: pino({ level: 'silent' }),
      mediaStorage: localStorage(mediaDir),
    } as unknown as JobContext;
    await retentionPurge({ olderThanDays: 90 }, context);
    const left = await sql<{ media: number; recordings: number; chunks: number; queued: number }>`
      select
        (select count(*) from session_media where session_id = ${request.uuid})::int as media,
        (select count(*) from session_recordings where session_id = ${request.uuid})::int as recordings,
        (select count(*) from session_recording_chunks)::int as chunks,
        (select count(*) from media_deletions)::int as queued`.execute(stack.database.db);
    expect(left.rows[0]).toEqual({ media: 0, recordings: 0, chunks: 0, queued: 0 });
    expect(mediaFiles()).toEqual([]);
    const audit = await stack.database.db
      .selectFrom('audit_log')
      .select('detail')
      .where('action', '=', 'retention.purged')
      .execute();
    expect(audit.map((row) => row.detail)).toContainEqual(expect.objectContaining({ media: 3 }));
  });

  it('fails the export of a recording whose chunk was changed in storage, leaving no copy of it', async () => {
    const { request, token, dispatcher } = await sessionWithCaller(stack.api, '+12025550182');
    const { recording } = await recordVideo(request.uuid, token);
    const second = await stack.database.db
      .selectFrom('session_recording_chunks')
      .select('storage_key')
      .where('recording_id', '=', recording.id)
      .where('index', '=', 1)
      .executeTakeFirstOrThrow();
    // The same length, other bytes: only the hash can tell.
    writeFileSync(join(mediaDir, second.storage_key), Buffer.alloc(500, 9));

    await endSession(request.uuid, token, dispatcher);
    // The attempt fails (and is retried later, failing the same way).
    const failure = async () =>
      (
        await stack.database.db
          .selectFrom('session_exports')
          .select(['state', 'last_error'])
          .where('session_id', '=', request.uuid)
          .executeTakeFirst()
      )?.last_error ?? null;
    await expect
      .poll(failure, { timeout: 20_000 })
      .toContain(`recording ${recording.id}: chunk 1 no longer matches its size and SHA-256`);
    const exported = existsSync(exportDir)
      ? readdirSync(exportDir, { recursive: true }).map(String)
      : [];
    expect(exported.filter((name) => name.includes(recording.id))).toEqual([]);
  });
});
