import type { CreatedApiKey, PartnerFixPage, PartnerSession } from '@locus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, startAuthStack, type AuthStack } from '../auth/support';
import { callerSocket, linkTokenIn, outboxSms } from '../tracking/support';

// Issue 15, item 2: a partner's system locates a number with its team's key, follows the
// session, reads its fixes a page at a time and ends it; a retried locate with the same
// Idempotency-Key starts nothing twice; another team's key sees none of it.

let stack: AuthStack;
let writer: CreatedApiKey;
let reader: CreatedApiKey;
let otherTeam: CreatedApiKey;

/** The simulator's numbers (README): 0100–0149 are found by the provider, 0150–0199 are not. */
const found = '+12025550121';
const notFound = '+12025550171';

beforeAll(async () => {
  stack = await startAuthStack();
  const teamAdmin = await signIn(stack.api, 'teamadmin@demo-county.test');
  const owner = await signIn(stack.api, 'owner@locus.test');
  const teams = await stack.database.db.selectFrom('teams').select(['id', 'team_name']).execute();
  const id = (name: string) => teams.find((team) => team.team_name === name)!.id;
  const create = async (teamId: string, scopes: string[], token: string) => {
    const answer = await call<CreatedApiKey>(
      stack.api,
      'POST',
      `/api/v1/teams/${teamId}/api-keys`,
      {
        token,
        body: { name: `partner ${scopes.join(' ')}`, scopes },
      },
    );
    expect(answer.status).toBe(201);
    return answer.body;
  };
  writer = await create(id('Demo County 911'), ['locate:write', 'sessions:read'], teamAdmin);
  reader = await create(id('Demo County 911'), ['sessions:read'], teamAdmin);
  otherTeam = await create(id('Locus'), ['locate:write', 'sessions:read'], owner);
});

afterAll(async () => {
  await stack?.close();
});

const locate = (key: CreatedApiKey, body: unknown, idempotencyKey?: string) =>
  call<PartnerSession & { error?: string }>(stack.api, 'POST', '/api/v1/partner/locates', {
    token: key.secret,
    body,
    headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
  });

const readSession = (key: CreatedApiKey, id: string) =>
  call<PartnerSession & { error?: string }>(stack.api, 'GET', `/api/v1/partner/sessions/${id}`, {
    token: key.secret,
  });

const readFixes = (key: CreatedApiKey, id: string, query = '') =>
  call<PartnerFixPage & { error?: string }>(
    stack.api,
    'GET',
    `/api/v1/partner/sessions/${id}/fixes${query}`,
    { token: key.secret },
  );

const end = (key: CreatedApiKey, id: string) =>
  call<PartnerSession & { error?: string }>(
    stack.api,
    'POST',
    `/api/v1/partner/sessions/${id}/end`,
    { token: key.secret },
  );

async function partnerSessions(keyId: string): Promise<number> {
  const rows = await stack.database.db
    .selectFrom('tracking_sessions')
    .select('id')
    .where('partner_key_id', '=', keyId)
    .execute();
  return rows.length;
}

describe('a partner locate', () => {
  it('finds a number through the provider once, however often it is retried with its Idempotency-Key', async () => {
    const idempotencyKey = crypto.randomUUID();
    const body = { phoneNumber: found, externalReference: 'CAD-2026-0042' };
    const first = await locate(writer, body, idempotencyKey);
    expect(first.status).toBe(201);
    expect(first.headers.get('ratelimit-remaining')).toMatch(/^\d+$/);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const session = first.body;
    expect(session).toMatchObject({
      status: 'active',
      startedBy: 'partner',
      externalReference: 'CAD-2026-0042',
      endedAt: null,
    });
    const [caller] = session.callers;
    expect(caller).toMatchObject({ phoneNumber: found, language: 'en' });
    // Found by the provider: not texted, and the fix is in the answer.
    expect(caller!.link.stage).toBe('not-texted');
    expect(caller!.latestFix).toMatchObject({ source: 'RAPID_SOS', callerId: caller!.id });
    expect(session.latestFix).toEqual(caller!.latestFix);
    expect(await outboxSms(stack.api, found)).toEqual([]);

    // The retry (a timeout on the partner's side, say) gets the first answer and starts nothing.
    const again = await locate(writer, body, idempotencyKey);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(session);
    expect(await partnerSessions(writer.key.id)).toBe(1);

    // The same key for another locate is refused, and changes nothing.
    const reused = await locate(writer, { phoneNumber: notFound }, idempotencyKey);
    expect(reused.status).toBe(422);
    expect(reused.body.error).toBe('idempotency-key-reused');
    expect(await partnerSessions(writer.key.id)).toBe(1);

    // On the team's trail: who asked (the key, no user) and for what.
    const audit = await stack.database.db
      .selectFrom('audit_log')
      .select(['actor_user_id', 'detail'])
      .where('action', '=', 'locate.requested')
      .where('subject', '=', found)
      .execute();
    expect(audit.map((row) => row.actor_user_id)).toEqual([null, null]);
    expect(audit.map((row) => (row.detail as { partnerKeyId: string }).partnerKeyId)).toEqual([
      writer.key.id,
      writer.key.id,
    ]);

    // Another team's key cannot read it: as if it did not exist.
    expect((await readSession(otherTeam, session.id)).status).toBe(404);
    expect((await readFixes(otherTeam, session.id)).status).toBe(404);
    expect((await end(otherTeam, session.id)).status).toBe(404);
    expect((await readSession(writer, session.id)).body.status).toBe('active');
  });

  it('answers two simultaneous requests with one Idempotency-Key from one session', async () => {
    const idempotencyKey = crypto.randomUUID();
    const before = await partnerSessions(writer.key.id);
    const body = { phoneNumber: '+12025550122' };
    const answers = await Promise.all([
      locate(writer, body, idempotencyKey),
      locate(writer, body, idempotencyKey),
    ]);
    // One ran. The other either waited its turn and got the same answer, or was told to retry.
    const ran = answers.filter((answer) => answer.status === 201);
    for (const answer of answers) {
      if (answer.status === 409) {
        expect(answer.body.error).toBe('idempotency-in-progress');
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      } else expect(answer.status).toBe(201);
    }
    expect(new Set(ran.map((answer) => answer.body.id)).size).toBe(1);
    const retried = await locate(writer, body, idempotencyKey);
    expect(retried.body.id).toBe(ran[0]!.body.id);
    expect(await partnerSessions(writer.key.id)).toBe(before + 1);
  });

  it('texts a number the provider does not find, in its language, and shows how far the link got', async () => {
    const answer = await locate(writer, { phoneNumber: notFound, language: 'es' });
    expect(answer.status).toBe(201);
    const session = answer.body;
    expect(session.externalReference).toBeNull();
    expect(session.callers[0]!.link.stage).toMatch(/^(texted|delivered)$/);
    expect(session.callers[0]!.latestFix).toBeNull();
    const [text] = await outboxSms(stack.api, notFound);
    expect(text!.body).toContain('Demo County 911');
    expect(text!.body).toMatch(/ubicación/);

    // The caller opens the link and shares: the fixes arrive, in order, a page at a time.
    const caller = await callerSocket(stack.api, linkTokenIn(text!.body));
    const start = Date.now() - 60_000;
    for (let n = 0; n < 5; n += 1)
      caller.send('fix', {
        latitude: 38.8977 + n / 1000,
        longitude: -77.0365,
        accuracy: 10 + n,
        capturedAt: start + n * 1000,
      });
    await caller.count('ack', 5);
    await stack.api.app.locus.writer.flush();

    const shared = await readSession(reader, session.id);
    expect(shared.status).toBe(200);
    expect(shared.body.callers[0]!.link.stage).toBe('shared');
    expect(shared.body.callers[0]!.link.openedAt).not.toBeNull();
    expect(shared.body.latestFix).toMatchObject({ latitude: 38.9017, source: 'TEXT_MESSAGE' });

    const page1 = await readFixes(reader, session.id, '?limit=2');
    expect(page1.status).toBe(200);
    const accuracies = (page: PartnerFixPage) =>
      page.fixes.map((fix) => fix.uncertaintyRadiusInMeters);
    expect(accuracies(page1.body)).toEqual([10, 11]);
    expect(page1.body.hasMore).toBe(true);
    const page2 = await readFixes(reader, session.id, `?limit=2&cursor=${page1.body.nextCursor}`);
    expect(accuracies(page2.body)).toEqual([12, 13]);
    const page3 = await readFixes(reader, session.id, `?limit=2&cursor=${page2.body.nextCursor}`);
    expect(accuracies(page3.body)).toEqual([14]);
    expect(page3.body.hasMore).toBe(false);
    // Polling from the last cursor reads each new fix once.
    const quiet = await readFixes(reader, session.id, `?cursor=${page3.body.nextCursor}`);
    expect(quiet.body).toEqual({ fixes: [], nextCursor: page3.body.nextCursor, hasMore: false });
    caller.send('fix', {
      latitude: 38.91,
      longitude: -77.04,
      accuracy: 8,
      capturedAt: start + 9000,
    });
    await caller.count('ack', 6);
    await stack.api.app.locus.writer.flush();
    const later = await readFixes(reader, session.id, `?cursor=${page3.body.nextCursor}`);
    expect(accuracies(later.body)).toEqual([8]);

    // A cursor this API did not give out is refused.
    const forged = await readFixes(reader, session.id, '?cursor=bm90LWEtY3Vyc29y');
    expect(forged.status).toBe(400);
    expect(forged.body.error).toBe('validation-failed');

    // Reading needs sessions:read; ending needs locate:write.
    expect((await end(reader, session.id)).status).toBe(403);
    const ended = await end(writer, session.id);
    expect(ended.status).toBe(200);
    expect(ended.body.status).toBe('ended');
    expect(ended.body.endedAt).not.toBeNull();
    await caller.closed();
    // Ending again changes nothing.
    const twice = await end(writer, session.id);
    expect(twice.body.endedAt).toBe(ended.body.endedAt);
  });

  it('never moves its cursor past a fix another instance has not written yet', async () => {
    const answer = await locate(writer, { phoneNumber: '+12025550172', language: 'en' });
    const session = answer.body;
    const [text] = await outboxSms(stack.api, '+12025550172');
    const caller = await callerSocket(stack.api, linkTokenIn(text!.body));
    const start = Date.now() - 60_000;
    for (let n = 0; n < 3; n += 1)
      caller.send('fix', {
        latitude: 40 + n / 1000,
        longitude: -75,
        accuracy: 20 + n,
        capturedAt: start + n * 1000,
      });
    await caller.count('ack', 3);
    await stack.api.app.locus.writer.flush();
    const db = stack.database.db;
    const stored = await db
      .selectFrom('location_fixes')
      .selectAll()
      .where('session_id', '=', session.id)
      .orderBy('seq')
      .execute();
    expect(stored).toHaveLength(3);
    // The middle fix is still in another instance's batch writer: its row is not there yet.
    const held = stored[1]!;
    await db
      .deleteFrom('location_fixes')
      .where('session_id', '=', session.id)
      .where('seq', '=', held.seq)
      .execute();
    const accuracies = (page: PartnerFixPage) =>
      page.fixes.map((fix) => fix.uncertaintyRadiusInMeters);
    const before = await readFixes(reader, session.id);
    expect(accuracies(before.body)).toEqual([20]);
    expect(before.body.hasMore).toBe(false);
    // It lands: the next poll from the same cursor reads it, and the one after it.
    await db.insertInto('location_fixes').values(held).execute();
    const after = await readFixes(reader, session.id, `?cursor=${before.body.nextCursor}`);
    expect(accuracies(after.body)).toEqual([21, 22]);

    // A seq lost with an instance that died: once what came after it is two minutes old, the
    // list goes past it rather than stop for good.
    await db
      .deleteFrom('location_fixes')
      .where('session_id', '=', session.id)
      .where('seq', '=', held.seq)
      .execute();
    const stuck = await readFixes(reader, session.id);
    expect(accuracies(stuck.body)).toEqual([20]);
    // Stored long ago by the database's clock (what the check reads, not the accept time).
    await db
      .updateTable('location_fixes')
      .set({ stored_at: new Date(Date.now() - 180_000) })
      .where('session_id', '=', session.id)
      .where('seq', '>', held.seq)
      .execute();
    const passed = await readFixes(reader, session.id, `?cursor=${stuck.body.nextCursor}`);
    expect(accuracies(passed.body)).toEqual([22]);
    await caller.close();
  });

  it('refuses what it cannot do, before anything is written', async () => {
    const before = await partnerSessions(writer.key.id);
    // Bad input, in the API's error shape.
    const bad = await locate(writer, { phoneNumber: '555', language: 'de' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('validation-failed');
    const badKey = await locate(writer, { phoneNumber: found }, 'with space');
    expect(badKey.status).toBe(400);
    // A read-only key may not locate.
    const readOnly = await locate(reader, { phoneNumber: found });
    expect(readOnly.status).toBe(403);
    // No key at all.
    const anonymous = await call(stack.api, 'POST', '/api/v1/partner/locates', {
      body: { phoneNumber: found },
    });
    expect(anonymous.status).toBe(401);
    expect(await partnerSessions(writer.key.id)).toBe(before);
    expect(await partnerSessions(reader.key.id)).toBe(0);
  });
});
