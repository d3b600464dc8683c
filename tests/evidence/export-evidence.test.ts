import { generateKeyPairSync } from 'node:crypto';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyEvidence, type EvidenceFile } from '@locus/client/evidence';
import { callerTextsVersion, type TeamSessionDetail } from '@locus/contract';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWorkerConfig } from '../../services/worker/src/config';
import { exportUpload } from '../../services/worker/src/jobs/export/upload';
import { purgeTeamHistory } from '../../services/worker/src/jobs/maintenance/retention-purge';
import type { JobContext } from '../../services/worker/src/processor';
import { call, signIn, startAuthStack, type AuthStack } from '../auth/support';
import { testEnvironment } from '../support/environment';
import {
  callerSocket,
  dispatcherEmail,
  joinSession,
  linkTokenIn,
  outboxSms,
  startStream,
} from '../tracking/support';

const teamAdminEmail = 'teamadmin@demo-county.test';
const neighbourAdminEmail = 'teamadmin@neighbour-county.test';
const phoneUserAgent =
  'Mozilla/5.0 (Linux; Android 13; moto g play) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126 Mobile Safari/537.36';

let stack: AuthStack;
let keyDir: string;
let teamId: string;
let s3: ReturnType<typeof testEnvironment.s3>;
let reader: S3Client;
const prefix = `evidence-${Date.now().toString(36)}`;

// The worker exports to the private S3-compatible server `npm test` runs (s3rver), and the
// files are read back with the SDK, as a partner or an auditor would fetch them.
beforeAll(async () => {
  keyDir = mkdtempSync(join(tmpdir(), 'locus-evidence-key-'));
  s3 = testEnvironment.s3();
  reader = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  stack = await startAuthStack({
    workerEnv: {
      EXPORT_STORAGE: 's3',
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: s3.region,
      S3_BUCKET: s3.bucket,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_PREFIX: prefix,
      EVIDENCE_SIGNING_KEY_FILE: join(keyDir, 'signing.pem'),
    },
  });
  const team = await sql<{ id: string }>`
    select id from teams where team_name = 'Demo County 911'`.execute(stack.database.db);
  teamId = team.rows[0]!.id;
});
afterAll(async () => {
  await stack?.close();
  reader?.destroy();
  rmSync(keyDir, { recursive: true, force: true });
});

/** A texted caller who taps Share on a phone, sends these fixes and a chat line; then the end. */
async function sharedAndEnded(phoneNumber: string, capturedAt: number): Promise<string> {
  const token = await signIn(stack.api, dispatcherEmail);
  const request = await startStream(stack.api, token, phoneNumber);
  const dispatcher = await joinSession(stack.api, request);
  await call(stack.api, 'POST', '/api/v1/location/request-text-message-location', {
    token,
    body: { connectionRequestUuid: request.uuid, language: 'es' },
  });
  const caller = await callerSocket(
    stack.api,
    linkTokenIn((await outboxSms(stack.api, phoneNumber))[0]!.body),
    { 'user-agent': phoneUserAgent },
  );
  caller.send('consent', {
    screen: 'request',
    language: 'es',
    textsVersion: callerTextsVersion,
    tappedAt: Date.now(),
  });
  caller.send('sharing', { sharing: true });
  caller.send('fix', { latitude: 38.8977, longitude: -77.0365, accuracy: 12, capturedAt });
  caller.send('fix', {
    latitude: 38.8978,
    longitude: -77.0364,
    accuracy: 8,
    capturedAt: capturedAt + 4_000,
  });
  await dispatcher.count('new-location-available', 2);
  const ended = await call(
    stack.api,
    'POST',
    `/api/v1/location/set-date-time-completed/${request.uuid}`,
    { token, body: {} },
  );
  expect(ended.status).toBe(200);
  await caller.closed();
  await dispatcher.closed();
  return request.uuid;
}

async function detail(sessionId: string, email = teamAdminEmail) {
  const token = await signIn(stack.api, email);
  return call<TeamSessionDetail>(
    stack.api,
    'GET',
    `/api/v1/teams/${teamId}/sessions/${sessionId}`,
    {
      token,
    },
  );
}

/** Bounded by the test's timeout: the worker writes the export. */
async function waitForState(sessionId: string, state: string): Promise<TeamSessionDetail> {
  for (;;) {
    const answer = await detail(sessionId);
    if (answer.body.export.state === state) return answer.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** An object of the export bucket, by the `s3://bucket/key` the session page shows. */
async function objectAt(location: string): Promise<{ text: string; contentType?: string }> {
  const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(location);
  if (!match) throw new Error(`not an S3 location: ${location}`);
  const object = await reader.send(new GetObjectCommand({ Bucket: match[1], Key: match[2] }));
  return {
    text: (await object.Body?.transformToString('utf8')) ?? '',
    contentType: object.ContentType,
  };
}

describe('the evidence of a session', () => {
  it('keeps an Allow on a request for a photo as a receipt of its own screen', async () => {
    const token = await signIn(stack.api, dispatcherEmail);
    const request = await startStream(stack.api, token, '+12025550183');
    const dispatcher = await joinSession(stack.api, request);
    await call(stack.api, 'POST', '/api/v1/location/request-text-message-location', {
      token,
      body: { connectionRequestUuid: request.uuid, language: 'fr' },
    });
    const caller = await callerSocket(
      stack.api,
      linkTokenIn((await outboxSms(stack.api, '+12025550183'))[0]!.body),
      { 'user-agent': phoneUserAgent },
    );
    const callerRow = await sql<{ id: string }>`
      select id from session_callers where session_id = ${request.uuid}`.execute(stack.database.db);
    dispatcher.send('media-request', { callerId: callerRow.rows[0]!.id, kind: 'photo' });
    const asked = await caller.next((frame) => frame.event === 'media-request');
    const requestId = (asked.data as { requestId: string }).requestId;
    caller.send('media-answer', { requestId, answer: 'allowed' });
    await dispatcher.next((frame) => frame.event === 'media-answered');

    await expect
      .poll(async () => (await detail(request.uuid)).body.consent.map((each) => each.screen))
      .toEqual(['media-photo']);
    const [receipt] = (await detail(request.uuid)).body.consent;
    expect(receipt).toMatchObject({ language: 'fr', userAgent: phoneUserAgent });
    expect(receipt!.title).not.toBe('');
    await caller.close();
    await dispatcher.close();
  });

  it('keeps what the caller agreed to, and exports it hash-chained and signed', async () => {
    const capturedAt = Date.UTC(2026, 10, 29, 9, 30, 15, 250);
    const sessionId = await sharedAndEnded('+12025550181', capturedAt);

    const session = await waitForState(sessionId, 'stored');
    // The receipt: the Spanish request screen, word for word, with the agency and the browser.
    expect(session.consent).toHaveLength(1);
    const receipt = session.consent[0]!;
    expect(receipt).toMatchObject({
      phoneNumber: '+12025550181',
      language: 'es',
      screen: 'request',
      catalogueVersion: callerTextsVersion,
      agencyName: 'Demo County 911',
      title: 'Comparta su ubicación',
      button: 'Compartir mi ubicación',
      userAgent: phoneUserAgent,
    });
    expect(receipt.lines[0]).toBe('Demo County 911 le pide su ubicación.');
    expect(receipt.tappedAt).not.toBeNull();

    // The evidence file verifies against the deployment's published key, and carries the SPEC
    // rows, the consent receipt and every event in seq order.
    expect(session.export.storage).toBe('s3');
    expect(session.export.evidenceFile).toBe(
      `s3://${s3.bucket}/${prefix}/${teamId}/${sessionId}/+12025550181_2026-11-29T09:30:15.250Z.evidence.json`,
    );
    const { text, contentType } = await objectAt(session.export.evidenceFile!);
    expect(contentType).toBe('application/json');
    // The SPEC rows file beside it, as SPEC.md §3 says.
    const rows = await objectAt(
      `s3://${s3.bucket}/${prefix}/${teamId}/${sessionId}/${session.export.fileName}`,
    );
    expect(JSON.parse(rows.text)).toHaveLength(2);
    const file = JSON.parse(text) as EvidenceFile;
    const publicKey = readFileSync(join(keyDir, 'signing.pub.pem'), 'utf8');
    const verified = verifyEvidence(file, { trustedPublicKey: publicKey });
    expect(verified).toMatchObject({ ok: true, head: session.export.chainHead });
    expect(session.export.signingKeyId).toBe(file.signature.keyId);
    // The deployment publishes the key, without sign-in: what an auditor pins the file to.
    const published = await call<{ keys: { keyId: string; publicKeyPem: string }[] }>(
      stack.api,
      'GET',
      '/api/v1/evidence/signing-keys',
    );
    expect(published.status).toBe(200);
    const listed = published.body.keys.find((key) => key.keyId === file.signature.keyId);
    expect(listed?.publicKeyPem.trim()).toBe(publicKey.trim());
    const fixes = file.records.filter((record) => record.kind === 'fix');
    expect(fixes.map((record) => record.data)).toEqual([
      expect.objectContaining({
        PhoneNumber: '+12025550181',
        Latitude: 38.8977,
        CapturedAt: 'Sun, 29 Nov 2026 09:30:15 GMT',
        CapturedFromSource: 'TEXT_MESSAGE',
      }),
      expect.objectContaining({ Latitude: 38.8978, UncertaintyRadiusInMeters: 8 }),
    ]);
    const seqs = file.records.flatMap((record) => (record.seq === null ? [] : [record.seq]));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(file.records.at(-1)).toMatchObject({
      kind: 'consent',
      data: expect.objectContaining({ phoneNumber: '+12025550181', userAgent: phoneUserAgent }),
    });
    // Every seq the session handed out is in the file: the API recorded the counter at the end.
    const expected = await sql<{ expected_seq: number }>`
      select expected_seq from session_exports where session_id = ${sessionId}`.execute(
      stack.database.db,
    );
    expect(Math.max(...seqs)).toBeGreaterThanOrEqual(expected.rows[0]!.expected_seq);

    // One byte of a fix altered (a latitude digit): the check names that record, and only it.
    const altered = text.replace('38.8978', '38.8979');
    expect(altered).not.toBe(text);
    const tampered = verifyEvidence(JSON.parse(altered), { trustedPublicKey: publicKey });
    expect(tampered.ok).toBe(false);
    const index = fixes[1]!.index;
    if (tampered.ok) return;
    expect(tampered.problems[0]).toMatchObject({
      index,
      kind: 'fix',
      seq: fixes[1]!.seq,
      problem: 'altered',
    });
    // Signed by another key: not the deployment's.
    const stranger = generateKeyPairSync('ed25519').publicKey;
    const other = verifyEvidence(file, { trustedPublicKey: stranger });
    expect(other.ok).toBe(false);
    if (!other.ok)
      expect(other.problems.map((problem) => problem.problem)).toContain('untrusted-key');
  });

  it('puts a session under legal hold and releases it, audited, for team admins only', async () => {
    const sessionId = await sharedAndEnded('+12025550182', Date.now() - 60_000);
    const token = await signIn(stack.api, teamAdminEmail);
    const path = `/api/v1/teams/${teamId}/sessions/${sessionId}/legal-hold`;

    const before = (await detail(sessionId)).body;
    expect(before.hold).toBeNull();
    expect(Date.parse(before.historyDeletedAfter!)).toBeGreaterThan(Date.now());

    const empty = await call(stack.api, 'PUT', path, { token, body: { reason: '  ' } });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ error: 'validation-failed' });
    expect((await detail(sessionId)).body.hold).toBeNull();

    const dispatcher = await signIn(stack.api, dispatcherEmail);
    const refused = await call(stack.api, 'PUT', path, {
      token: dispatcher,
      body: { reason: 'Case 2026-114' },
    });
    expect(refused.status).toBe(403);
    const neighbour = await signIn(stack.api, neighbourAdminEmail);
    const hidden = await call(stack.api, 'PUT', path, {
      token: neighbour,
      body: { reason: 'Case 2026-114' },
    });
    expect(hidden.status).toBe(404);

    const held = await call<TeamSessionDetail>(stack.api, 'PUT', path, {
      token,
      body: { reason: 'Case 2026-114' },
    });
    expect(held.status).toBe(200);
    expect(held.body.hold).toMatchObject({ reason: 'Case 2026-114', by: expect.any(String) });
    expect(held.body.historyDeletedAfter).toBeNull();
    const listed = await call<{ items: { id: string; legalHold: boolean }[] }>(
      stack.api,
      'GET',
      `/api/v1/teams/${teamId}/sessions`,
      { token },
    );
    expect(listed.body.items.find((item) => item.id === sessionId)?.legalHold).toBe(true);

    const released = await call<TeamSessionDetail>(stack.api, 'DELETE', path, { token });
    expect(released.status).toBe(200);
    expect(released.body.hold).toBeNull();
    const audit = await sql<{ action: string }>`
      select action from audit_log where subject = ${sessionId}
        and action like 'session.legal-hold%' order by id`.execute(stack.database.db);
    expect(audit.rows.map((row) => row.action)).toEqual([
      'session.legal-hold-set',
      'session.legal-hold-released',
    ]);
  });

  it('waits for every seq, and shows a storage outage as failed after the last retry', async () => {
    const sessionId = await sharedAndEnded('+12025550183', Date.now() - 60_000);
    await waitForState(sessionId, 'stored');
    const config = parseWorkerConfig({
      DATABASE_URL: 'postgres://unused',
      REDIS_URL: 'redis://unused',
      EXPORT_SEQ_WAIT_MS: '300',
    });
    const context = (storage: JobContext['storage']): JobContext =>
      ({
        db: stack.database.db,
        log: pino({ level: 'silent' }),
        config,
        storage,
        evidenceKey: generateKeyPairSync('ed25519').privateKey,
        job: { attemptsMade: 0, opts: { attempts: 1 } },
      }) as unknown as JobContext;

    // A fix an instance still holds: its row is missing, so the export names it and writes nothing.
    const held = await sql<{ seq: number }>`
      delete from location_fixes where session_id = ${sessionId}
      and seq = (select max(seq) from location_fixes where session_id = ${sessionId})
      returning *`.execute(stack.database.db);
    const heldFix = held.rows[0]!;
    const writes: string[] = [];
    const recording = {
      name: 'local',
      describe: (key: string) => key,
      put: async (key: string) => {
        writes.push(key);
      },
    } as unknown as JobContext['storage'];
    await expect(exportUpload({ sessionId }, context(recording))).rejects.toThrow(
      `missing seq ${held.rows[0]!.seq}`,
    );
    expect(writes).toEqual([]);
    const waiting = (await detail(sessionId)).body.export;
    expect(waiting.state).toBe('failed');
    expect(waiting.lastError).toContain(`missing seq ${held.rows[0]!.seq}`);

    // The storage is down: the attempt fails, the state says so, and Export now queues it again.
    await sql`delete from session_exports where session_id = ${sessionId}`.execute(
      stack.database.db,
    );
    await sql`insert into session_exports (session_id, team_id) values (${sessionId}, ${teamId})`.execute(
      stack.database.db,
    );
    // The batch writer got through: the fix is in, and only the storage stands in the way.
    await stack.database.db
      .insertInto('location_fixes')
      .values(heldFix as never)
      .execute();
    const down = {
      name: 's3',
      describe: (key: string) => key,
      put: async () => {
        throw new Error('connect ECONNREFUSED 127.0.0.1:9');
      },
    } as unknown as JobContext['storage'];
    await expect(exportUpload({ sessionId }, context(down))).rejects.toThrow('ECONNREFUSED');
    const failed = (await detail(sessionId)).body;
    expect(failed.export).toMatchObject({ state: 'failed', attempts: 1 });
    expect(failed.export.lastError).toContain('ECONNREFUSED');
    expect(failed.exportState).toBe('failed');

    const token = await signIn(stack.api, teamAdminEmail);
    const again = await call(
      stack.api,
      'POST',
      `/api/v1/teams/${teamId}/sessions/${sessionId}/export`,
      { token, body: {} },
    );
    expect(again.status).toBe(202);
    const stored = await waitForState(sessionId, 'stored');
    expect(stored.export.lastError).toBeNull();
  });

  it('answers upload-to-s3 for the team only, and not while the session runs', async () => {
    const token = await signIn(stack.api, dispatcherEmail);
    const running = await startStream(stack.api, token, '+12025550184');
    const early = await call(
      stack.api,
      'POST',
      `/api/v1/aws/upload-to-s3/${teamId}/${running.uuid}`,
      { token, body: [] },
    );
    expect(early.status).toBe(409);
    const sessionId = await sharedAndEnded('+12025550185', Date.now() - 60_000);
    const bad = await call(stack.api, 'POST', `/api/v1/aws/upload-to-s3/${teamId}/${sessionId}`, {
      token,
      body: [{ PhoneNumber: 5 }],
    });
    expect(bad.status).toBe(400);
    const other = await signIn(stack.api, 'dispatcher@neighbour-county.test');
    const hidden = await call(
      stack.api,
      'POST',
      `/api/v1/aws/upload-to-s3/${teamId}/${sessionId}`,
      { token: other, body: [] },
    );
    expect(hidden.status).toBe(404);
    const asked = await call<{ state: string }>(
      stack.api,
      'POST',
      `/api/v1/aws/upload-to-s3/${teamId}/${sessionId}`,
      { token, body: [] },
    );
    expect(asked.status).toBe(202);
    expect(['queued', 'writing', 'stored']).toContain(asked.body.state);
    await waitForState(sessionId, 'stored');
  });

  it('says when the retention purge took the history, and then neither holds nor exports it', async () => {
    const sessionId = await sharedAndEnded('+12025550186', Date.now() - 60_000);
    await waitForState(sessionId, 'stored');
    const stored = (await detail(sessionId)).body.export;
    // The team's purge with a cut-off after the end (what `retention.purge` runs per team).
    await purgeTeamHistory(stack.database.db, {
      teamId,
      retentionDays: 1,
      cutoff: new Date(Date.now() + 60_000),
    });
    const purged = (await detail(sessionId)).body;
    expect(purged).toMatchObject({ historyPurged: true, historyDeletedAfter: null, consent: [] });
    const token = await signIn(stack.api, teamAdminEmail);
    const hold = await call(
      stack.api,
      'PUT',
      `/api/v1/teams/${teamId}/sessions/${sessionId}/legal-hold`,
      { token, body: { reason: 'Too late' } },
    );
    expect(hold.status).toBe(409);
    const again = await call(
      stack.api,
      'POST',
      `/api/v1/teams/${teamId}/sessions/${sessionId}/export`,
      { token, body: {} },
    );
    expect(again.status).toBe(409);
    // The stored export is left as it was: signed when the history was whole.
    expect((await detail(sessionId)).body.export).toEqual(stored);
  });
});
