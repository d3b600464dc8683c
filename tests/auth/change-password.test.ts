import { closeCodes, signInLockout } from '@locus/contract';
import { verify } from '@node-rs/argon2';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignInLockout } from '../../services/api/src/modules/auth/lockout';
import { testEnvironment } from '../support/environment';
import { TestSocket } from '../support/sockets';
import { startStream } from '../tracking/support';
import {
  auditRowsSince,
  call,
  DEMO_PASSWORD,
  lastAuditId,
  signIn,
  startAuthStack,
  type Answer,
  type AuthStack,
} from './support';

let stack: AuthStack;

beforeAll(async () => {
  stack = await startAuthStack({ worker: false });
});

afterAll(async () => {
  await stack?.close();
});

const path = '/api/v1/auth/change-password';
const strongPassword = 'Lantern-orchard-sleet-42';

function changePassword(token: string, currentPassword: string, newPassword: string) {
  return call(stack.api, 'POST', path, { token, body: { currentPassword, newPassword } });
}

async function passwordHashOf(email: string): Promise<string> {
  const row = await stack.database.db
    .selectFrom('users')
    .select('password_hash')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return row.password_hash;
}

async function signInStatus(email: string, password: string) {
  const answer = await call(stack.api, 'POST', '/api/v1/auth/sign-in', {
    body: { email, password },
  });
  return { status: answer.status, error: (answer.body as { error?: string }).error };
}

async function auditActions(email: string) {
  const { id } = await stack.database.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return stack.database.db
    .selectFrom('audit_log')
    .select(['action', 'team_id', 'ip', 'detail'])
    .where('subject', 'in', [id, email])
    .orderBy('id')
    .execute();
}

describe('POST /api/v1/auth/change-password', () => {
  it('refuses a wrong current password (invalid-credentials), changes nothing and counts it toward the lockout, audited as no sign-in', async () => {
    const email = 'dispatcher2@demo-county.test';
    const token = await signIn(stack.api, email);
    const before = await passwordHashOf(email);
    const since = await lastAuditId(stack);

    const wrong = await changePassword(token, 'not-my-password', strongPassword);
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({
      error: 'invalid-credentials',
      message: 'Your current password is not right.',
    });
    // Counted toward the lock like a failed sign-in (before a sign-in below clears the count)...
    const lockout = new SignInLockout(stack.api.app.locus.redis, stack.redisPrefix);
    expect(await lockout.failures(email)).toBe(1);
    // ...but audited as what it was: the signed-in user's, on their team's trail, not a sign-in.
    const { id: userId } = await stack.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(await auditRowsSince(stack, since, [userId, email])).toEqual([
      {
        action: 'password-change.failed',
        actor_user_id: userId,
        subject: userId,
        team_id: expect.any(String),
        ip: expect.any(String),
        detail: { ip: expect.any(String) },
      },
    ]);
    // Nothing changed: same hash, the old password signs in, the new one does not.
    expect(await passwordHashOf(email)).toBe(before);
    expect((await signInStatus(email, DEMO_PASSWORD)).status).toBe(200);
    expect((await signInStatus(email, strongPassword)).status).toBe(401);
    // The session that asked is still signed in (a wrong password is not a revoked session).
    expect((await call(stack.api, 'GET', '/api/v1/auth/current-user', { token })).status).toBe(200);
    const actions = (await auditActions(email)).map((row) => row.action);
    expect(actions).toContain('password-change.failed');
    expect(actions).not.toContain('password.changed');
  });

  it('locks the account after as many wrong current passwords as failed sign-ins would', async () => {
    const email = 'aisha.khan@demo-county.test';
    const token = await signIn(stack.api, email);
    const since = await lastAuditId(stack);
    const answers: (string | undefined)[] = [];
    for (let attempt = 0; attempt < signInLockout.maxFailures; attempt += 1) {
      const answer = await changePassword(token, `wrong-${attempt}`, strongPassword);
      expect(answer.status).toBe(401);
      answers.push((answer.body as { error: string }).error);
    }
    expect(answers.at(-1)).toBe('account-locked');
    expect(new Set(answers.slice(0, -1))).toEqual(new Set(['invalid-credentials']));
    const { id: userId } = await stack.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const actionsSince = async () =>
      (await auditRowsSince(stack, since, [userId, email])).map((row) => row.action);
    // Each wrong one audited as a failed password change, none as a failed sign-in; then the lock.
    expect(await actionsSince()).toEqual([
      ...Array<string>(signInLockout.maxFailures).fill('password-change.failed'),
      'sign-in.locked',
    ]);
    // Locked everywhere: the right password neither signs in nor changes the password now.
    expect(await signInStatus(email, DEMO_PASSWORD)).toEqual({
      status: 401,
      error: 'account-locked',
    });
    // That sign-in attempt was a failed sign-in, refused for the lock.
    expect((await actionsSince()).at(-1)).toBe('sign-in.failed');
    const locked = await changePassword(token, DEMO_PASSWORD, strongPassword);
    expect(locked.status).toBe(401);
    expect(locked.body).toMatchObject({ error: 'account-locked' });
    expect(await verify(await passwordHashOf(email), DEMO_PASSWORD)).toBe(true);
  });

  it('refuses a weak or common new password naming newPassword, and changes nothing', async () => {
    const email = 'dispatcher@neighbour-county.test';
    const token = await signIn(stack.api, email);
    const before = await passwordHashOf(email);

    const short = await changePassword(token, DEMO_PASSWORD, 'short');
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({
      error: 'validation-failed',
      issues: [expect.objectContaining({ path: 'newPassword' })],
    });

    const common = await changePassword(token, DEMO_PASSWORD, 'Password123');
    expect(common.status).toBe(400);
    expect(common.body).toMatchObject({
      error: 'validation-failed',
      issues: [{ path: 'newPassword', message: 'This password is too common. Choose another.' }],
    });

    const same = await changePassword(token, DEMO_PASSWORD, DEMO_PASSWORD);
    expect(same.status).toBe(400);
    expect(same.body).toMatchObject({
      error: 'validation-failed',
      issues: [{ path: 'newPassword', message: expect.stringMatching(/different/i) }],
    });

    const missing = await call(stack.api, 'POST', path, {
      token,
      body: { newPassword: strongPassword },
    });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      error: 'validation-failed',
      issues: [expect.objectContaining({ path: 'currentPassword' })],
    });

    expect(await passwordHashOf(email)).toBe(before);
    expect((await signInStatus(email, DEMO_PASSWORD)).status).toBe(200);
  });

  it('needs a signed-in user', async () => {
    const answer = await call(stack.api, 'POST', path, {
      body: { currentPassword: DEMO_PASSWORD, newPassword: strongPassword },
    });
    expect(answer.status).toBe(401);
  });

  it('changes the password: the old one stops working, this session stays, the others and their sockets end', async () => {
    const email = 'dispatcher@demo-county.test';
    const here = await signIn(stack.api, email);
    const elsewhere = await signIn(stack.api, email);
    // Each console has a dispatcher socket open on a session of its own.
    const ownRequest = await startStream(stack.api, here, '+12025550163');
    const otherRequest = await startStream(stack.api, elsewhere, '+12025550164');
    const join = async (request: { uuid: string; token: string }) => {
      const socket = await TestSocket.open(
        `${stack.api.wsUrl}/api/v1/socket?token=${request.token}`,
      );
      socket.send('join', { sessionId: request.uuid });
      await socket.event('joined');
      return socket;
    };
    const ownSocket = await join(ownRequest);
    const otherSocket = await join(otherRequest);

    const changed = await changePassword(here, DEMO_PASSWORD, strongPassword);
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({
      message: 'Your password has been changed, and your other sessions have been signed out.',
    });

    // The old password no longer signs in; the new one does.
    expect(await signInStatus(email, DEMO_PASSWORD)).toEqual({
      status: 401,
      error: 'invalid-credentials',
    });
    expect((await signInStatus(email, strongPassword)).status).toBe(200);
    // This session still works; the other answers 401.
    expect(
      (await call(stack.api, 'GET', '/api/v1/auth/current-user', { token: here })).status,
    ).toBe(200);
    const other = await call(stack.api, 'GET', '/api/v1/auth/current-user', { token: elsewhere });
    expect(other.status).toBe(401);
    expect(other.body).toMatchObject({ error: 'unauthorized' });

    // The other console's socket is closed and told why; this console's stays open.
    expect(await otherSocket.closed()).toBe(closeCodes.invalidToken);
    expect(otherSocket.of('error').at(-1)!.data.message).toMatch(/password was changed/i);
    expect(ownSocket.closeCode).toBeUndefined();
    const rejoined = await join(ownRequest);
    expect(rejoined.closeCode).toBeUndefined();
    await rejoined.close();
    await ownSocket.close();

    // Audited once, on the user's team, from the client's address.
    const audit = (await auditActions(email)).filter((row) => row.action === 'password.changed');
    expect(audit).toHaveLength(1);
    expect(audit[0]!.team_id).not.toBeNull();
    expect(audit[0]!.ip).toBeTruthy();
    expect(audit[0]!.detail).toMatchObject({ sessionsEnded: 1 });
  });
});

describe('the address throttle, as at sign-in', () => {
  let throttled: AuthStack;

  beforeAll(async () => {
    // The production defaults: three free failures per address and account.
    throttled = await startAuthStack({
      worker: false,
      env: { SIGN_IN_FAILURES_PER_ADDRESS: '3' },
    });
  });

  afterAll(async () => {
    await throttled?.close();
  });

  it('holds back an address after its free failures (429 with Retry-After) without locking the account', async () => {
    const email = 'dispatcher@demo-county.test';
    const token = await signIn(throttled.api, email);
    const statuses: number[] = [];
    let held: Answer | undefined;
    for (let attempt = 0; attempt < signInLockout.maxFailures && !held; attempt += 1) {
      const answer = await call(throttled.api, 'POST', path, {
        token,
        body: { currentPassword: `wrong-${attempt}`, newPassword: strongPassword },
      });
      statuses.push(answer.status);
      if (answer.status === 429) held = answer;
    }
    expect(held, `answers: ${statuses.join(', ')}`).toBeDefined();
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(held!.body).toMatchObject({ error: 'rate-limited' });
    expect(Number(held!.headers.get('retry-after'))).toBeGreaterThan(0);
    // One address alone never locks the account (its owner can still sign in elsewhere).
    const redis = new Redis(testEnvironment.redisUrl(), { maxRetriesPerRequest: null });
    try {
      expect(await new SignInLockout(redis, throttled.redisPrefix).isLocked(email)).toBe(false);
    } finally {
      await redis.quit();
    }
  });
});
