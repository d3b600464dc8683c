import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  codeIn,
  registration,
  signIn,
  startAuthStack,
  uniqueEmail,
  waitForEmails,
  type AuthStack,
} from '../auth/support';

/**
 * Issue 11, verification: the platform owner vets users that no agency vouches for yet (an
 * unlisted agency, an e-mail domain that is not cleared), approves them onto a team or rejects
 * them with a reason they receive by e-mail, and keeps the list of cleared domains.
 */
let stack: AuthStack;
let owner: string;
let demoCountyId: string;

beforeAll(async () => {
  stack = await startAuthStack();
  owner = await signIn(stack.api, 'owner@locus.test');
  demoCountyId = (
    await stack.database.db
      .selectFrom('teams')
      .select('id')
      .where('team_name', '=', 'Demo County 911')
      .executeTakeFirstOrThrow()
  ).id;
});
afterAll(() => stack?.close());

interface Applicant {
  id: string;
  email: string;
  token: string;
}

/**
 * Registers through the API as a visitor would, confirms the address from the outbox and
 * finishes registering: with a listed agency, or naming one that is not listed.
 */
async function applicant(
  domain: string,
  agency: { listed: true } | { unlisted: string },
  name = 'Avery',
): Promise<Applicant> {
  const email = uniqueEmail(name.toLowerCase(), domain);
  const registered = await call<{ token: string }>(stack.api, 'POST', '/api/v1/auth/register', {
    body: registration(email, { firstName: name }),
  });
  expect(registered.status).toBe(201);
  const { token } = registered.body;
  const [mail] = await waitForEmails(stack.api, email);
  const confirmed = await call(stack.api, 'POST', '/api/v1/auth/confirm-email', {
    body: { verificationCode: codeIn(mail!, 'verification-code').code },
  });
  expect(confirmed.status).toBe(200);
  if ('unlisted' in agency) {
    const joined = await call(stack.api, 'POST', '/api/v1/auth/join-unlisted', {
      token,
      body: { companyName: agency.unlisted },
    });
    expect(joined.status).toBe(200);
  } else {
    const psap = await stack.database.db
      .selectFrom('psaps')
      .select('id')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const completed = await call(stack.api, 'POST', '/api/v1/auth/complete-registration', {
      token,
      body: { psapPrimaryKey: psap.id },
    });
    expect(completed.status).toBe(200);
  }
  const me = await call<{ id: string }>(stack.api, 'GET', '/api/v1/auth/current-user', { token });
  return { id: me.body.id, email, token };
}

interface WaitingUser {
  id: string;
  email: string;
  domain: string;
  reasons: string[];
  unlistedAgencyName: string | null;
  registeredAt: string;
}
interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

async function queue(pageSize = 100): Promise<Page<WaitingUser>> {
  const answer = await call<Page<WaitingUser>>(
    stack.api,
    'GET',
    `/api/v1/verification/queue?pageSize=${pageSize}`,
    { token: owner },
  );
  expect(answer.status).toBe(200);
  return answer.body;
}

const locate = (token: string) =>
  call(stack.api, 'POST', '/api/v1/location/start-stream', {
    token,
    body: { phoneNumber: '+12025550160' },
  });

describe('who may use verification', () => {
  it('is the platform owner only: team admins and dispatchers get 403, nobody signed in 401', async () => {
    const someone = '00000000-0000-4000-8000-000000000000';
    const requests: [string, string, unknown?][] = [
      ['GET', '/api/v1/verification/queue'],
      ['GET', '/api/v1/verification/teams'],
      ['POST', `/api/v1/verification/users/${someone}/approve`, { newTeamName: 'X' }],
      ['POST', `/api/v1/verification/users/${someone}/reject`, { reason: 'No' }],
      ['GET', '/api/v1/verification/domains'],
      ['POST', '/api/v1/verification/domains', { domain: 'sneaky.test' }],
      ['DELETE', '/api/v1/verification/domains/demo-county.test'],
    ];
    const teamAdmin = await signIn(stack.api, 'teamadmin@demo-county.test');
    const dispatcher = await signIn(stack.api, 'dispatcher@demo-county.test');
    for (const [method, path, body] of requests) {
      for (const token of [teamAdmin, dispatcher]) {
        const answer = await call(stack.api, method, path, { token, body });
        expect(answer.status, `${method} ${path}`).toBe(403);
        expect(answer.body).toMatchObject({ error: 'forbidden' });
      }
      expect((await call(stack.api, method, path, { body })).status).toBe(401);
    }
    // Nothing was written by the refusals.
    const domains = await stack.database.db
      .selectFrom('cleared_email_domains')
      .select('domain')
      .execute();
    expect(domains.map((row) => row.domain)).toContain('demo-county.test');
    expect(domains.map((row) => row.domain)).not.toContain('sneaky.test');
  });
});

describe('the queue', () => {
  it('lists confirmed users with an uncleared domain, or an unlisted agency and no team, oldest first, with why', async () => {
    const uncleared = await applicant('unvetted-agency.test', { listed: true }, 'Uma');
    const unlisted = await applicant('demo-county.test', { unlisted: 'Tiny Town PD' }, 'Lee');
    const both = await applicant('far-away.test', { unlisted: 'Far Away Sheriff' }, 'Bo');
    // A cleared domain and a listed agency: nothing to vet.
    const ordinary = await applicant('demo-county.test', { listed: true }, 'Ora');
    // Not confirmed: not in the queue.
    const unconfirmed = uniqueEmail('unconfirmed', 'unvetted-agency.test');
    await call(stack.api, 'POST', '/api/v1/auth/register', { body: registration(unconfirmed) });

    const { items, total } = await queue();
    expect(total).toBe(items.length);
    const byId = new Map(items.map((item) => [item.id, item]));
    expect(byId.get(uncleared.id)).toMatchObject({
      email: uncleared.email,
      domain: 'unvetted-agency.test',
      reasons: ['domain-not-cleared'],
      unlistedAgencyName: null,
    });
    expect(byId.get(unlisted.id)).toMatchObject({
      reasons: ['unlisted-agency'],
      unlistedAgencyName: 'Tiny Town PD',
    });
    expect(byId.get(both.id)).toMatchObject({
      reasons: ['unlisted-agency', 'domain-not-cleared'],
      unlistedAgencyName: 'Far Away Sheriff',
    });
    expect(byId.has(ordinary.id)).toBe(false);
    expect(items.some((item) => item.email === unconfirmed)).toBe(false);
    // Oldest first.
    const mine = items.filter((item) => [uncleared.id, unlisted.id, both.id].includes(item.id));
    expect(mine.map((item) => item.id)).toEqual([uncleared.id, unlisted.id, both.id]);
    const times = items.map((item) => Date.parse(item.registeredAt));
    expect([...times].sort((a, b) => a - b)).toEqual(times);

    // Paging: one per page, in the same order, with the same total.
    const first = await call<Page<WaitingUser>>(
      stack.api,
      'GET',
      '/api/v1/verification/queue?page=2&pageSize=1',
      { token: owner },
    );
    expect(first.body).toMatchObject({ page: 2, pageSize: 1, total });
    expect(first.body.items.map((item) => item.id)).toEqual([items[1]!.id]);
    const bad = await call(stack.api, 'GET', '/api/v1/verification/queue?pageSize=1000', {
      token: owner,
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'validation-failed' });
  });
});

describe('approving', () => {
  it('lets a user on an uncleared domain locate with the same token once attached to a team', async () => {
    const user = await applicant('approve-me.test', { listed: true }, 'Ada');
    const before = await locate(user.token);
    expect(before.status).toBe(403);
    expect(before.body).toMatchObject({ error: 'unauthorized-domain' });

    const teams = await call<{ id: string; teamName: string }[]>(
      stack.api,
      'GET',
      '/api/v1/verification/teams',
      { token: owner },
    );
    expect(teams.status).toBe(200);
    expect(teams.body.map((team) => team.teamName)).toEqual(
      expect.arrayContaining(['Demo County 911', 'Neighbouring County', 'Locus']),
    );

    const approved = await call(
      stack.api,
      'POST',
      `/api/v1/verification/users/${user.id}/approve`,
      {
        token: owner,
        body: { teamId: demoCountyId, role: 'member' },
      },
    );
    expect(approved.status).toBe(200);
    expect(approved.body).toEqual({
      userId: user.id,
      teamId: demoCountyId,
      teamName: 'Demo County 911',
      role: 'member',
      teamCreated: false,
    });

    // The very same token, no new sign-in.
    const after = await locate(user.token);
    expect(after.status).toBe(200);
    expect((await queue()).items.some((item) => item.id === user.id)).toBe(false);

    const again = await call(stack.api, 'POST', `/api/v1/verification/users/${user.id}/approve`, {
      token: owner,
      body: { teamId: demoCountyId, role: 'member' },
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'conflict' });

    const audit = await stack.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'verification.approved')
      .where('subject', '=', user.id)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ team_id: demoCountyId, ip: expect.any(String) });
    expect(audit[0]!.detail).toMatchObject({ role: 'member', reasons: ['domain-not-cleared'] });
  });

  it('also vets an address on an uncleared domain that a team admin added to their team', async () => {
    const user = await applicant('personal-mail.test', { listed: true }, 'Ivy');
    // The platform owner (as any admin of the team could, for a user they manage) adds them.
    const added = await call(stack.api, 'POST', `/api/v1/teams/${demoCountyId}/users/${user.id}`, {
      token: owner,
      body: { role: 'member' },
    });
    expect(added.status).toBe(201);
    // On a team, but the domain is not cleared: still refused, and waiting in the queue.
    expect((await locate(user.token)).body).toMatchObject({ error: 'unauthorized-domain' });
    const waiting = (await queue()).items.find((item) => item.id === user.id);
    expect(waiting).toMatchObject({ reasons: ['domain-not-cleared'] });

    const approved = await call(
      stack.api,
      'POST',
      `/api/v1/verification/users/${user.id}/approve`,
      { token: owner, body: { teamId: demoCountyId, role: 'member' } },
    );
    expect(approved.status).toBe(200);
    expect((await locate(user.token)).status).toBe(200);
    const memberships = await stack.database.db
      .selectFrom('team_members')
      .select(['team_id', 'role'])
      .where('user_id', '=', user.id)
      .execute();
    expect(memberships).toEqual([{ team_id: demoCountyId, role: 'member' }]);
  });

  it('refuses a new team whose name differs from an existing one only in case (409, not 500)', async () => {
    const user = await applicant('case-clash.test', { unlisted: 'demo county 911' }, 'Cy');
    const answer = await call(stack.api, 'POST', `/api/v1/verification/users/${user.id}/approve`, {
      token: owner,
      body: { newTeamName: 'DEMO COUNTY 911' },
    });
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ error: 'conflict' });
    expect((await queue()).items.some((item) => item.id === user.id)).toBe(true);
  });

  it('creates the agency’s team with the user as its team admin, and refuses a taken name without writing anything', async () => {
    const user = await applicant('new-agency.test', { unlisted: 'Lakeside Fire' }, 'Fay');
    const taken = await call(stack.api, 'POST', `/api/v1/verification/users/${user.id}/approve`, {
      token: owner,
      body: { newTeamName: 'Demo County 911' },
    });
    expect(taken.status).toBe(409);
    expect((await queue()).items.some((item) => item.id === user.id)).toBe(true);

    const created = await call<{ teamId: string; role: string; teamCreated: boolean }>(
      stack.api,
      'POST',
      `/api/v1/verification/users/${user.id}/approve`,
      { token: owner, body: { newTeamName: 'Lakeside Fire' } },
    );
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ role: 'admin', teamCreated: true });
    const team = await stack.database.db
      .selectFrom('teams')
      .select(['team_name', 'is_active', 'permission_levels'])
      .where('id', '=', created.body.teamId)
      .executeTakeFirstOrThrow();
    expect(team).toEqual({ team_name: 'Lakeside Fire', is_active: true, permission_levels: [] });
    const me = await call<{ isTeamAdmin: boolean }>(stack.api, 'GET', '/api/v1/auth/current-user', {
      token: user.token,
    });
    expect(me.body.isTeamAdmin).toBe(true);
    expect((await locate(user.token)).status).toBe(200);
  });

  it('answers 404 for an unknown user or team and 400 for a bad body, changing nothing', async () => {
    const user = await applicant('wait-more.test', { listed: true }, 'Wes');
    const unknownUser = await call(
      stack.api,
      'POST',
      '/api/v1/verification/users/00000000-0000-4000-8000-000000000000/approve',
      { token: owner, body: { teamId: demoCountyId, role: 'member' } },
    );
    expect(unknownUser.status).toBe(404);
    const unknownTeam = await call(
      stack.api,
      'POST',
      `/api/v1/verification/users/${user.id}/approve`,
      { token: owner, body: { teamId: '00000000-0000-4000-8000-000000000000', role: 'member' } },
    );
    expect(unknownTeam.status).toBe(404);
    const badRole = await call(stack.api, 'POST', `/api/v1/verification/users/${user.id}/approve`, {
      token: owner,
      body: { teamId: demoCountyId, role: 'owner' },
    });
    expect(badRole.status).toBe(400);
    expect(badRole.body).toMatchObject({ error: 'validation-failed' });
    expect((await queue()).items.some((item) => item.id === user.id)).toBe(true);
    expect((await locate(user.token)).body).toMatchObject({ error: 'unauthorized-domain' });
  });
});

describe('rejecting', () => {
  it('needs a reason, e-mails it to the user, and keeps them from locating', async () => {
    const user = await applicant('reject-me.test', { unlisted: 'Nowhere Agency' }, 'Rex');
    for (const reason of ['', '   ', 'x'.repeat(501)]) {
      const answer = await call(stack.api, 'POST', `/api/v1/verification/users/${user.id}/reject`, {
        token: owner,
        body: { reason },
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        error: 'validation-failed',
        issues: [expect.objectContaining({ path: 'reason' })],
      });
    }
    const reason = 'We could not confirm that Nowhere Agency is a public-safety agency.';
    const rejected = await call(stack.api, 'POST', `/api/v1/verification/users/${user.id}/reject`, {
      token: owner,
      body: { reason },
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toEqual({ userId: user.id });

    const mails = await waitForEmails(stack.api, user.email, 2);
    const notice = mails.find((mail) => /not approved/i.test(mail.subject));
    expect(notice?.text).toContain(reason);

    expect((await queue()).items.some((item) => item.id === user.id)).toBe(false);
    expect((await locate(user.token)).body).toMatchObject({ error: 'unauthorized-domain' });
    const twice = await call(stack.api, 'POST', `/api/v1/verification/users/${user.id}/reject`, {
      token: owner,
      body: { reason },
    });
    expect(twice.status).toBe(409);
    const audit = await stack.database.db
      .selectFrom('audit_log')
      .select(['detail', 'team_id'])
      .where('action', '=', 'verification.rejected')
      .where('subject', '=', user.id)
      .execute();
    expect(audit).toEqual([{ detail: expect.objectContaining({ reason }), team_id: null }]);
  });
});

describe('cleared domains', () => {
  it('lists, adds (lower-cased, 409 when present, 400 when not a domain) and removes them', async () => {
    const list = await call<{ domain: string; createdAt: string }[]>(
      stack.api,
      'GET',
      '/api/v1/verification/domains',
      { token: owner },
    );
    expect(list.status).toBe(200);
    expect(list.body.map((row) => row.domain)).toEqual(
      expect.arrayContaining(['demo-county.test', 'locus.test', 'neighbour-county.test']),
    );
    const names = list.body.map((row) => row.domain);
    expect([...names].sort()).toEqual(names);

    const added = await call(stack.api, 'POST', '/api/v1/verification/domains', {
      token: owner,
      body: { domain: '  River-County.GOV ' },
    });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ domain: 'river-county.gov', createdAt: expect.any(String) });
    const twice = await call(stack.api, 'POST', '/api/v1/verification/domains', {
      token: owner,
      body: { domain: 'river-county.gov' },
    });
    expect(twice.status).toBe(409);
    for (const domain of ['not a domain', 'user@river.gov', 'localhost', '-bad.gov', '']) {
      const answer = await call(stack.api, 'POST', '/api/v1/verification/domains', {
        token: owner,
        body: { domain },
      });
      expect(answer.status, domain).toBe(400);
      expect(answer.body).toMatchObject({
        error: 'validation-failed',
        issues: [expect.objectContaining({ path: 'domain' })],
      });
    }

    // A user of the newly cleared domain leaves the queue for that reason.
    const riverUser = await applicant('river-county.gov', { listed: true }, 'Riv');
    expect((await queue()).items.some((item) => item.id === riverUser.id)).toBe(false);

    const removed = await call(
      stack.api,
      'DELETE',
      '/api/v1/verification/domains/river-county.gov',
      {
        token: owner,
      },
    );
    expect(removed.status).toBe(204);
    expect((await queue()).items.some((item) => item.id === riverUser.id)).toBe(true);
    const gone = await call(stack.api, 'DELETE', '/api/v1/verification/domains/river-county.gov', {
      token: owner,
    });
    expect(gone.status).toBe(404);

    const audit = await stack.database.db
      .selectFrom('audit_log')
      .select('action')
      .where('subject', '=', 'river-county.gov')
      .orderBy('id')
      .execute();
    expect(audit.map((row) => row.action)).toEqual([
      'verification.domain-added',
      'verification.domain-removed',
    ]);
  });
});
