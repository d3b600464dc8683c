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
} from './support';

let stack: AuthStack;
let owner: string;
let teamAdmin: string;
let dispatcher: string;
let neighbour: string;

beforeAll(async () => {
  stack = await startAuthStack();
  [owner, teamAdmin, dispatcher, neighbour] = await Promise.all([
    signIn(stack.api, 'owner@locus.test'),
    signIn(stack.api, 'teamadmin@demo-county.test'),
    signIn(stack.api, 'dispatcher@demo-county.test'),
    signIn(stack.api, 'dispatcher@neighbour-county.test'),
  ]);
});

afterAll(async () => {
  await stack?.close();
});

const idOf = async (token: string) =>
  (await call<{ id: string }>(stack.api, 'GET', '/api/v1/auth/current-user', { token })).body.id;

describe('agencies', () => {
  it('are searched by a case-insensitive part of the name, at most 20, by name', async () => {
    const answer = await call<{ id: number; name: string; state: string }[]>(
      stack.api,
      'POST',
      '/api/v1/psap/search',
      { body: { searchTerm: 'COUNTY' } },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.length).toBeGreaterThan(1);
    expect(answer.body.length).toBeLessThanOrEqual(20);
    for (const agency of answer.body) expect(agency.name.toLowerCase()).toContain('county');
    const names = answer.body.map((agency) => agency.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));

    const middle = await call<{ name: string }[]>(stack.api, 'POST', '/api/v1/psap/search', {
      body: { searchTerm: 'emergency comm' },
    });
    expect(middle.body.map((agency) => agency.name)).toContain(
      'Neighbouring County Emergency Communications',
    );
    const wildcard = await call<unknown[]>(stack.api, 'POST', '/api/v1/psap/search', {
      body: { searchTerm: '%' },
    });
    expect(wildcard.body).toEqual([]);
  });

  it('are found by id, or 404', async () => {
    const [first] = (
      await call<{ id: number; name: string; state: string }[]>(
        stack.api,
        'POST',
        '/api/v1/psap/search',
        { body: { searchTerm: 'county' } },
      )
    ).body;
    const found = await call(stack.api, 'GET', `/api/v1/psap/${first!.id}`);
    expect(found.body).toEqual(first);
    const missing = await call(stack.api, 'GET', '/api/v1/psap/999999');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: 'not-found' });
  });
});

describe('PATCH /users/{id}', () => {
  it('lets users change their own profile and hasSeenWalkthrough', async () => {
    const id = await idOf(dispatcher);
    const answer = await call(stack.api, 'PATCH', `/api/v1/users/${id}`, {
      token: dispatcher,
      body: { hasSeenWalkthrough: true, phoneNumber: '+12025550188', firstName: 'Danielle' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      hasSeenWalkthrough: true,
      phoneNumber: '+12025550188',
      firstName: 'Danielle',
    });
  });

  it('refuses admin-only fields on yourself, and anything on someone else, to non-platform admins', async () => {
    const id = await idOf(dispatcher);
    const promote = await call(stack.api, 'PATCH', `/api/v1/users/${id}`, {
      token: dispatcher,
      body: { isAdmin: true },
    });
    expect(promote.status).toBe(403);
    expect(promote.body).toMatchObject({ error: 'forbidden' });
    // A team admin of the user's own team is not a platform admin either.
    const byTeamAdmin = await call(stack.api, 'PATCH', `/api/v1/users/${id}`, {
      token: teamAdmin,
      body: { firstName: 'Changed' },
    });
    expect(byTeamAdmin.status).toBe(403);
    const unknownField = await call(stack.api, 'PATCH', `/api/v1/users/${id}`, {
      token: dispatcher,
      body: { email: 'new@agency.test' },
    });
    expect(unknownField.status).toBe(400);
  });

  it('lets platform admins change admin-only fields on anyone, recorded in the audit log', async () => {
    const id = await idOf(neighbour);
    const answer = await call(stack.api, 'PATCH', `/api/v1/users/${id}`, {
      token: owner,
      body: { isAdmin: true, psapId: null },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ isAdmin: true, psapId: null });
    // An agency that does not exist is the client's mistake (it answered 500: found by tests/fuzz).
    const noAgency = await call(stack.api, 'PATCH', `/api/v1/users/${id}`, {
      token: owner,
      body: { psapId: 568846760 },
    });
    expect(noAgency.status).toBe(400);
    expect(noAgency.body).toMatchObject({
      error: 'validation-failed',
      issues: [{ path: 'psapId', message: 'No such agency' }],
    });
    const audit = await stack.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'user.patch')
      .where('subject', '=', id)
      .executeTakeFirstOrThrow();
    expect(audit.detail).toEqual({ fields: ['isAdmin', 'psapId'] });
    expect(audit.actor_user_id).toBe(await idOf(owner));
    // Taking the flag away ends every session of theirs (like a team admin's demotion).
    const demoted = await call(stack.api, 'PATCH', `/api/v1/users/${id}`, {
      token: owner,
      body: { isAdmin: false },
    });
    expect(demoted.status).toBe(200);
    const old = await call(stack.api, 'GET', '/api/v1/auth/current-user', { token: neighbour });
    expect(old.status).toBe(401);
    neighbour = await signIn(stack.api, 'dispatcher@neighbour-county.test');
  });

  it('lets platform admins confirm an address, unless another account owns it', async () => {
    const email = uniqueEmail('unconfirmed');
    const registered = await call<{ token: string }>(stack.api, 'POST', '/api/v1/auth/register', {
      body: registration(email),
    });
    const id = await idOf(registered.body.token);
    const confirmed = await call(stack.api, 'PATCH', `/api/v1/users/${id}`, {
      token: owner,
      body: { emailConfirmed: true },
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ emailConfirmed: true });

    const duplicate = await call<{ token: string }>(stack.api, 'POST', '/api/v1/auth/register', {
      body: registration('dispatcher2@demo-county.test'),
    });
    const conflict = await call(
      stack.api,
      'PATCH',
      `/api/v1/users/${await idOf(duplicate.body.token)}`,
      { token: owner, body: { emailConfirmed: true } },
    );
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({ error: 'conflict' });
  });

  it('needs a session, and answers 404 for an unknown user', async () => {
    const anonymous = await call(stack.api, 'PATCH', `/api/v1/users/${await idOf(dispatcher)}`, {
      body: { hasSeenWalkthrough: true },
    });
    expect(anonymous.status).toBe(401);
    const missing = await call(
      stack.api,
      'PATCH',
      '/api/v1/users/00000000-0000-4000-8000-000000000000',
      { token: owner, body: { hasSeenWalkthrough: true } },
    );
    expect(missing.status).toBe(404);
  });
});

describe('teams and the user list', () => {
  it("give users their own teams, and platform admins anyone's", async () => {
    const id = await idOf(dispatcher);
    const own = await call<{ teamName: string; role: string }[]>(
      stack.api,
      'GET',
      `/api/v1/users/${id}/teams`,
      { token: dispatcher },
    );
    expect(own.status).toBe(200);
    expect(own.body).toEqual([
      expect.objectContaining({
        teamName: 'Demo County 911',
        role: 'member',
        isActive: true,
        isPlatformOwner: false,
        isCoastGuard: false,
        permissionLevels: ['premiere', 'enterprise'],
        customContent: { links: { header: [], headerDropdown: [] } },
      }),
    ]);
    expect(
      (await call(stack.api, 'GET', `/api/v1/users/${id}/teams`, { token: owner })).status,
    ).toBe(200);
    expect(
      (await call(stack.api, 'GET', `/api/v1/users/${id}/teams`, { token: neighbour })).status,
    ).toBe(403);
  });

  it('lists every user to platform admins, team members to team admins, nothing to dispatchers', async () => {
    const emails = async (token: string) =>
      (
        await call<{ items: { email: string }[] }>(
          stack.api,
          'GET',
          '/api/v1/auth/users/?pageSize=100',
          { token },
        )
      ).body.items.map((user) => user.email);
    expect(await emails(owner)).toEqual(
      expect.arrayContaining(['owner@locus.test', 'dispatcher@neighbour-county.test']),
    );
    const forTeamAdmin = await emails(teamAdmin);
    expect(forTeamAdmin).toEqual(
      expect.arrayContaining(['teamadmin@demo-county.test', 'dispatcher2@demo-county.test']),
    );
    expect(forTeamAdmin).not.toContain('dispatcher@neighbour-county.test');
    const refused = await call(stack.api, 'GET', '/api/v1/auth/users/', { token: dispatcher });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'forbidden' });
  });
});

describe('group registration', () => {
  it("creates accounts on the admin's team and e-mails each a link to choose a password", async () => {
    const { body: teams } = await call<{ id: string }[]>(
      stack.api,
      'GET',
      `/api/v1/users/${await idOf(teamAdmin)}/teams`,
      { token: teamAdmin },
    );
    const teamId = teams[0]!.id;
    const newcomer = uniqueEmail('newcomer', 'demo-county.test');
    const answer = await call(stack.api, 'POST', '/api/v1/auth/group-register', {
      token: teamAdmin,
      body: {
        teamId,
        users: [
          { firstName: 'Nia', lastName: 'Newcomer', email: newcomer },
          // Already has an account (and is a member here already): the answer does not say so.
          { firstName: 'Devon', lastName: 'Dispatcher', email: 'dispatcher2@demo-county.test' },
        ],
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ invited: 2 });

    const [invitation] = await waitForEmails(stack.api, newcomer);
    expect(invitation!.subject).toContain('Demo County 911');
    expect(invitation!.text).toContain('Terry Admin');
    const { code } = codeIn(invitation!, 'reset-code');
    const set = await call(stack.api, 'POST', '/api/v1/auth/update-password', {
      body: { resetCode: code, password: 'my own password' },
    });
    expect(set.status).toBe(200);
    const token = await signIn(stack.api, newcomer, 'my own password');
    const me = await call(stack.api, 'GET', '/api/v1/auth/current-user', { token });
    expect(me.body).toMatchObject({ emailConfirmed: true, companyName: 'Demo County 911' });
  });

  it('is refused to dispatchers and to admins of other teams', async () => {
    const { body: teams } = await call<{ id: string }[]>(
      stack.api,
      'GET',
      `/api/v1/users/${await idOf(teamAdmin)}/teams`,
      { token: teamAdmin },
    );
    const body = {
      teamId: teams[0]!.id,
      users: [{ firstName: 'X', lastName: 'Y', email: uniqueEmail('x') }],
    };
    for (const token of [dispatcher, neighbour]) {
      const answer = await call(stack.api, 'POST', '/api/v1/auth/group-register', {
        token,
        body,
      });
      expect(answer.status).toBe(403);
    }
  });
});

describe('coast-guard approval', () => {
  let cgAdmin: string;
  let cgTeamId: string;

  beforeAll(async () => {
    const { db } = stack.database;
    const team = await db
      .insertInto('teams')
      .values({ team_name: 'Sector Test', is_coast_guard: true })
      .returning('id')
      .executeTakeFirstOrThrow();
    cgTeamId = team.id;
    const adminId = await idOf(neighbour);
    // The neighbour dispatcher doubles as the coast-guard team's admin in this file.
    await db
      .insertInto('team_members')
      .values({ team_id: cgTeamId, user_id: adminId, role: 'admin' })
      .execute();
    cgAdmin = neighbour;
  });

  async function coastGuardApplicant(name: string) {
    const email = uniqueEmail(name, 'uscg.mil');
    const registered = await call<{ token: string }>(stack.api, 'POST', '/api/v1/auth/register', {
      body: registration(email, { firstName: name }),
    });
    const token = registered.body.token;
    const [mail] = await waitForEmails(stack.api, email);
    await call(stack.api, 'POST', '/api/v1/auth/confirm-email', {
      body: { verificationCode: codeIn(mail!, 'verification-code').code },
    });
    await call(stack.api, 'POST', '/api/v1/auth/complete-registration-uscg', {
      token,
      body: { unitName: `Station ${name}` },
    });
    return { email, token, id: await idOf(token) };
  }

  it('lists confirmed pending coast-guard users to coast-guard team admins only', async () => {
    const applicant = await coastGuardApplicant('Pending');
    const pending = await call<{ id: string; unitName: string }[]>(
      stack.api,
      'GET',
      '/api/v1/uscg/pending',
      { token: cgAdmin },
    );
    expect(pending.status).toBe(200);
    expect(pending.body).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: applicant.id, unitName: 'Station Pending' }),
      ]),
    );
    for (const token of [teamAdmin, dispatcher]) {
      expect((await call(stack.api, 'GET', '/api/v1/uscg/pending', { token })).status).toBe(403);
    }
  });

  it('approves: the user joins the coast-guard team', async () => {
    const applicant = await coastGuardApplicant('Approved');
    const answer = await call(stack.api, 'POST', `/api/v1/uscg/${applicant.id}/approve`, {
      token: cgAdmin,
    });
    expect(answer.status).toBe(204);
    const me = await call(stack.api, 'GET', '/api/v1/auth/current-user', {
      token: applicant.token,
    });
    expect(me.body).toMatchObject({ uscgApproval: 'approved', companyName: 'Sector Test' });
    const teams = await call<{ id: string; isCoastGuard: boolean }[]>(
      stack.api,
      'GET',
      `/api/v1/users/${applicant.id}/teams`,
      { token: applicant.token },
    );
    expect(teams.body).toEqual([expect.objectContaining({ id: cgTeamId, isCoastGuard: true })]);
    // Decided: no longer pending.
    const again = await call(stack.api, 'POST', `/api/v1/uscg/${applicant.id}/approve`, {
      token: cgAdmin,
    });
    expect(again.status).toBe(404);
  });

  it('rejects: the user stays out, and the decision is audited', async () => {
    const applicant = await coastGuardApplicant('Rejected');
    const answer = await call(stack.api, 'POST', `/api/v1/uscg/${applicant.id}/reject`, {
      token: cgAdmin,
    });
    expect(answer.status).toBe(204);
    const me = await call(stack.api, 'GET', '/api/v1/auth/current-user', {
      token: applicant.token,
    });
    expect(me.body).toMatchObject({ uscgApproval: 'rejected', companyName: null });
    const actions = await stack.database.db
      .selectFrom('audit_log')
      .select('action')
      .where('subject', '=', applicant.id)
      .execute();
    expect(actions.map((row) => row.action)).toEqual(['uscg.reject']);
  });
});

describe('demo requests', () => {
  const request = {
    firstName: 'Casey',
    lastName: 'Chief',
    email: 'casey@harbor-county.test',
    phoneNumber: '+12025550177',
    companyName: 'Harbor County 911',
    comment: 'Two consoles, twenty dispatchers.',
  };

  it('are stored, e-mailed to sales, and listed for platform admins only', async () => {
    const answer = await call(stack.api, 'POST', '/api/v1/auth/demo-request', { body: request });
    expect(answer.status).toBe(202);
    const [notification] = await waitForEmails(stack.api, 'sales@locus.test');
    expect(notification!.subject).toBe('Demo request from Harbor County 911');
    expect(notification!.text).toContain('Two consoles, twenty dispatchers.');

    const list = await call<unknown[]>(stack.api, 'GET', '/api/v1/admin/demo-requests', {
      token: owner,
    });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      { ...request, id: expect.any(String), createdAt: expect.any(String) },
    ]);
    expect(
      (await call(stack.api, 'GET', '/api/v1/admin/demo-requests', { token: teamAdmin })).status,
    ).toBe(403);
    expect((await call(stack.api, 'GET', '/api/v1/admin/demo-requests')).status).toBe(401);
  });

  it('need every required field', async () => {
    const answer = await call<{ issues: { path: string }[] }>(
      stack.api,
      'POST',
      '/api/v1/auth/demo-request',
      { body: { ...request, phoneNumber: '', companyName: undefined } },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.issues.map((issue) => issue.path).sort()).toEqual([
      'companyName',
      'phoneNumber',
    ]);
  });
});

describe('public configuration', () => {
  it('gives the web app its defaults before sign-in', async () => {
    const answer = await call(stack.api, 'GET', '/api/v1/config');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      coastGuard: { emailDomain: 'uscg.mil', aliasPattern: null },
      captcha: { provider: 'off' },
      chatAssistantScriptUrl: null,
      supportWidgetScriptUrl: null,
      links: {
        faq: expect.stringMatching(/^https:/),
        helpCentre: expect.stringMatching(/^https:/),
        support: expect.stringMatching(/^https:/),
        careers: expect.stringMatching(/^https:/),
        social: expect.arrayContaining([expect.objectContaining({ name: 'LinkedIn' })]),
      },
    });
  });
});
