import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, startAuthStack, type AuthStack } from '../auth/support';

/**
 * Issue 11, the audit trail: locate requests, texts, ends, exports and sign-ins are written with
 * their team and client address; team admins read their own team's trail (filters, paging, a CSV
 * download), platform admins everyone's, dispatchers nothing; the database keeps rows unchanged.
 */
let stack: AuthStack;
let owner: string;
let demoAdmin: string;
let neighbourAdmin: string;
let dispatcher: string;
let demoCountyId: string;
let neighbourId: string;
let dispatcherId: string;

interface AuditRow {
  id: string;
  at: string;
  actor: { id: string; name: string; email: string } | null;
  action: string;
  teamId: string | null;
  teamName: string | null;
  subject: string;
  subjectUser: { name: string; email: string } | null;
  detail: Record<string, unknown>;
  ip: string | null;
}
interface Page {
  items: AuditRow[];
  total: number;
  page: number;
  pageSize: number;
}

const teamId = async (name: string) =>
  (
    await stack.database.db
      .selectFrom('teams')
      .select('id')
      .where('team_name', '=', name)
      .executeTakeFirstOrThrow()
  ).id;

beforeAll(async () => {
  stack = await startAuthStack();
  owner = await signIn(stack.api, 'owner@locus.test');
  demoAdmin = await signIn(stack.api, 'teamadmin@demo-county.test');
  neighbourAdmin = await signIn(stack.api, 'teamadmin@neighbour-county.test');
  dispatcher = await signIn(stack.api, 'dispatcher@demo-county.test');
  demoCountyId = await teamId('Demo County 911');
  neighbourId = await teamId('Neighbouring County');
  const me = await call<{ id: string }>(stack.api, 'GET', '/api/v1/auth/current-user', {
    token: dispatcher,
  });
  dispatcherId = me.body.id;
});
afterAll(() => stack?.close());

async function trail(token: string, query = ''): Promise<Page> {
  const answer = await call<Page>(stack.api, 'GET', `/api/v1/audit${query}`, { token });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

/** A dispatcher's whole locate: start, text the caller, end (Demo County exports on end). */
async function locateAndEnd(token: string, phoneNumber: string): Promise<string> {
  const started = await call<{ uuid: string }>(stack.api, 'POST', '/api/v1/location/start-stream', {
    token,
    body: { phoneNumber },
  });
  expect(started.status).toBe(200);
  // The provider lookup first (this number has no provider record), as the console does.
  const lookup = await call(stack.api, 'POST', '/api/v1/location/request-location', {
    token,
    body: { connectionRequestUuid: started.body.uuid, language: 'en' },
  });
  expect(lookup.status).toBeGreaterThanOrEqual(400);
  const texted = await call(stack.api, 'POST', '/api/v1/location/request-text-message-location', {
    token,
    body: { connectionRequestUuid: started.body.uuid, language: 'en' },
  });
  expect(texted.status).toBe(200);
  const ended = await call(
    stack.api,
    'POST',
    `/api/v1/location/set-date-time-completed/${started.body.uuid}`,
    { token },
  );
  expect(ended.status).toBe(200);
  return started.body.uuid;
}

describe('what is written', () => {
  it('writes a locate request, the provider lookup, the text, the end and the export, with the team and the client address', async () => {
    const phoneNumber = '+12025550161';
    const sessionId = await locateAndEnd(dispatcher, phoneNumber);
    const rows = await stack.database.db
      .selectFrom('audit_log')
      .select(['action', 'actor_user_id', 'subject', 'team_id', 'ip', 'detail'])
      .where('action', 'in', ['locate.requested', 'sms.sent', 'session.ended', 'session.exported'])
      .where((eb) => eb.or([eb('subject', '=', phoneNumber), eb('subject', '=', sessionId)]))
      .orderBy('id')
      .execute();
    expect(rows.map((row) => row.action)).toEqual([
      'locate.requested',
      'locate.requested',
      'sms.sent',
      'session.ended',
      'session.exported',
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({
        actor_user_id: dispatcherId,
        team_id: demoCountyId,
        ip: expect.stringMatching(/127\.0\.0\.1/),
      });
      expect(row.detail).toMatchObject({ sessionId });
    }
    expect(rows[1]!.detail).toMatchObject({ kind: 'provider-lookup' });
    // Ending again writes nothing more.
    await call(stack.api, 'POST', `/api/v1/location/set-date-time-completed/${sessionId}`, {
      token: dispatcher,
    });
    const ends = await stack.database.db
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'session.ended')
      .where('subject', '=', sessionId)
      .execute();
    expect(ends).toHaveLength(1);
  });

  it('writes a successful sign-in, and a lockout on the account’s team', async () => {
    await signIn(stack.api, 'dispatcher2@demo-county.test');
    const user = await stack.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'dispatcher2@demo-county.test')
      .executeTakeFirstOrThrow();
    const signIns = await stack.database.db
      .selectFrom('audit_log')
      .select(['actor_user_id', 'team_id', 'ip'])
      .where('action', '=', 'sign-in')
      .where('subject', '=', user.id)
      .execute();
    expect(signIns.at(-1)).toEqual({
      actor_user_id: user.id,
      team_id: demoCountyId,
      ip: expect.stringMatching(/127\.0\.0\.1/),
    });

    const email = 'dispatcher@neighbour-county.test';
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      await call(stack.api, 'POST', '/api/v1/auth/sign-in', {
        body: { email, password: `wrong-${attempt}` },
      });
    }
    const locked = await stack.database.db
      .selectFrom('audit_log')
      .select(['team_id', 'ip'])
      .where('action', '=', 'sign-in.locked')
      .where('subject', '=', email)
      .execute();
    expect(locked).toEqual([{ team_id: neighbourId, ip: expect.any(String) }]);
  });
});

describe('reading the trail', () => {
  it('shows a team admin their team’s rows, newest first, filtered by action, user and dates', async () => {
    await locateAndEnd(dispatcher, '+12025550162');
    const locates = await trail(demoAdmin, '?action=locate.requested');
    expect(locates.total).toBeGreaterThanOrEqual(2);
    expect(locates.items[0]).toMatchObject({
      action: 'locate.requested',
      actor: { id: dispatcherId, name: 'Dana Dispatcher', email: 'dispatcher@demo-county.test' },
      teamId: demoCountyId,
      teamName: 'Demo County 911',
      subject: '+12025550162',
      ip: expect.any(String),
    });
    const times = locates.items.map((row) => Date.parse(row.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const everything = await trail(demoAdmin, '?pageSize=100');
    expect(everything.items.every((row) => row.teamId === demoCountyId)).toBe(true);
    expect(everything.items.map((row) => row.action)).toEqual(
      expect.arrayContaining(['sign-in', 'locate.requested', 'sms.sent', 'session.ended']),
    );
    // A subject that is a user's id is named.
    const signIns = await trail(demoAdmin, `?action=sign-in&userId=${dispatcherId}`);
    expect(signIns.items[0]).toMatchObject({
      subject: dispatcherId,
      subjectUser: { name: 'Dana Dispatcher', email: 'dispatcher@demo-county.test' },
    });
    expect(locates.items[0]!.subjectUser).toBeNull();
    const mine = await trail(demoAdmin, `?userId=${dispatcherId}&pageSize=100`);
    expect(mine.items.length).toBeGreaterThan(0);
    expect(mine.items.every((row) => row.actor?.id === dispatcherId)).toBe(true);

    // Paging: the second row alone is the second row of the whole list.
    const second = await trail(demoAdmin, '?page=2&pageSize=1');
    expect(second).toMatchObject({ page: 2, pageSize: 1, total: everything.total });
    expect(second.items.map((row) => row.id)).toEqual([everything.items[1]!.id]);

    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect((await trail(demoAdmin, `?from=${today}&to=${today}`)).total).toBe(everything.total);
    expect((await trail(demoAdmin, `?from=${tomorrow}`)).total).toBe(0);
    expect((await trail(demoAdmin, `?to=${yesterday}`)).total).toBe(0);
    const instant = encodeURIComponent(new Date(Date.now() + 60_000).toISOString());
    expect((await trail(demoAdmin, `?to=${instant}`)).total).toBe(everything.total);

    const actors = await call<{ id: string; name: string }[]>(
      stack.api,
      'GET',
      '/api/v1/audit/actors',
      { token: demoAdmin },
    );
    expect(actors.status).toBe(200);
    expect(actors.body.map((actor) => actor.id)).toContain(dispatcherId);

    for (const query of ['?action=not-an-action', '?from=yesterday', '?userId=me', '?pageSize=0']) {
      const bad = await call(stack.api, 'GET', `/api/v1/audit${query}`, { token: demoAdmin });
      expect(bad.status, query).toBe(400);
      expect(bad.body).toMatchObject({ error: 'validation-failed' });
    }
  });

  it('never shows the neighbouring team’s admin a Demo County row', async () => {
    await locateAndEnd(dispatcher, '+12025550163');
    const neighbour = await trail(neighbourAdmin, '?pageSize=100');
    expect(neighbour.items.every((row) => row.teamId === neighbourId)).toBe(true);
    expect(neighbour.items.some((row) => row.teamName === 'Demo County 911')).toBe(false);
    const filtered = await call(stack.api, 'GET', `/api/v1/audit?teamId=${demoCountyId}`, {
      token: neighbourAdmin,
    });
    expect(filtered.status).toBe(404);
    expect(filtered.body).toMatchObject({ error: 'not-found' });
    const csv = await fetch(`${stack.api.url}/api/v1/audit/export.csv?teamId=${demoCountyId}`, {
      headers: { authorization: `Bearer ${neighbourAdmin}` },
    });
    expect(csv.status).toBe(404);
    const actors = await call<{ id: string }[]>(stack.api, 'GET', '/api/v1/audit/actors', {
      token: neighbourAdmin,
    });
    expect(actors.body.map((actor) => actor.id)).not.toContain(dispatcherId);
  });

  it('shows a platform admin every team’s rows, and one team’s with teamId', async () => {
    const all = await trail(owner, '?pageSize=100');
    const teams = new Set(all.items.map((row) => row.teamId));
    expect(teams.has(demoCountyId)).toBe(true);
    expect(teams.has(neighbourId)).toBe(true);
    const demo = await trail(owner, `?teamId=${demoCountyId}&pageSize=100`);
    expect(demo.items.length).toBeGreaterThan(0);
    expect(demo.items.every((row) => row.teamId === demoCountyId)).toBe(true);
    const unknown = await call(
      stack.api,
      'GET',
      '/api/v1/audit?teamId=00000000-0000-4000-8000-000000000000',
      { token: owner },
    );
    expect(unknown.status).toBe(404);
  });

  it('refuses dispatchers (403) and nobody signed in (401)', async () => {
    for (const path of ['/api/v1/audit', '/api/v1/audit/export.csv', '/api/v1/audit/actors']) {
      const answer = await call(stack.api, 'GET', path, { token: dispatcher });
      expect(answer.status, path).toBe(403);
      expect(answer.body).toMatchObject({ error: 'forbidden' });
      const anonymous = await fetch(`${stack.api.url}${path}`);
      expect(anonymous.status, path).toBe(401);
    }
  });
});

describe('the CSV download', () => {
  it('has a header row, RFC 4180 quoting, no runnable formulas, and the filters of the list', async () => {
    await locateAndEnd(dispatcher, '+12025550164');
    // A name with a quote and a comma, and one that a spreadsheet would run as a formula.
    await stack.database.db
      .updateTable('users')
      .set({ first_name: '=HYPERLINK("x")', last_name: 'Dispatcher, "Dana"' })
      .where('id', '=', dispatcherId)
      .execute();
    const answer = await fetch(`${stack.api.url}/api/v1/audit/export.csv?action=locate.requested`, {
      headers: { authorization: `Bearer ${demoAdmin}` },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(answer.headers.get('content-disposition')).toMatch(/attachment; filename=".+\.csv"/);
    const text = await answer.text();
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('At,Actor,Actor email,Action,Team,Subject,IP,Detail');
    expect(lines.at(-1)).toBe('');
    const rows = lines.slice(1, -1);
    const list = await trail(demoAdmin, '?action=locate.requested&pageSize=100');
    expect(rows).toHaveLength(list.total);
    expect(rows[0]).toContain(`"'=HYPERLINK(""x"") Dispatcher, ""Dana"""`);
    expect(rows[0]).toContain(
      ",dispatcher@demo-county.test,locate.requested,Demo County 911,'+12025550164,",
    );
    // Newest first: the provider lookup, then the start of the locate that asked for it.
    expect(rows[0]).toContain('""kind"":""provider-lookup""');
    expect(rows[1]).toMatch(/,"\{""sessionId"":""[0-9a-f-]{36}""\}"$/);
    expect(rows.every((row) => row.includes(',locate.requested,Demo County 911,'))).toBe(true);
    await stack.database.db
      .updateTable('users')
      .set({ first_name: 'Dana', last_name: 'Dispatcher' })
      .where('id', '=', dispatcherId)
      .execute();
  });
});

describe('the database', () => {
  it('refuses to update or delete an audit row', async () => {
    const row = await stack.database.db
      .selectFrom('audit_log')
      .select('id')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await expect(
      stack.database.db
        .updateTable('audit_log')
        .set({ subject: 'tampered' })
        .where('id', '=', row.id)
        .execute(),
    ).rejects.toThrow(/never changed or deleted/);
    await expect(
      stack.database.db.deleteFrom('audit_log').where('id', '=', row.id).execute(),
    ).rejects.toThrow(/never changed or deleted/);
    // Even in one statement over many rows, and inside a transaction: nothing changes.
    const before = await stack.database.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    await expect(
      sql`delete from audit_log where action = 'sign-in'`.execute(stack.database.db),
    ).rejects.toThrow();
    const after = await stack.database.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });
});
