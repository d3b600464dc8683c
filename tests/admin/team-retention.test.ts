import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, startAuthStack, type AuthStack } from '../auth/support';

/**
 * Issue 15: a team's own retention (`PATCH /api/v1/teams/:id { retentionDays }`), set by its
 * admins and platform admins like its time zone; 1–3650 whole days, or null for the
 * deployment's default. The purge that reads it: tests/worker/retention-purge.test.ts.
 */
interface TeamAnswer {
  id: string;
  retentionDays: number | null;
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
let teamAdminId: string;

const teamPath = (id: string) => `/api/v1/teams/${id}`;

async function teamIdByName(name: string): Promise<string> {
  const row = await stack.database.db
    .selectFrom('teams')
    .select('id')
    .where('team_name', '=', name)
    .executeTakeFirstOrThrow();
  return row.id;
}

async function storedRetention(teamId: string): Promise<number | null> {
  const row = await stack.database.db
    .selectFrom('teams')
    .select('retention_days')
    .where('id', '=', teamId)
    .executeTakeFirstOrThrow();
  return row.retention_days;
}

async function retentionAudit(teamId: string) {
  const rows = await stack.database.db
    .selectFrom('audit_log')
    .select(['actor_user_id', 'detail'])
    .where('action', '=', 'team.updated')
    .where('team_id', '=', teamId)
    .orderBy('id')
    .execute();
  return rows.filter((row) => 'retentionDays' in (row.detail as object));
}

beforeAll(async () => {
  stack = await startAuthStack({ worker: false });
  [owner, teamAdmin, dispatcher, neighbourAdmin] = await Promise.all([
    signIn(stack.api, 'owner@locus.test'),
    signIn(stack.api, 'teamadmin@demo-county.test'),
    signIn(stack.api, 'dispatcher@demo-county.test'),
    signIn(stack.api, 'teamadmin@neighbour-county.test'),
  ]);
  demoTeamId = await teamIdByName('Demo County 911');
  teamAdminId = (
    await call<{ id: string }>(stack.api, 'GET', '/api/v1/auth/current-user', {
      token: teamAdmin,
    })
  ).body.id;
});

afterAll(async () => {
  await stack?.close();
});

describe('a team’s retention (issue 15)', () => {
  it('starts at the deployment’s default (null)', async () => {
    const read = await call<TeamAnswer>(stack.api, 'GET', teamPath(demoTeamId), {
      token: teamAdmin,
    });
    expect(read.status).toBe(200);
    expect(read.body.retentionDays).toBeNull();
  });

  it('lets the team’s admin set it; audited; null goes back to the default', async () => {
    const set = await call<TeamAnswer>(stack.api, 'PATCH', teamPath(demoTeamId), {
      token: teamAdmin,
      body: { retentionDays: 30 },
    });
    expect(set.status).toBe(200);
    expect(set.body.retentionDays).toBe(30);
    const read = await call<TeamAnswer>(stack.api, 'GET', teamPath(demoTeamId), {
      token: teamAdmin,
    });
    expect(read.body.retentionDays).toBe(30);
    expect(await storedRetention(demoTeamId)).toBe(30);
    expect(await retentionAudit(demoTeamId)).toEqual([
      { actor_user_id: teamAdminId, detail: { retentionDays: 30 } },
    ]);

    // The same value again changes nothing and is not audited again.
    await call(stack.api, 'PATCH', teamPath(demoTeamId), {
      token: teamAdmin,
      body: { retentionDays: 30 },
    });
    expect(await retentionAudit(demoTeamId)).toHaveLength(1);

    const back = await call<TeamAnswer>(stack.api, 'PATCH', teamPath(demoTeamId), {
      token: teamAdmin,
      body: { retentionDays: null },
    });
    expect(back.status).toBe(200);
    expect(back.body.retentionDays).toBeNull();
    expect(await storedRetention(demoTeamId)).toBeNull();
    expect((await retentionAudit(demoTeamId)).map((row) => row.detail)).toEqual([
      { retentionDays: 30 },
      { retentionDays: null },
    ]);

    // The bounds themselves are accepted.
    for (const days of [1, 3650]) {
      const edge = await call<TeamAnswer>(stack.api, 'PATCH', teamPath(demoTeamId), {
        token: teamAdmin,
        body: { retentionDays: days },
      });
      expect(edge.status).toBe(200);
      expect(edge.body.retentionDays).toBe(days);
    }
  });

  it('refuses anything but 1–3650 whole days with 400 naming the field, writing nothing', async () => {
    await call(stack.api, 'PATCH', teamPath(demoTeamId), {
      token: teamAdmin,
      body: { retentionDays: 45 },
    });
    const auditBefore = (await retentionAudit(demoTeamId)).length;
    for (const retentionDays of [0, 3651, -5, 1.5, 'abc', '30', true]) {
      const bad = await call<ErrorAnswer>(stack.api, 'PATCH', teamPath(demoTeamId), {
        token: teamAdmin,
        body: { retentionDays, timeZone: 'America/Denver' },
      });
      expect(bad.status, JSON.stringify(retentionDays)).toBe(400);
      expect(bad.body.error).toBe('validation-failed');
      expect(typeof bad.body.message).toBe('string');
      expect(bad.body.issues?.map((issue) => issue.path)).toEqual(['retentionDays']);
    }
    // Neither the retention nor the time zone sent with it was written.
    const stored = await stack.database.db
      .selectFrom('teams')
      .select(['retention_days', 'time_zone'])
      .where('id', '=', demoTeamId)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ retention_days: 45, time_zone: 'America/Chicago' });
    expect(await retentionAudit(demoTeamId)).toHaveLength(auditBefore);
  });

  it('is refused to another team’s admin (404) and to a dispatcher (403); platform admins may', async () => {
    const otherTeam = await call<ErrorAnswer>(stack.api, 'PATCH', teamPath(demoTeamId), {
      token: neighbourAdmin,
      body: { retentionDays: 7 },
    });
    expect(otherTeam.status).toBe(404);
    expect(otherTeam.body.error).toBe('not-found');
    const byDispatcher = await call<ErrorAnswer>(stack.api, 'PATCH', teamPath(demoTeamId), {
      token: dispatcher,
      body: { retentionDays: 7 },
    });
    expect(byDispatcher.status).toBe(403);
    expect(byDispatcher.body.error).toBe('forbidden');
    expect(await storedRetention(demoTeamId)).toBe(45);

    const neighbourTeamId = await teamIdByName('Neighbouring County');
    const byOwner = await call<TeamAnswer>(stack.api, 'PATCH', teamPath(neighbourTeamId), {
      token: owner,
      body: { retentionDays: 365 },
    });
    expect(byOwner.status).toBe(200);
    expect(byOwner.body.retentionDays).toBe(365);
    // A team admin's list shows their own team's setting too.
    const list = await call<{ items: TeamAnswer[] }>(stack.api, 'GET', '/api/v1/teams', {
      token: neighbourAdmin,
    });
    expect(list.body.items.map((team) => team.retentionDays)).toEqual([365]);
  });
});
