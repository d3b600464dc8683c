import { SignInLockout } from '@locus/api';
import { sessionLifetimes, signInLockout } from '@locus/contract';
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditRowsSince,
  call,
  DEMO_PASSWORD,
  lastAuditId,
  lockLiftsAt,
  signIn,
  startAuthStack,
  type AuthStack,
} from './support';

let stack: AuthStack;

beforeAll(async () => {
  stack = await startAuthStack({ worker: false });
});

afterAll(async () => {
  await stack?.close();
});

const hashOf = (token: string) => createHash('sha256').update(token).digest();

describe('signing in', () => {
  it('returns a bearer token that opens the current user', async () => {
    const answer = await call<{ token: string; expiresAt: string }>(
      stack.api,
      'POST',
      '/api/v1/auth/sign-in',
      { body: { email: 'Dispatcher@Demo-County.test', password: DEMO_PASSWORD } },
    );
    expect(answer.status).toBe(200);
    const me = await call(stack.api, 'GET', '/api/v1/auth/current-user', {
      token: answer.body.token,
    });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      id: expect.any(String),
      firstName: 'Dana',
      lastName: 'Dispatcher',
      email: 'dispatcher@demo-county.test',
      phoneNumber: null,
      psapId: expect.any(Number),
      companyName: 'Demo County 911',
      isAdmin: false,
      isTeamAdmin: false,
      // The documented demo accounts have used Locus before (seed): no tour for them.
      hasSeenWalkthrough: true,
      emailConfirmed: true,
      uscgApproval: null,
      registrationComplete: true,
      colorScheme: 'auto',
      mfaEnabled: false,
      mfaRequired: false,
    });
  });

  it('keeps a session 30 days with "stay signed in" (the default) and 12 hours without', async () => {
    const lifetime = async (staySignedIn?: boolean) => {
      const before = Date.now();
      const answer = await call<{ expiresAt: string }>(stack.api, 'POST', '/api/v1/auth/sign-in', {
        body: { email: 'dispatcher2@demo-county.test', password: DEMO_PASSWORD, staySignedIn },
      });
      return (new Date(answer.body.expiresAt).getTime() - before) / 1000;
    };
    expect(await lifetime()).toBeCloseTo(sessionLifetimes.staySignedInSeconds, -2);
    expect(await lifetime(true)).toBeCloseTo(sessionLifetimes.staySignedInSeconds, -2);
    expect(await lifetime(false)).toBeCloseTo(sessionLifetimes.shortSeconds, -2);
  });

  it('answers every failure with 401 invalid-credentials and the same message', async () => {
    const wrongPassword = await call(stack.api, 'POST', '/api/v1/auth/sign-in', {
      body: { email: 'teamadmin@demo-county.test', password: 'not the password' },
    });
    const unknownAddress = await call(stack.api, 'POST', '/api/v1/auth/sign-in', {
      body: { email: 'nobody@nowhere.test', password: DEMO_PASSWORD },
    });
    for (const answer of [wrongPassword, unknownAddress]) {
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({
        error: 'invalid-credentials',
        message: 'Invalid email or password',
      });
    }
  });

  it('refuses a malformed request with 400 validation-failed', async () => {
    const answer = await call<{ error: string; issues: { path: string }[] }>(
      stack.api,
      'POST',
      '/api/v1/auth/sign-in',
      { body: { email: 'not-an-email', password: '' } },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('validation-failed');
    expect(answer.body.issues.map((issue) => issue.path).sort()).toEqual(['email', 'password']);
  });
});

describe('the lockout', () => {
  it('locks an address after five failures, even for the right password, and audits it', async () => {
    const email = 'dispatcher@neighbour-county.test';
    const attempt = (password: string) =>
      call(stack.api, 'POST', '/api/v1/auth/sign-in', { body: { email, password } });
    for (let failure = 1; failure <= 4; failure += 1) {
      expect((await attempt(`wrong-${failure}`)).body).toMatchObject({
        error: 'invalid-credentials',
      });
    }
    const fifth = await attempt('wrong-5');
    expect(fifth.status).toBe(401);
    expect(fifth.body).toMatchObject({ error: 'account-locked' });
    const right = await attempt(DEMO_PASSWORD);
    expect(right.status).toBe(401);
    expect(right.body).toEqual({ error: 'account-locked', message: expect.stringMatching(/10/) });

    const audit = await stack.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'sign-in.locked')
      .where('subject', '=', email)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.detail).toMatchObject({ failures: 5, lockSeconds: 600 });

    // Ten minutes later (the lock expiring in Redis), the right password works again.
    const keys = await lockKeys(email);
    expect(keys.length).toBeGreaterThan(0);
    await stack.api.app.locus.redis.del(...keys);
    expect((await attempt(DEMO_PASSWORD)).status).toBe(200);
  });

  it('locks unknown addresses the same way, so a lock reveals nothing', async () => {
    const email = 'ghost@nowhere.test';
    let last;
    for (let failure = 1; failure <= 5; failure += 1) {
      last = await call(stack.api, 'POST', '/api/v1/auth/sign-in', {
        body: { email, password: 'whatever' },
      });
    }
    expect(last?.body).toMatchObject({ error: 'account-locked' });
  });

  it('audits each attempt on a locked account as one failed sign-in, without counting it or moving the lock', async () => {
    const email = 'teamadmin@neighbour-county.test';
    const attempt = (password: string) =>
      call(stack.api, 'POST', '/api/v1/auth/sign-in', { body: { email, password } });
    for (let failure = 1; failure <= signInLockout.maxFailures; failure += 1)
      await attempt(`wrong-${failure}`);
    const liftsAt = await lockLiftsAt(stack, email);
    expect(liftsAt).toBeGreaterThan(Date.now());
    const { id: userId } = await stack.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const { id: teamId } = await stack.database.db
      .selectFrom('teams')
      .select('id')
      .where('team_name', '=', 'Neighbouring County')
      .executeTakeFirstOrThrow();
    const lockout = new SignInLockout(stack.api.app.locus.redis, stack.redisPrefix);
    // The address the API saw the attempts come from (the loopback, as it reports it).
    const { ip } = await stack.database.db
      .selectFrom('audit_log')
      .select('ip')
      .where('action', '=', 'sign-in.locked')
      .where('subject', '=', email)
      .executeTakeFirstOrThrow();
    if (ip === null) throw new Error('the lock was audited without an address');

    // The right password and a wrong one: each refused, each exactly one row.
    for (const password of [DEMO_PASSWORD, 'wrong-again']) {
      const since = await lastAuditId(stack);
      const addressFailures = await lockout.addresses.failures(ip);
      const refused = await attempt(password);
      expect(refused.body).toMatchObject({ error: 'account-locked' });
      expect(await auditRowsSince(stack, since, [email, userId])).toEqual([
        {
          action: 'sign-in.failed',
          actor_user_id: null,
          subject: email,
          team_id: teamId,
          ip,
          detail: { ip, userId, refused: 'account-locked' },
        },
      ]);
      // Not counted against the address either.
      expect(await lockout.addresses.failures(ip)).toBe(addressFailures);
    }
    // The lock lifts exactly when it was set to.
    expect(await lockLiftsAt(stack, email)).toBe(liftsAt);
  });

  it('audits an attempt on a locked unknown address with no account and no team', async () => {
    const email = 'ghost-locked@nowhere.test';
    for (let failure = 1; failure <= signInLockout.maxFailures; failure += 1) {
      await call(stack.api, 'POST', '/api/v1/auth/sign-in', {
        body: { email, password: `wrong-${failure}` },
      });
    }
    const since = await lastAuditId(stack);
    const refused = await call(stack.api, 'POST', '/api/v1/auth/sign-in', {
      body: { email, password: 'whatever' },
    });
    expect(refused.body).toMatchObject({ error: 'account-locked' });
    expect(await auditRowsSince(stack, since, [email])).toEqual([
      {
        action: 'sign-in.failed',
        actor_user_id: null,
        subject: email,
        team_id: null,
        ip: expect.any(String),
        detail: { ip: expect.any(String), userId: null, refused: 'account-locked' },
      },
    ]);
  });

  it('forgets earlier failures after a successful sign-in', async () => {
    // An account no other test in this file fails to sign in to.
    const email = 'owner@locus.test';
    for (let round = 0; round < 2; round += 1) {
      for (let failure = 1; failure <= 4; failure += 1) {
        await call(stack.api, 'POST', '/api/v1/auth/sign-in', {
          body: { email, password: 'wrong' },
        });
      }
      expect(await signIn(stack.api, email)).toEqual(expect.any(String));
    }
  });
});

async function lockKeys(email: string): Promise<string[]> {
  const id = createHash('sha256').update(email).digest('hex');
  return stack.api.app.locus.redis.keys(`${stack.redisPrefix}sign-in:{${id}}:*`);
}

describe('bearer tokens', () => {
  it('are required: no token is 401 unauthorized', async () => {
    const answer = await call(stack.api, 'GET', '/api/v1/auth/current-user');
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ error: 'unauthorized', message: expect.any(String) });
  });

  it('are refused when unknown or malformed', async () => {
    for (const token of ['A'.repeat(43), 'short', 'with spaces in it']) {
      const answer = await call(stack.api, 'GET', '/api/v1/auth/current-user', { token });
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ error: 'unauthorized' });
    }
    const basic = await call(stack.api, 'GET', '/api/v1/auth/current-user', {
      headers: { authorization: 'Basic dXNlcjpwYXNz' },
    });
    expect(basic.body).toMatchObject({ error: 'unauthorized' });
  });

  it('stop working after sign-out (revoked on the server): 401 unauthorized', async () => {
    const token = await signIn(stack.api, 'dispatcher@demo-county.test');
    const other = await signIn(stack.api, 'dispatcher@demo-county.test');
    const out = await call(stack.api, 'POST', '/api/v1/auth/sign-out', { token });
    expect(out.status).toBe(204);
    const after = await call(stack.api, 'GET', '/api/v1/auth/current-user', { token });
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ error: 'unauthorized' });
    // Only that session ended.
    expect(
      (await call(stack.api, 'GET', '/api/v1/auth/current-user', { token: other })).status,
    ).toBe(200);
    const audit = await stack.database.db
      .selectFrom('audit_log')
      .select('action')
      .where('action', '=', 'sign-out')
      .execute();
    expect(audit.length).toBeGreaterThan(0);
  });

  it('answer 401 session-expired once expired', async () => {
    const token = await signIn(stack.api, 'dispatcher2@demo-county.test', DEMO_PASSWORD, false);
    await stack.database.db
      .updateTable('auth_sessions')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('token_hash', '=', hashOf(token))
      .execute();
    const answer = await call(stack.api, 'GET', '/api/v1/auth/current-user', { token });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ error: 'session-expired', message: expect.any(String) });
  });

  it('do not get in the way of public routes', async () => {
    const answer = await call(stack.api, 'GET', '/api/v1/config', { token: 'A'.repeat(43) });
    expect(answer.status).toBe(200);
  });
});
