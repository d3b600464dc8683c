import { hashPassword } from '@locus/db';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  codeIn,
  DEMO_PASSWORD,
  signIn,
  startAuthStack,
  uniqueEmail,
  waitForEmails,
  type AuthStack,
} from '../auth/support';

interface AdminUser {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  companyName: string | null;
  isPlatformAdmin: boolean;
  emailConfirmed: boolean;
  createdAt: string;
  lastSignInAt: string | null;
  teams: { teamId: string; teamName: string; role: 'admin' | 'member' }[];
}
interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}
interface Detail extends AdminUser {
  phoneNumber: string | null;
  locked: boolean;
}
interface Member {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  emailConfirmed: boolean;
  role: 'admin' | 'member';
  addedAt: string;
}

let stack: AuthStack;
let owner: string;
let teamAdmin: string;
let dispatcher: string;
let neighbourAdmin: string;
let demoTeamId: string;
let neighbourTeamId: string;
/** A team of its own, so that counts and orders do not depend on the demo seed. */
let pagingTeamId: string;
/** Its members, in the order the list sorts them by name. */
const pagers: { id: string; email: string; firstName: string; lastName: string }[] = [];
let passwordHash: string;

const db = () => stack.database.db;

async function teamId(name: string): Promise<string> {
  const row = await db()
    .selectFrom('teams')
    .select('id')
    .where('team_name', '=', name)
    .executeTakeFirstOrThrow();
  return row.id;
}

async function userId(email: string): Promise<string> {
  const row = await db()
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A confirmed account that signs in with the demo password. */
async function insertUser(fields: {
  firstName: string;
  lastName: string;
  email: string;
  createdDaysAgo?: number;
  companyName?: string;
  registered?: boolean;
}): Promise<string> {
  const row = await db()
    .insertInto('users')
    .values({
      first_name: fields.firstName,
      last_name: fields.lastName,
      email: fields.email,
      password_hash: passwordHash,
      email_confirmed_at: sql<Date>`now()`,
      created_at: sql<Date>`now() - make_interval(days => ${fields.createdDaysAgo ?? 0})`,
      company_name: fields.companyName ?? null,
      registration_completed_at: fields.registered ? sql<Date>`now()` : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function addMember(team: string, user: string, role: 'admin' | 'member') {
  await db().insertInto('team_members').values({ team_id: team, user_id: user, role }).execute();
}

const get = <T>(path: string, token: string) => call<T>(stack.api, 'GET', path, { token });

beforeAll(async () => {
  // One client address fails the lock test's sign-ins; the per-address delays have their own test.
  stack = await startAuthStack({
    env: {
      SIGN_IN_FAILURES_PER_ADDRESS: '100',
      SIGN_IN_FAILURES_PER_SUBNET: '1000',
      SIGN_IN_ACCOUNTS_PER_ADDRESS: '100',
    },
  });
  passwordHash = await hashPassword(DEMO_PASSWORD);
  [owner, teamAdmin, dispatcher, neighbourAdmin] = await Promise.all([
    signIn(stack.api, 'owner@locus.test'),
    signIn(stack.api, 'teamadmin@demo-county.test'),
    signIn(stack.api, 'dispatcher@demo-county.test'),
    signIn(stack.api, 'teamadmin@neighbour-county.test'),
  ]);
  demoTeamId = await teamId('Demo County 911');
  neighbourTeamId = await teamId('Neighbouring County');
  pagingTeamId = (
    await db()
      .insertInto('teams')
      .values({ team_name: 'Paging Test Team' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  // Mixed case on purpose: the order and the search ignore it. Two share a last name, so the
  // first name decides; the first is the team's only admin.
  const people = [
    ['Ada', 'ABBOTT'],
    ['bea', 'Baker'],
    ['Cal', 'baker'],
    ['Dee', 'Carter'],
    ['eli', 'Dunn'],
    ['Fay', 'Evans'],
    ['Gus', 'Frost'],
  ] as const;
  for (const [index, [firstName, lastName]] of people.entries()) {
    const email = uniqueEmail(`pager${index}`, 'paging.test');
    // Older rows first, each a day apart; two of them registered more than 30 days ago.
    const id = await insertUser({ firstName, lastName, email, createdDaysAgo: 40 - index * 6 });
    await addMember(pagingTeamId, id, index === 0 ? 'admin' : 'member');
    pagers.push({ id, email, firstName, lastName });
  }
});

afterAll(async () => {
  await stack?.close();
});

describe('GET /api/v1/users/', () => {
  it('pages through a team by name with a total, each row once, in a stable order', async () => {
    const seen: AdminUser[] = [];
    for (const page of [1, 2, 3]) {
      const answer = await get<Page<AdminUser>>(
        `/api/v1/users/?teamId=${pagingTeamId}&pageSize=3&page=${page}`,
        owner,
      );
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ total: 7, page, pageSize: 3 });
      expect(answer.body.items).toHaveLength(page === 3 ? 1 : 3);
      seen.push(...answer.body.items);
    }
    expect(seen.map((user) => user.email)).toEqual(pagers.map((user) => user.email));
    expect(seen[0]).toMatchObject({
      firstName: 'Ada',
      lastName: 'ABBOTT',
      emailConfirmed: true,
      isPlatformAdmin: false,
      lastSignInAt: null,
      teams: [{ teamId: pagingTeamId, teamName: 'Paging Test Team', role: 'admin' }],
    });
    const again = await get<Page<AdminUser>>(
      `/api/v1/users/?teamId=${pagingTeamId}&pageSize=3&page=2`,
      owner,
    );
    expect(again.body.items.map((user) => user.id)).toEqual(seen.slice(3, 6).map((u) => u.id));
  });

  it('sorts by e-mail, registration and last sign-in, either way', async () => {
    const list = async (sort: string, direction: string) =>
      (
        await get<Page<AdminUser>>(
          `/api/v1/users/?teamId=${pagingTeamId}&sort=${sort}&direction=${direction}`,
          owner,
        )
      ).body.items.map((user) => user.email);
    const emails = pagers.map((user) => user.email);
    expect(await list('email', 'asc')).toEqual([...emails].sort());
    expect(await list('email', 'desc')).toEqual([...emails].sort().reverse());
    expect(await list('createdAt', 'asc')).toEqual(emails);
    expect(await list('createdAt', 'desc')).toEqual([...emails].reverse());
    expect(await list('name', 'desc')).toEqual([...emails].reverse());

    await signIn(stack.api, pagers[4]!.email);
    const bySignIn = await list('lastSignInAt', 'desc');
    expect(bySignIn[0]).toBe(pagers[4]!.email);
    // Never signed in sorts last either way.
    expect((await list('lastSignInAt', 'asc'))[0]).toBe(pagers[4]!.email);
    const detail = await get<Detail>(`/api/v1/users/${pagers[4]!.id}`, owner);
    expect(detail.body.lastSignInAt).not.toBeNull();

    const bad = await get(`/api/v1/users/?sort=height`, owner);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'validation-failed' });
  });

  it('searches first, last and full name and e-mail, ignoring case', async () => {
    const search = async (term: string) =>
      (
        await get<Page<AdminUser>>(
          `/api/v1/users/?teamId=${pagingTeamId}&search=${encodeURIComponent(term)}`,
          owner,
        )
      ).body;
    expect((await search('BAKER')).items.map((user) => user.firstName)).toEqual(['bea', 'Cal']);
    expect((await search('bea baker')).items.map((user) => user.firstName)).toEqual(['bea']);
    expect((await search('ELI')).items.map((user) => user.lastName)).toEqual(['Dunn']);
    expect((await search('PAGING.TEST')).total).toBe(7);
    expect((await search('%')).total).toBe(0);
  });

  it('shows a team admin only the users of their teams, and only those teams', async () => {
    const answer = await get<Page<AdminUser>>('/api/v1/users/?pageSize=100', teamAdmin);
    expect(answer.status).toBe(200);
    const emails = answer.body.items.map((user) => user.email);
    expect(emails).toEqual(
      expect.arrayContaining(['teamadmin@demo-county.test', 'dispatcher2@demo-county.test']),
    );
    expect(emails).not.toContain('dispatcher@neighbour-county.test');
    expect(emails).not.toContain('owner@locus.test');
    expect(answer.body.total).toBe(answer.body.items.length);
    for (const user of answer.body.items) {
      expect(user.teams.map((team) => team.teamId)).toEqual([demoTeamId]);
    }

    const everyone = await get<Page<AdminUser>>('/api/v1/users/?pageSize=100', owner);
    expect(everyone.body.total).toBeGreaterThan(answer.body.total);
    const ownerRow = everyone.body.items.find((user) => user.email === 'owner@locus.test');
    expect(ownerRow?.isPlatformAdmin).toBe(true);

    const otherTeam = await get(`/api/v1/users/?teamId=${neighbourTeamId}`, teamAdmin);
    expect(otherTeam.status).toBe(404);
    expect(otherTeam.body).toMatchObject({ error: 'not-found' });
  });

  it('GET /api/v1/auth/users/ answers the same page', async () => {
    const path = `?teamId=${pagingTeamId}&pageSize=4&page=2&sort=email`;
    const users = await get<Page<AdminUser>>(`/api/v1/users/${path}`, owner);
    const auth = await get<Page<AdminUser>>(`/api/v1/auth/users/${path}`, owner);
    expect(auth.status).toBe(200);
    expect(auth.body).toEqual(users.body);
  });
});

describe('the other user lists', () => {
  it('GET /api/v1/users/search needs a term and pages its matches', async () => {
    const answer = await get<Page<AdminUser>>(
      '/api/v1/users/search?search=PaGiNg.TeSt&pageSize=5&page=2',
      owner,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ total: 7, page: 2, pageSize: 5 });
    expect(answer.body.items.map((user) => user.email)).toEqual(
      pagers.slice(5).map((user) => user.email),
    );
    const missing = await get('/api/v1/users/search', owner);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: 'validation-failed' });
    const scoped = await get<Page<AdminUser>>('/api/v1/users/search?search=paging.test', teamAdmin);
    expect(scoped.body.total).toBe(0);
  });

  it('find-client-users: one team, 1-based page, optional page size', async () => {
    const first = await get<Page<AdminUser>>(
      `/api/v1/users/find-client-users/${pagingTeamId}/1?pageSize=5`,
      owner,
    );
    expect(first.body).toMatchObject({ total: 7, page: 1, pageSize: 5 });
    expect(first.body.items.map((user) => user.id)).toEqual(pagers.slice(0, 5).map((u) => u.id));
    const demo = await get<Page<AdminUser>>(
      `/api/v1/users/find-client-users/${demoTeamId}/1`,
      teamAdmin,
    );
    expect(demo.status).toBe(200);
    expect(demo.body.pageSize).toBe(25);
    expect(demo.body.items.map((user) => user.email)).toContain('dispatcher@demo-county.test');
    expect(
      (await get(`/api/v1/users/find-client-users/${demoTeamId}/1`, neighbourAdmin)).status,
    ).toBe(404);
    expect((await get(`/api/v1/users/find-client-users/${demoTeamId}/0`, owner)).status).toBe(400);
  });

  it('find-new-client-users: registered in the last 30 days, newest first', async () => {
    const answer = await get<Page<AdminUser>>(
      `/api/v1/users/find-new-client-users/${pagingTeamId}/1`,
      owner,
    );
    expect(answer.status).toBe(200);
    // Registered 40, 34, 28, 22, 16, 10 and 4 days ago: the first two are not new.
    expect(answer.body.total).toBe(5);
    expect(answer.body.items.map((user) => user.id)).toEqual(
      pagers
        .slice(2)
        .reverse()
        .map((user) => user.id),
    );
    expect(
      (await get(`/api/v1/users/find-new-client-users/${pagingTeamId}/1`, teamAdmin)).status,
    ).toBe(404);
  });

  it('find-unlisted-users: users of an unlisted agency without a team, platform admins only', async () => {
    const email = uniqueEmail('unlisted', 'unlisted-pd.test');
    const id = await insertUser({
      firstName: 'Una',
      lastName: 'Listed',
      email,
      companyName: 'Unlisted Police Department',
      registered: true,
    });
    const answer = await get<Page<AdminUser>>('/api/v1/users/find-unlisted-users', owner);
    expect(answer.status).toBe(200);
    const row = answer.body.items.find((user) => user.id === id);
    expect(row).toMatchObject({ companyName: 'Unlisted Police Department', teams: [] });
    expect(answer.body.items.every((user) => user.teams.length === 0)).toBe(true);
    expect(answer.body.items.map((user) => user.email)).not.toContain(pagers[0]!.email);

    for (const token of [teamAdmin, neighbourAdmin, dispatcher]) {
      const refused = await get('/api/v1/users/find-unlisted-users', token);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ error: 'forbidden' });
    }
  });
});

describe('a user’s detail and unlock', () => {
  it('shows teams and roles, confirmation, last sign-in and the lock', async () => {
    const dispatcherId = await userId('dispatcher@demo-county.test');
    const detail = await get<Detail>(`/api/v1/users/${dispatcherId}`, teamAdmin);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      id: dispatcherId,
      email: 'dispatcher@demo-county.test',
      emailConfirmed: true,
      locked: false,
      teams: [{ teamId: demoTeamId, teamName: 'Demo County 911', role: 'member' }],
    });
    expect(detail.body.lastSignInAt).not.toBeNull();

    // Isolation: another team's admin learns nothing, not even that the user exists.
    const hidden = await get(`/api/v1/users/${dispatcherId}`, neighbourAdmin);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toMatchObject({ error: 'not-found' });
    expect(JSON.stringify(hidden.body)).not.toContain('demo-county');
    const neighbourId = await userId('dispatcher@neighbour-county.test');
    expect((await get(`/api/v1/users/${neighbourId}`, teamAdmin)).status).toBe(404);
    expect((await get(`/api/v1/users/${crypto.randomUUID()}`, owner)).status).toBe(404);
  });

  it('unlocks a locked-out user at once, audited', async () => {
    const target = pagers[3]!;
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await call(stack.api, 'POST', '/api/v1/auth/sign-in', {
        body: { email: target.email, password: 'wrong password!', staySignedIn: true },
      });
    }
    const locked = await call(stack.api, 'POST', '/api/v1/auth/sign-in', {
      body: { email: target.email, password: DEMO_PASSWORD, staySignedIn: true },
    });
    expect(locked.status).toBe(401);
    expect(locked.body).toMatchObject({ error: 'account-locked' });
    expect((await get<Detail>(`/api/v1/users/${target.id}`, owner)).body.locked).toBe(true);

    expect(
      (await call(stack.api, 'POST', `/api/v1/users/${target.id}/unlock`, { token: teamAdmin }))
        .status,
    ).toBe(404);
    const unlocked = await call<Detail>(stack.api, 'POST', `/api/v1/users/${target.id}/unlock`, {
      token: owner,
    });
    expect(unlocked.status).toBe(200);
    expect(unlocked.body.locked).toBe(false);
    await signIn(stack.api, target.email);
    const audit = await db()
      .selectFrom('audit_log')
      .select(['action', 'team_id', 'ip', 'detail'])
      .where('subject', '=', target.id)
      .where('action', '=', 'sign-in.unlocked')
      .execute();
    expect(audit).toEqual([
      {
        action: 'sign-in.unlocked',
        team_id: pagingTeamId,
        ip: expect.any(String),
        detail: { wasLocked: true },
      },
    ]);
  });
});

describe('team members', () => {
  it("lists a team's members with their role, paginated by name", async () => {
    const answer = await get<Page<Member>>(
      `/api/v1/teams/${pagingTeamId}/users?pageSize=4&page=2`,
      owner,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ total: 7, page: 2, pageSize: 4 });
    expect(answer.body.items.map((member) => member.id)).toEqual(
      pagers.slice(4).map((user) => user.id),
    );
    const demo = await get<Page<Member>>(`/api/v1/teams/${demoTeamId}/users`, teamAdmin);
    expect(demo.status).toBe(200);
    expect(demo.body.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ email: 'teamadmin@demo-county.test', role: 'admin' }),
        expect.objectContaining({ email: 'dispatcher@demo-county.test', role: 'member' }),
      ]),
    );
    const one = await get<Member>(
      `/api/v1/teams/${demoTeamId}/users/${await userId('dispatcher@demo-county.test')}`,
      teamAdmin,
    );
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ role: 'member', emailConfirmed: true });
    expect(
      (
        await get(
          `/api/v1/teams/${demoTeamId}/users/${await userId('dispatcher@neighbour-county.test')}`,
          teamAdmin,
        )
      ).status,
    ).toBe(404);
  });

  it('adds an existing user with a role, changes it, and refuses a second add', async () => {
    const target = pagers[5]!;
    // A team admin cannot pull in someone they do not manage: it is an invitation's job.
    const foreign = await call(
      stack.api,
      'POST',
      `/api/v1/teams/${demoTeamId}/users/${target.id}`,
      {
        token: teamAdmin,
        body: { role: 'member' },
      },
    );
    expect(foreign.status).toBe(404);

    const added = await call<Member>(
      stack.api,
      'POST',
      `/api/v1/teams/${demoTeamId}/users/${target.id}`,
      { token: owner, body: { role: 'member' } },
    );
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ id: target.id, role: 'member', email: target.email });
    const twice = await call(stack.api, 'POST', `/api/v1/teams/${demoTeamId}/users/${target.id}`, {
      token: owner,
      body: { role: 'member' },
    });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ error: 'conflict' });

    const bad = await call(stack.api, 'PATCH', `/api/v1/teams/${demoTeamId}/users/${target.id}`, {
      token: teamAdmin,
      body: { role: 'boss' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      error: 'validation-failed',
      issues: [expect.objectContaining({ path: 'role' })],
    });

    const token = await signIn(stack.api, target.email);
    const promoted = await call<Member>(
      stack.api,
      'PATCH',
      `/api/v1/teams/${demoTeamId}/users/${target.id}`,
      { token: teamAdmin, body: { role: 'admin' } },
    );
    expect(promoted.status).toBe(200);
    expect(promoted.body.role).toBe('admin');
    // A promotion takes nothing away: the session stays.
    expect((await get('/api/v1/auth/current-user', token)).status).toBe(200);
    const demoted = await call<Member>(
      stack.api,
      'PATCH',
      `/api/v1/teams/${demoTeamId}/users/${target.id}`,
      { token: teamAdmin, body: { role: 'member' } },
    );
    expect(demoted.status).toBe(200);
    expect(demoted.body.role).toBe('member');
    // Demoting ends every session at once.
    expect((await get('/api/v1/auth/current-user', token)).status).toBe(401);

    const audit = await db()
      .selectFrom('audit_log')
      .select(['action', 'team_id', 'detail'])
      .where('subject', '=', target.id)
      .where('action', 'in', ['user.added-to-team', 'user.role-changed'])
      .where('ip', 'is not', null)
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      { action: 'user.added-to-team', team_id: demoTeamId, detail: { role: 'member' } },
      {
        action: 'user.role-changed',
        team_id: demoTeamId,
        detail: { from: 'member', to: 'admin', sessionsEnded: 0 },
      },
      {
        action: 'user.role-changed',
        team_id: demoTeamId,
        detail: { from: 'admin', to: 'member', sessionsEnded: 1 },
      },
    ]);
  });

  it('refuses to remove or demote the last team admin, and writes nothing', async () => {
    const onlyAdmin = pagers[0]!;
    const token = await signIn(stack.api, onlyAdmin.email);
    const auditBefore = await db()
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const demote = await call(
      stack.api,
      'PATCH',
      `/api/v1/teams/${pagingTeamId}/users/${onlyAdmin.id}`,
      { token: owner, body: { role: 'member' } },
    );
    expect(demote.status).toBe(409);
    expect(demote.body).toMatchObject({
      error: 'conflict',
      message: expect.stringContaining('last team admin'),
    });
    const remove = await call(
      stack.api,
      'DELETE',
      `/api/v1/teams/${pagingTeamId}/users/${onlyAdmin.id}`,
      { token },
    );
    expect(remove.status).toBe(409);
    expect(remove.body).toMatchObject({ error: 'conflict' });
    const member = await db()
      .selectFrom('team_members')
      .select('role')
      .where('team_id', '=', pagingTeamId)
      .where('user_id', '=', onlyAdmin.id)
      .executeTakeFirst();
    expect(member).toEqual({ role: 'admin' });
    const auditAfter = await db()
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(auditAfter.n).toBe(auditBefore.n);
    expect((await get('/api/v1/auth/current-user', token)).status).toBe(200);
  });

  it('removing a user ends their sessions: their token answers 401', async () => {
    const target = pagers[6]!;
    const token = await signIn(stack.api, target.email);
    const other = await signIn(stack.api, target.email);
    expect((await get('/api/v1/auth/current-user', token)).status).toBe(200);
    const removed = await call(
      stack.api,
      'DELETE',
      `/api/v1/teams/${pagingTeamId}/users/${target.id}`,
      { token: owner },
    );
    expect(removed.status).toBe(204);
    for (const held of [token, other]) {
      const answer = await get('/api/v1/auth/current-user', held);
      expect(answer.status).toBe(401);
    }
    expect((await get(`/api/v1/teams/${pagingTeamId}/users/${target.id}`, owner)).status).toBe(404);
    const audit = await db()
      .selectFrom('audit_log')
      .select(['team_id', 'ip', 'detail'])
      .where('subject', '=', target.id)
      .where('action', '=', 'user.removed-from-team')
      .execute();
    expect(audit).toEqual([
      {
        team_id: pagingTeamId,
        ip: expect.any(String),
        detail: { role: 'member', sessionsEnded: 2 },
      },
    ]);
    const again = await call(
      stack.api,
      'DELETE',
      `/api/v1/teams/${pagingTeamId}/users/${target.id}`,
      { token: owner },
    );
    expect(again.status).toBe(404);
  });

  it("answers another team's admin 404 on every member call", async () => {
    const dispatcherId = await userId('dispatcher@demo-county.test');
    const base = `/api/v1/teams/${demoTeamId}/users`;
    const answers = await Promise.all([
      call(stack.api, 'GET', base, { token: neighbourAdmin }),
      call(stack.api, 'GET', `${base}/${dispatcherId}`, { token: neighbourAdmin }),
      call(stack.api, 'POST', `${base}/${dispatcherId}`, {
        token: neighbourAdmin,
        body: { role: 'member' },
      }),
      call(stack.api, 'PATCH', `${base}/${dispatcherId}`, {
        token: neighbourAdmin,
        body: { role: 'admin' },
      }),
      call(stack.api, 'DELETE', `${base}/${dispatcherId}`, { token: neighbourAdmin }),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ error: 'not-found' });
    }
    const still = await db()
      .selectFrom('team_members')
      .select('role')
      .where('team_id', '=', demoTeamId)
      .where('user_id', '=', dispatcherId)
      .executeTakeFirst();
    expect(still).toEqual({ role: 'member' });
  });
});

describe('a dispatcher', () => {
  it('gets 403 on every admin read and write', async () => {
    const someone = await userId('dispatcher2@demo-county.test');
    const member = `/api/v1/teams/${demoTeamId}/users/${someone}`;
    const requests: [string, string, unknown?][] = [
      ['GET', '/api/v1/users/'],
      ['GET', '/api/v1/auth/users/'],
      ['GET', '/api/v1/users/search?search=a'],
      ['GET', `/api/v1/users/find-client-users/${demoTeamId}/1`],
      ['GET', `/api/v1/users/find-new-client-users/${demoTeamId}/1`],
      ['GET', '/api/v1/users/find-unlisted-users'],
      ['GET', `/api/v1/users/${someone}`],
      ['POST', `/api/v1/users/${someone}/unlock`],
      ['GET', `/api/v1/teams/${demoTeamId}/users`],
      ['GET', member],
      ['POST', member, { role: 'member' }],
      ['PATCH', member, { role: 'admin' }],
      ['DELETE', member],
      [
        'POST',
        '/api/v1/auth/group-register',
        {
          teamId: demoTeamId,
          users: [{ firstName: 'N', lastName: 'O', email: uniqueEmail('no') }],
        },
      ],
    ];
    for (const [method, path, body] of requests) {
      const answer = await call(stack.api, method, path, {
        token: dispatcher,
        ...(body === undefined ? {} : { body }),
      });
      expect(`${method} ${path} ${answer.status}`).toBe(`${method} ${path} 403`);
      expect(answer.body).toMatchObject({ error: 'forbidden' });
    }
    const role = await db()
      .selectFrom('team_members')
      .select('role')
      .where('team_id', '=', demoTeamId)
      .where('user_id', '=', someone)
      .executeTakeFirst();
    expect(role).toEqual({ role: 'member' });
  });
});

describe('invitations (POST /api/v1/auth/group-register)', () => {
  it('invites several people at once with a role; the link sets a password and confirms', async () => {
    const first = uniqueEmail('invitee-one', 'demo-county.test');
    const second = uniqueEmail('invitee-two', 'demo-county.test');
    const answer = await call(stack.api, 'POST', '/api/v1/auth/group-register', {
      token: teamAdmin,
      body: {
        teamId: demoTeamId,
        users: [
          { firstName: 'Iris', lastName: 'One', email: first, role: 'admin' },
          { firstName: 'Ivan', lastName: 'Two', email: second, role: 'member' },
        ],
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ invited: 2 });

    const members = await get<Page<Member>>(
      `/api/v1/teams/${demoTeamId}/users?pageSize=100`,
      teamAdmin,
    );
    expect(members.body.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ email: first, role: 'admin', emailConfirmed: false }),
        expect.objectContaining({ email: second, role: 'member', emailConfirmed: false }),
      ]),
    );
    const audit = await db()
      .selectFrom('audit_log')
      .select(['team_id', 'ip', 'detail'])
      .where('action', '=', 'user.invited')
      .where('subject', 'in', [first.toLowerCase(), second.toLowerCase()])
      .execute();
    expect(audit).toHaveLength(2);
    for (const row of audit)
      expect(row).toMatchObject({ team_id: demoTeamId, ip: expect.any(String) });

    const [email] = await waitForEmails(stack.api, second);
    const { code } = codeIn(email!, 'reset-code');
    const set = await call(stack.api, 'POST', '/api/v1/auth/update-password', {
      body: { resetCode: code, password: 'a brand new password' },
    });
    expect(set.status).toBe(200);
    const token = await signIn(stack.api, second, 'a brand new password');
    const me = await get<{ emailConfirmed: boolean; companyName: string }>(
      '/api/v1/auth/current-user',
      token,
    );
    expect(me.body).toMatchObject({ emailConfirmed: true, companyName: 'Demo County 911' });

    const elsewhere = await call(stack.api, 'POST', '/api/v1/auth/group-register', {
      token: neighbourAdmin,
      body: {
        teamId: demoTeamId,
        users: [{ firstName: 'N', lastName: 'O', email: uniqueEmail('x') }],
      },
    });
    expect(elsewhere.status).toBe(404);
  });
});
