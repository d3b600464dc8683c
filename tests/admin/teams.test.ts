import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as timeZoneMigration from '../../packages/db/src/migrations/2026-11-28T17-04_team-time-zone';
import { call, signIn, startAuthStack, type AuthStack } from '../auth/support';

interface ManagedTeam {
  id: string;
  teamName: string;
  isActive: boolean;
  isPlatformOwner: boolean;
  isCoastGuard: boolean;
  permissionLevels: string[];
  customContent: { links: { header: Link[]; headerDropdown: Link[] } };
  memberCount: number;
  timeZone: string;
  createdAt: string;
}
interface Link {
  name: string;
  link: string;
}
interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}
interface Psap {
  id: number;
  name: string;
  state: string;
}
interface ErrorAnswer {
  error: string;
  message: string;
  issues?: { path: string; message: string }[];
}

let stack: AuthStack;
let owner: string;
let teamAdmin: string;
let dispatcher: string;
let neighbourAdmin: string;
let demoTeamId: string;
let neighbourTeamId: string;
let dispatcherId: string;
let teamAdminId: string;
let neighbourDispatcherId: string;
let agencies: Psap[];

const base = '/api/v1/teams';

async function idOf(token: string): Promise<string> {
  return (await call<{ id: string }>(stack.api, 'GET', '/api/v1/auth/current-user', { token })).body
    .id;
}

async function teamIdByName(name: string): Promise<string> {
  const row = await stack.database.db
    .selectFrom('teams')
    .select('id')
    .where('team_name', '=', name)
    .executeTakeFirstOrThrow();
  return row.id;
}

async function auditRows(action: string, teamId: string) {
  return stack.database.db
    .selectFrom('audit_log')
    .select(['action', 'team_id', 'ip', 'actor_user_id', 'detail'])
    .where('action', '=', action)
    .where('team_id', '=', teamId)
    .execute();
}

const links = (header: Link[], headerDropdown: Link[] = []) => ({
  customContent: { links: { header, headerDropdown } },
});

beforeAll(async () => {
  stack = await startAuthStack({ worker: false });
  [owner, teamAdmin, dispatcher, neighbourAdmin] = await Promise.all([
    signIn(stack.api, 'owner@locus.test'),
    signIn(stack.api, 'teamadmin@demo-county.test'),
    signIn(stack.api, 'dispatcher@demo-county.test'),
    signIn(stack.api, 'teamadmin@neighbour-county.test'),
  ]);
  demoTeamId = await teamIdByName('Demo County 911');
  neighbourTeamId = await teamIdByName('Neighbouring County');
  [dispatcherId, teamAdminId] = await Promise.all([idOf(dispatcher), idOf(teamAdmin)]);
  neighbourDispatcherId = await idOf(await signIn(stack.api, 'dispatcher@neighbour-county.test'));
  agencies = (
    await call<Psap[]>(stack.api, 'POST', '/api/v1/psap/search', {
      body: { searchTerm: 'county' },
    })
  ).body;
  expect(agencies.length).toBeGreaterThanOrEqual(2);
});

afterAll(async () => {
  await stack?.close();
});

describe('GET /api/v1/teams', () => {
  it('lists every team to a platform admin, by name, with search and paging', async () => {
    const all = await call<Page<ManagedTeam>>(stack.api, 'GET', `${base}?pageSize=100`, {
      token: owner,
    });
    expect(all.status).toBe(200);
    const names = all.body.items.map((team) => team.teamName);
    expect(names).toEqual(
      expect.arrayContaining(['Demo County 911', 'Locus', 'Neighbouring County']),
    );
    expect(names).toEqual(
      [...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())),
    );
    expect(all.body).toMatchObject({ total: names.length, page: 1, pageSize: 100 });
    expect(all.body.items.find((team) => team.id === demoTeamId)).toMatchObject({
      teamName: 'Demo County 911',
      isActive: true,
      isPlatformOwner: false,
      permissionLevels: ['premiere', 'enterprise'],
      customContent: { links: { header: [], headerDropdown: [] } },
    });
    expect(
      all.body.items.find((team) => team.id === demoTeamId)!.memberCount,
    ).toBeGreaterThanOrEqual(3);

    // Pages of two cover the same teams, each once, in the same order.
    const paged: string[] = [];
    for (let page = 1; paged.length < names.length; page += 1) {
      const answer = await call<Page<ManagedTeam>>(
        stack.api,
        'GET',
        `${base}?page=${page}&pageSize=2`,
        { token: owner },
      );
      expect(answer.body.total).toBe(names.length);
      expect(answer.body.items.length).toBeGreaterThan(0);
      paged.push(...answer.body.items.map((team) => team.teamName));
    }
    expect(paged).toEqual(names);

    const search = await call<Page<ManagedTeam>>(stack.api, 'GET', `${base}?search=COUNTY`, {
      token: owner,
    });
    expect(search.body.items.map((team) => team.teamName)).toEqual(
      names.filter((name) => name.toLowerCase().includes('county')),
    );
    const literal = await call<Page<ManagedTeam>>(stack.api, 'GET', `${base}?search=%25`, {
      token: owner,
    });
    expect(literal.body.total).toBe(0);
  });

  it('lists only their own teams to a team admin, and refuses dispatchers', async () => {
    const own = await call<Page<ManagedTeam>>(stack.api, 'GET', base, { token: teamAdmin });
    expect(own.status).toBe(200);
    expect(own.body.items.map((team) => team.id)).toEqual([demoTeamId]);
    expect(own.body.total).toBe(1);
    const neighbour = await call<Page<ManagedTeam>>(stack.api, 'GET', base, {
      token: neighbourAdmin,
    });
    expect(neighbour.body.items.map((team) => team.id)).toEqual([neighbourTeamId]);
    expect((await call(stack.api, 'GET', base, { token: dispatcher })).status).toBe(403);
    expect((await call(stack.api, 'GET', base)).status).toBe(401);
    expect((await call(stack.api, 'GET', `${base}?pageSize=101`, { token: owner })).status).toBe(
      400,
    );
  });
});

describe('POST /api/v1/teams and PATCH /api/v1/teams/:id', () => {
  it('let a platform admin create a team, refusing a name in use', async () => {
    const created = await call<ManagedTeam>(stack.api, 'POST', base, {
      token: owner,
      body: { teamName: '  Harbour Rescue  ', permissionLevels: ['premiere'] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      teamName: 'Harbour Rescue',
      isActive: true,
      isPlatformOwner: false,
      isCoastGuard: false,
      permissionLevels: ['premiere'],
      memberCount: 0,
      customContent: { links: { header: [], headerDropdown: [] } },
      // Issue 13: a new team starts in the US East (migration 2026-11-28T17-04).
      timeZone: 'America/New_York',
    });
    const audit = await auditRows('team.created', created.body.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]!.ip).toBeTruthy();

    const again = await call<ErrorAnswer>(stack.api, 'POST', base, {
      token: owner,
      body: { teamName: 'harbour rescue' },
    });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('conflict');

    const blank = await call<ErrorAnswer>(stack.api, 'POST', base, {
      token: owner,
      body: { teamName: ' ' },
    });
    expect(blank.status).toBe(400);
    expect(blank.body.issues?.[0]?.path).toBe('teamName');
    const level = await call<ErrorAnswer>(stack.api, 'POST', base, {
      token: owner,
      body: { teamName: 'Gold', permissionLevels: ['gold'] },
    });
    expect(level.status).toBe(400);
  });

  it('refuse team creation to team admins and dispatchers, creating nothing', async () => {
    for (const token of [teamAdmin, dispatcher, neighbourAdmin]) {
      const answer = await call<ErrorAnswer>(stack.api, 'POST', base, {
        token,
        body: { teamName: 'Rogue Team' },
      });
      expect(answer.status).toBe(403);
      expect(answer.body.error).toBe('forbidden');
    }
    const rows = await stack.database.db
      .selectFrom('teams')
      .select('id')
      .where('team_name', '=', 'Rogue Team')
      .execute();
    expect(rows).toHaveLength(0);
  });

  it('let a platform admin rename, deactivate and set levels; audited', async () => {
    const created = await call<ManagedTeam>(stack.api, 'POST', base, {
      token: owner,
      body: { teamName: 'Valley Dispatch' },
    });
    const id = created.body.id;
    const patched = await call<ManagedTeam>(stack.api, 'PATCH', `${base}/${id}`, {
      token: owner,
      body: {
        teamName: 'Valley 911',
        isActive: false,
        permissionLevels: ['enterprise', 'premiere', 'premiere'],
        timeZone: 'America/Denver',
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      id,
      teamName: 'Valley 911',
      isActive: false,
      permissionLevels: ['premiere', 'enterprise'],
      timeZone: 'America/Denver',
    });
    const read = await call<ManagedTeam>(stack.api, 'GET', `${base}/${id}`, { token: owner });
    expect(read.body).toMatchObject({
      teamName: 'Valley 911',
      isActive: false,
      timeZone: 'America/Denver',
    });
    const audit = await auditRows('team.updated', id);
    expect(audit).toHaveLength(1);
    expect(audit[0]!.detail).toMatchObject({
      teamName: 'Valley 911',
      isActive: false,
      timeZone: 'America/Denver',
    });

    const clash = await call<ErrorAnswer>(stack.api, 'PATCH', `${base}/${id}`, {
      token: owner,
      body: { teamName: 'DEMO COUNTY 911' },
    });
    expect(clash.status).toBe(409);
    const locus = await teamIdByName('Locus');
    const ownTeam = await call<ErrorAnswer>(stack.api, 'PATCH', `${base}/${locus}`, {
      token: owner,
      body: { isActive: false },
    });
    expect(ownTeam.status).toBe(409);
    const unknownField = await call<ErrorAnswer>(stack.api, 'PATCH', `${base}/${id}`, {
      token: owner,
      body: { isPlatformOwner: true },
    });
    expect(unknownField.status).toBe(400);
    // Not IANA names (a zone Intl accepts in any case, an abbreviation, an offset, nothing).
    for (const timeZone of ['Mars/Olympus_Mons', 'america/chicago', 'EST', '+02:00', '']) {
      const badZone = await call<ErrorAnswer>(stack.api, 'PATCH', `${base}/${id}`, {
        token: owner,
        body: { timeZone },
      });
      expect(badZone.status).toBe(400);
      expect(badZone.body.error).toBe('validation-failed');
      expect(badZone.body.issues?.map((issue) => issue.path)).toEqual(['timeZone']);
    }
    expect(
      (await call<ManagedTeam>(stack.api, 'GET', `${base}/${id}`, { token: owner })).body,
    ).toMatchObject({ timeZone: 'America/Denver' });
    // UTC, which Intl does not list among its zones, is one.
    const utc = await call<ManagedTeam>(stack.api, 'PATCH', `${base}/${id}`, {
      token: owner,
      body: { timeZone: 'UTC' },
    });
    expect(utc.status).toBe(200);
    expect(utc.body.timeZone).toBe('UTC');
  });

  it('refuse a team admin a change of level or name on their own team (403), and hide other teams (404)', async () => {
    for (const body of [
      { permissionLevels: ['premiere', 'enterprise'] },
      { teamName: 'Neighbours' },
      { isActive: false },
    ]) {
      const own = await call<ErrorAnswer>(stack.api, 'PATCH', `${base}/${neighbourTeamId}`, {
        token: neighbourAdmin,
        body,
      });
      expect(own.status).toBe(403);
    }
    const other = await call<ErrorAnswer>(stack.api, 'PATCH', `${base}/${demoTeamId}`, {
      token: neighbourAdmin,
      body: { permissionLevels: [] },
    });
    expect(other.status).toBe(404);
    const byDispatcher = await call(stack.api, 'PATCH', `${base}/${demoTeamId}`, {
      token: dispatcher,
      body: { isActive: false },
    });
    expect(byDispatcher.status).toBe(403);
    const team = await stack.database.db
      .selectFrom('teams')
      .select(['team_name', 'is_active', 'permission_levels'])
      .where('id', 'in', [demoTeamId, neighbourTeamId])
      .orderBy('team_name')
      .execute();
    expect(team).toEqual([
      {
        team_name: 'Demo County 911',
        is_active: true,
        permission_levels: ['premiere', 'enterprise'],
      },
      { team_name: 'Neighbouring County', is_active: true, permission_levels: [] },
    ]);
  });
});

describe('the team’s time zone (issue 13)', () => {
  it('keeps the seeded zones, and moves teams left on the old UTC default to New York', async () => {
    const zones = await stack.database.db
      .selectFrom('teams')
      .select(['team_name', 'time_zone'])
      .where('team_name', 'in', ['Locus', 'Demo County 911', 'Neighbouring County'])
      .orderBy('team_name')
      .execute();
    expect(zones).toEqual([
      { team_name: 'Demo County 911', time_zone: 'America/Chicago' },
      { team_name: 'Locus', time_zone: 'UTC' },
      { team_name: 'Neighbouring County', time_zone: 'America/Denver' },
    ]);
    // A team created before the migration, still on the old default: the migration again.
    const old = await stack.database.db
      .insertInto('teams')
      .values({ team_name: 'Old Harbour', time_zone: 'UTC' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await timeZoneMigration.up(stack.database.db as unknown as Kysely<unknown>);
    const after = await stack.database.db
      .selectFrom('teams')
      .select(['team_name', 'time_zone'])
      .where('team_name', 'in', ['Locus', 'Demo County 911', 'Old Harbour'])
      .orderBy('team_name')
      .execute();
    expect(after).toEqual([
      { team_name: 'Demo County 911', time_zone: 'America/Chicago' },
      { team_name: 'Locus', time_zone: 'UTC' },
      { team_name: 'Old Harbour', time_zone: 'America/New_York' },
    ]);
    const read = await call<ManagedTeam>(stack.api, 'GET', `${base}/${old.id}`, { token: owner });
    expect(read.body.timeZone).toBe('America/New_York');
  });

  it('lets a team admin set their own team’s zone alone; audited; nobody else', async () => {
    const own = await call<ManagedTeam>(stack.api, 'PATCH', `${base}/${demoTeamId}`, {
      token: teamAdmin,
      body: { timeZone: 'America/Phoenix' },
    });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({
      id: demoTeamId,
      teamName: 'Demo County 911',
      timeZone: 'America/Phoenix',
    });
    const audit = await auditRows('team.updated', demoTeamId);
    expect(audit.map((row) => row.detail)).toEqual([{ timeZone: 'America/Phoenix' }]);
    expect(audit[0]!.actor_user_id).toBe(teamAdminId);
    // The metrics cut days in it from now on.
    const metrics = await call<{ timeZone: string }>(
      stack.api,
      'GET',
      `/api/v1/login/get-total-logins/${demoTeamId}/2025-01-01/2025-01-01`,
      { token: teamAdmin },
    );
    expect(metrics.body.timeZone).toBe('America/Phoenix');

    // With anything only Locus changes, nothing is changed.
    const mixed = await call<ErrorAnswer>(stack.api, 'PATCH', `${base}/${demoTeamId}`, {
      token: teamAdmin,
      body: { timeZone: 'America/Chicago', teamName: 'Demo County' },
    });
    expect(mixed.status).toBe(403);
    const byDispatcher = await call<ErrorAnswer>(stack.api, 'PATCH', `${base}/${demoTeamId}`, {
      token: dispatcher,
      body: { timeZone: 'America/Chicago' },
    });
    expect(byDispatcher.status).toBe(403);
    const otherTeam = await call<ErrorAnswer>(stack.api, 'PATCH', `${base}/${demoTeamId}`, {
      token: neighbourAdmin,
      body: { timeZone: 'America/Chicago' },
    });
    expect(otherTeam.status).toBe(404);
    const bad = await call<ErrorAnswer>(stack.api, 'PATCH', `${base}/${demoTeamId}`, {
      token: teamAdmin,
      body: { timeZone: 'Central Time' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.issues?.[0]?.path).toBe('timeZone');
    const stored = await stack.database.db
      .selectFrom('teams')
      .select(['team_name', 'time_zone'])
      .where('id', '=', demoTeamId)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ team_name: 'Demo County 911', time_zone: 'America/Phoenix' });

    // Back to the seed's zone, for the tests that follow.
    const back = await call<ManagedTeam>(stack.api, 'PATCH', `${base}/${demoTeamId}`, {
      token: teamAdmin,
      body: { timeZone: 'America/Chicago' },
    });
    expect(back.body.timeZone).toBe('America/Chicago');
  });
});

describe('GET /api/v1/teams/:id', () => {
  it('answers a team admin their own team, 404 for another, 403 for a dispatcher', async () => {
    const own = await call<ManagedTeam>(stack.api, 'GET', `${base}/${demoTeamId}`, {
      token: teamAdmin,
    });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: demoTeamId, teamName: 'Demo County 911' });
    expect(
      (await call(stack.api, 'GET', `${base}/${demoTeamId}`, { token: neighbourAdmin })).status,
    ).toBe(404);
    expect(
      (await call(stack.api, 'GET', `${base}/${demoTeamId}`, { token: dispatcher })).status,
    ).toBe(403);
    expect(
      (
        await call(stack.api, 'GET', `${base}/00000000-0000-4000-8000-000000000000`, {
          token: owner,
        })
      ).status,
    ).toBe(404);
    expect((await call(stack.api, 'GET', `${base}/not-a-uuid`, { token: owner })).status).toBe(400);
  });
});

describe('custom content', () => {
  const header = [{ name: 'CAD', link: 'https://cad.demo-county.test/' }];
  const dropdown = [
    { name: 'Shift roster', link: 'https://roster.demo-county.test/week' },
    { name: 'Policies', link: 'https://intranet.demo-county.test/policies' },
  ];

  it('lets the team admin save links that members then read, and the current user carries', async () => {
    const saved = await call<{ customContent: unknown }>(
      stack.api,
      'PATCH',
      `${base}/editCustomContent/${demoTeamId}`,
      { token: teamAdmin, body: links(header, dropdown) },
    );
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual(links(header, dropdown));
    const read = await call(stack.api, 'GET', `${base}/getCustomContent/${demoTeamId}`, {
      token: dispatcher,
    });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(links(header, dropdown));
    const teams = await call<{ customContent: unknown }[]>(
      stack.api,
      'GET',
      `/api/v1/users/${dispatcherId}/teams`,
      { token: dispatcher },
    );
    expect(teams.body[0]!.customContent).toEqual(links(header, dropdown).customContent);
    expect(await auditRows('team.custom-content', demoTeamId)).toHaveLength(1);
  });

  it('accepts only https links, naming the field, and saves nothing otherwise', async () => {
    const before = await call(stack.api, 'GET', `${base}/getCustomContent/${demoTeamId}`, {
      token: teamAdmin,
    });
    for (const [bad, path] of [
      [
        links([{ name: 'Plain', link: 'http://cad.demo-county.test/' }]),
        'customContent.links.header.0.link',
      ],
      [
        links([], [{ name: 'Script', link: 'javascript:alert(1)' }]),
        'customContent.links.headerDropdown.0.link',
      ],
      [links([{ name: '', link: 'https://ok.test/' }]), 'customContent.links.header.0.name'],
      [
        links([{ name: 'x'.repeat(61), link: 'https://ok.test/' }]),
        'customContent.links.header.0.name',
      ],
      [
        links(
          Array.from({ length: 11 }, (_, n) => ({ name: `L${n}`, link: `https://l${n}.test/` })),
        ),
        'customContent.links.header',
      ],
    ] as const) {
      const answer = await call<ErrorAnswer>(
        stack.api,
        'PATCH',
        `${base}/editCustomContent/${demoTeamId}`,
        { token: teamAdmin, body: bad },
      );
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe('validation-failed');
      expect(answer.body.issues?.map((issue) => issue.path)).toContain(path);
    }
    const after = await call(stack.api, 'GET', `${base}/getCustomContent/${demoTeamId}`, {
      token: teamAdmin,
    });
    expect(after.body).toEqual(before.body);
  });

  it('is hidden from other teams (404) and not editable by dispatchers (403)', async () => {
    expect(
      (
        await call(stack.api, 'GET', `${base}/getCustomContent/${demoTeamId}`, {
          token: neighbourAdmin,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await call(stack.api, 'PATCH', `${base}/editCustomContent/${demoTeamId}`, {
          token: neighbourAdmin,
          body: links([]),
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await call(stack.api, 'PATCH', `${base}/editCustomContent/${demoTeamId}`, {
          token: dispatcher,
          body: links([]),
        })
      ).status,
    ).toBe(403);
    // The owner edits any team's links.
    const neighbour = await call(
      stack.api,
      'PATCH',
      `${base}/editCustomContent/${neighbourTeamId}`,
      {
        token: owner,
        body: links([{ name: 'Help', link: 'https://help.neighbour.test/' }]),
      },
    );
    expect(neighbour.status).toBe(200);
  });
});

describe('agencies', () => {
  it('lets the team admin add and remove agencies, which members read', async () => {
    const [first, second] = agencies as [Psap, Psap];
    const added = await call<Psap[]>(stack.api, 'POST', `${base}/${demoTeamId}/psap/${first.id}`, {
      token: teamAdmin,
    });
    expect(added.status).toBe(200);
    expect(added.body).toEqual([first]);
    const again = await call<Psap[]>(stack.api, 'POST', `${base}/${demoTeamId}/psap/${first.id}`, {
      token: teamAdmin,
    });
    expect(again.body).toEqual([first]);
    await call(stack.api, 'POST', `${base}/${demoTeamId}/psap/${second.id}`, { token: owner });
    const listed = await call<Psap[]>(stack.api, 'GET', `${base}/${demoTeamId}/psap`, {
      token: dispatcher,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.map((psap) => psap.id).sort()).toEqual([first.id, second.id].sort());
    expect(await auditRows('team.agency-added', demoTeamId)).toHaveLength(2);

    const removed = await call<Psap[]>(
      stack.api,
      'DELETE',
      `${base}/${demoTeamId}/psap?psapIds=${first.id},999999`,
      { token: teamAdmin },
    );
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual([second]);
    const audit = await auditRows('team.agencies-removed', demoTeamId);
    expect(audit).toHaveLength(1);
    expect(audit[0]!.detail).toEqual({ psapIds: [String(first.id)] });
  });

  it('answers 404 for an unknown agency and 400 for bad ids', async () => {
    const unknown = await call<ErrorAnswer>(
      stack.api,
      'POST',
      `${base}/${demoTeamId}/psap/999999`,
      {
        token: teamAdmin,
      },
    );
    expect(unknown.status).toBe(404);
    expect(
      (
        await call(stack.api, 'DELETE', `${base}/${demoTeamId}/psap?psapIds=abc`, {
          token: teamAdmin,
        })
      ).status,
    ).toBe(400);
    expect(
      (await call(stack.api, 'DELETE', `${base}/${demoTeamId}/psap`, { token: teamAdmin })).status,
    ).toBe(400);
  });

  it('hides a team’s agencies from other teams (404) and refuses dispatchers’ changes (403)', async () => {
    const [first] = agencies as [Psap];
    const before = await call<Psap[]>(stack.api, 'GET', `${base}/${demoTeamId}/psap`, {
      token: teamAdmin,
    });
    for (const [method, path] of [
      ['GET', `${base}/${demoTeamId}/psap`],
      ['POST', `${base}/${demoTeamId}/psap/${first.id}`],
      ['DELETE', `${base}/${demoTeamId}/psap?psapIds=${before.body.map((p) => p.id).join(',')}`],
    ] as const) {
      expect((await call(stack.api, method, path, { token: neighbourAdmin })).status).toBe(404);
    }
    for (const [method, path] of [
      ['POST', `${base}/${demoTeamId}/psap/${first.id}`],
      ['DELETE', `${base}/${demoTeamId}/psap?psapIds=${before.body.map((p) => p.id).join(',')}`],
    ] as const) {
      expect((await call(stack.api, method, path, { token: dispatcher })).status).toBe(403);
    }
    const after = await call<Psap[]>(stack.api, 'GET', `${base}/${demoTeamId}/psap`, {
      token: teamAdmin,
    });
    expect(after.body).toEqual(before.body);
  });
});

describe('GET /api/v1/teams/get-user-team/:id', () => {
  it('answers your own first active team, and the team of a user you administer', async () => {
    const own = await call<{ id: string; role: string; teamName: string }>(
      stack.api,
      'GET',
      `${base}/get-user-team/${dispatcherId}`,
      { token: dispatcher },
    );
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: demoTeamId, teamName: 'Demo County 911', role: 'member' });
    const administered = await call<{ id: string; role: string }>(
      stack.api,
      'GET',
      `${base}/get-user-team/${dispatcherId}`,
      { token: teamAdmin },
    );
    expect(administered.body).toMatchObject({ id: demoTeamId, role: 'member' });
    const byOwner = await call<{ id: string }>(
      stack.api,
      'GET',
      `${base}/get-user-team/${teamAdminId}`,
      { token: owner },
    );
    expect(byOwner.body).toMatchObject({ id: demoTeamId });
  });

  it('answers 404 for a user of another team, and to a dispatcher asking about a colleague', async () => {
    expect(
      (
        await call(stack.api, 'GET', `${base}/get-user-team/${dispatcherId}`, {
          token: neighbourAdmin,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await call(stack.api, 'GET', `${base}/get-user-team/${neighbourDispatcherId}`, {
          token: teamAdmin,
        })
      ).status,
    ).toBe(404);
    expect(
      (await call(stack.api, 'GET', `${base}/get-user-team/${teamAdminId}`, { token: dispatcher }))
        .status,
    ).toBe(404);
  });
});

describe('GET /api/v1/teams/checkPermissionLevel/:teamName/premiere|enterprise', () => {
  it('answers whether your team has the level', async () => {
    const check = async (token: string, name: string, level: string) =>
      call<{ hasPermission: boolean }>(
        stack.api,
        'GET',
        `${base}/checkPermissionLevel/${encodeURIComponent(name)}/${level}`,
        { token },
      );
    expect((await check(dispatcher, 'Demo County 911', 'premiere')).body).toEqual({
      hasPermission: true,
    });
    expect((await check(dispatcher, 'demo county 911', 'enterprise')).body).toEqual({
      hasPermission: true,
    });
    expect((await check(neighbourAdmin, 'Neighbouring County', 'premiere')).body).toEqual({
      hasPermission: false,
    });
    expect((await check(neighbourAdmin, 'Neighbouring County', 'enterprise')).body).toEqual({
      hasPermission: false,
    });
    // A platform admin asks about any team.
    expect((await check(owner, 'Neighbouring County', 'premiere')).status).toBe(200);
    // Another team's name is not found, for every level.
    for (const level of ['premiere', 'enterprise']) {
      const other = await check(neighbourAdmin, 'Demo County 911', level);
      expect(other.status).toBe(404);
      expect(other.body).not.toHaveProperty('hasPermission');
    }
    expect((await check(owner, 'No Such Team', 'premiere')).status).toBe(404);
    expect((await check(owner, 'Demo County 911', 'gold')).status).toBe(404);
  });
});
