import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, DEMO_PASSWORD, signIn, startAuthStack, type AuthStack } from './support';

let stack: AuthStack;

beforeAll(async () => {
  stack = await startAuthStack({ worker: false });
});

afterAll(async () => {
  await stack?.close();
});

/** Makes the user's sessions look idle for `minutes` (instead of waiting half an hour). */
async function idleFor(minutes: number): Promise<void> {
  await stack.database.db
    .updateTable('auth_sessions')
    .set({ last_active_at: sql<Date>`now() - make_interval(mins => ${minutes})` })
    .execute();
}

async function secondsSinceActivity(): Promise<number[]> {
  const rows = await stack.database.db
    .selectFrom('auth_sessions')
    .select(sql<number>`extract(epoch from now() - last_active_at)::float8`.as('idle'))
    .where('revoked_at', 'is', null)
    .execute();
  return rows.map((row) => row.idle);
}

async function signOutEverywhere(): Promise<void> {
  await stack.database.db
    .updateTable('auth_sessions')
    .set({ revoked_at: sql<Date>`now()` })
    .where('revoked_at', 'is', null)
    .execute();
}

describe('the idle timeout (CJIS 5.5.5)', () => {
  it('is 30 minutes by default, with a warning a minute before', async () => {
    const token = await signIn(stack.api, 'dispatcher@demo-county.test');
    const policy = await call(stack.api, 'GET', '/api/v1/auth/sessions/policy', { token });
    expect(policy.body).toEqual({
      idleTimeoutSeconds: 1800,
      idleWarningSeconds: 60,
      activityPingSeconds: 60,
    });
  });

  it('ends a session with no activity for longer: 401 session-expired, and it stays ended', async () => {
    await signOutEverywhere();
    const token = await signIn(stack.api, 'dispatcher@demo-county.test');
    await idleFor(32);
    const expired = await call(stack.api, 'GET', '/api/v1/auth/current-user', { token });
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({ error: 'session-expired' });
    const later = await call(stack.api, 'POST', '/api/v1/auth/sessions/activity', { token });
    expect(later.status).toBe(401);
    const audit = await stack.database.db
      .selectFrom('audit_log')
      .select('detail')
      .where('action', '=', 'session.revoked')
      .execute();
    expect(audit.map((row) => row.detail)).toContainEqual(
      expect.objectContaining({ reason: 'idle' }),
    );
  });

  it('counts actions and activity pings, not reads a page repeats on its own', async () => {
    await signOutEverywhere();
    const token = await signIn(stack.api, 'dispatcher@demo-county.test');
    await idleFor(20);
    // Polling the current user does not make the user active.
    expect((await call(stack.api, 'GET', '/api/v1/auth/current-user', { token })).status).toBe(200);
    expect((await secondsSinceActivity())[0]).toBeGreaterThan(19 * 60);
    // The console's ping does.
    const ping = await call(stack.api, 'POST', '/api/v1/auth/sessions/activity', { token });
    expect(ping.status).toBe(204);
    expect((await secondsSinceActivity())[0]).toBeLessThan(5);
    // So 20 more minutes later, the session still works.
    await idleFor(20);
    expect((await call(stack.api, 'GET', '/api/v1/auth/current-user', { token })).status).toBe(200);
  });

  it("follows the team's own setting, which only its admins change", async () => {
    await signOutEverywhere();
    const admin = await signIn(stack.api, 'teamadmin@demo-county.test');
    const team = await stack.database.db
      .selectFrom('teams')
      .select('id')
      .where('team_name', '=', 'Demo County 911')
      .executeTakeFirstOrThrow();
    const set = await call(stack.api, 'PATCH', `/api/v1/teams/${team.id}/security`, {
      token: admin,
      body: { idleTimeoutMinutes: 10 },
    });
    expect(set.body).toEqual({ requireMfa: false, idleTimeoutMinutes: 10 });
    // A patch with nothing in it changes nothing (it answered 500: found by tests/fuzz).
    const empty = await call(stack.api, 'PATCH', `/api/v1/teams/${team.id}/security`, {
      token: admin,
      body: {},
    });
    expect(empty).toMatchObject({
      status: 200,
      body: { requireMfa: false, idleTimeoutMinutes: 10 },
    });

    const token = await signIn(stack.api, 'dispatcher2@demo-county.test');
    const policy = await call(stack.api, 'GET', '/api/v1/auth/sessions/policy', { token });
    expect(policy.body).toMatchObject({ idleTimeoutSeconds: 600, idleWarningSeconds: 60 });
    await idleFor(12);
    const expired = await call(stack.api, 'GET', '/api/v1/auth/current-user', { token });
    expect(expired.body).toMatchObject({ error: 'session-expired' });

    // A member cannot change it.
    const member = await signIn(stack.api, 'dispatcher2@demo-county.test');
    const refused = await call(stack.api, 'PATCH', `/api/v1/teams/${team.id}/security`, {
      token: member,
      body: { idleTimeoutMinutes: 600 },
    });
    expect(refused.status).toBe(403);
    await call(stack.api, 'PATCH', `/api/v1/teams/${team.id}/security`, {
      token: await signIn(stack.api, 'teamadmin@demo-county.test'),
      body: { idleTimeoutMinutes: null },
    });
  });
});

describe("the user's sessions", () => {
  it('are listed with the current one marked, and "sign out other sessions" ends the others', async () => {
    await signOutEverywhere();
    const email = 'dispatcher@neighbour-county.test';
    const signInWith = async (userAgent: string) => {
      const answer = await call<{ token: string }>(stack.api, 'POST', '/api/v1/auth/sign-in', {
        body: { email, password: DEMO_PASSWORD },
        headers: { 'user-agent': userAgent },
      });
      return answer.body.token;
    };
    const desk = await signInWith('Console at the desk');
    const laptop = await signInWith('Laptop at home');

    const listed = await call<{ userAgent: string; current: boolean }[]>(
      stack.api,
      'GET',
      '/api/v1/auth/sessions',
      { token: desk },
    );
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(2);
    expect(listed.body).toContainEqual(
      expect.objectContaining({
        userAgent: 'Console at the desk',
        current: true,
        ipAddress: '127.0.0.1',
      }),
    );
    expect(listed.body).toContainEqual(
      expect.objectContaining({ userAgent: 'Laptop at home', current: false }),
    );

    const signedOut = await call(stack.api, 'POST', '/api/v1/auth/sessions/sign-out-others', {
      token: desk,
    });
    expect(signedOut.body).toEqual({ revoked: 1 });
    expect(
      (await call(stack.api, 'GET', '/api/v1/auth/current-user', { token: laptop })).status,
    ).toBe(401);
    expect(
      (await call(stack.api, 'GET', '/api/v1/auth/current-user', { token: desk })).status,
    ).toBe(200);
    const after = await call(stack.api, 'GET', '/api/v1/auth/sessions', { token: desk });
    expect(after.body).toHaveLength(1);
    const audit = await stack.database.db
      .selectFrom('audit_log')
      .select('detail')
      .where('action', '=', 'session.revoked')
      .execute();
    expect(audit.map((row) => row.detail)).toContainEqual(
      expect.objectContaining({ reason: 'signed-out-elsewhere' }),
    );
  });
});
