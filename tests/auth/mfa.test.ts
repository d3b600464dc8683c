import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInLockout } from '@locus/contract';
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

interface Challenge {
  mfaRequired: true;
  challenge: string;
  methods: string[];
}

/**
 * The code an authenticator app shows `steps` 30-second steps from now. Each code works once, so
 * a test that needs a fresh one asks for the next step (the API accepts one step either side).
 */
function codeFor(secret: string, steps = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
}

async function passwordStep(email: string, password = DEMO_PASSWORD) {
  return call<Challenge & { token?: string }>(stack.api, 'POST', '/api/v1/auth/sign-in', {
    body: { email, password },
  });
}

function codeStep(challenge: string, code: string, method: 'totp' | 'recovery' = 'totp') {
  return call<{ token: string; expiresAt: string }>(stack.api, 'POST', '/api/v1/auth/sign-in/mfa', {
    body: { challenge, code, method },
  });
}

/** Enrols an authenticator app for the user; its secret and the recovery codes. */
async function enrol(email: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const token = await signIn(stack.api, email);
  const started = await call<{ secret: string; uri: string }>(
    stack.api,
    'POST',
    '/api/v1/auth/mfa/totp',
    { token, body: { password: DEMO_PASSWORD } },
  );
  expect(started.status).toBe(200);
  const confirmed = await call<{ recoveryCodes: string[] }>(
    stack.api,
    'POST',
    '/api/v1/auth/mfa/totp/confirm',
    { token, body: { code: await codeFor(started.body.secret) } },
  );
  expect(confirmed.status).toBe(200);
  return { secret: started.body.secret, recoveryCodes: confirmed.body.recoveryCodes };
}

async function auditActions(subject: string): Promise<string[]> {
  const rows = await stack.database.db
    .selectFrom('audit_log')
    .select('action')
    .where('subject', '=', subject)
    .orderBy('id')
    .execute();
  return rows.map((row) => row.action);
}

async function userIdOf(email: string): Promise<string> {
  const row = await stack.database.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * A signed-in user's wrong password or code for a change of second factor, as many as lock the
 * account: each audited as 'mfa-change.failed' (their own action, not a failed sign-in, so the
 * login metrics do not count them), then the lock.
 */
async function expectMfaChangeFailures(email: string, since: string, change: string) {
  const userId = await userIdOf(email);
  const rows = await auditRowsSince(stack, since, [email, userId]);
  expect(rows.map((row) => row.action)).toEqual([
    ...Array<string>(signInLockout.maxFailures).fill('mfa-change.failed'),
    'sign-in.locked',
  ]);
  expect(rows[0]).toMatchObject({
    actor_user_id: userId,
    subject: userId,
    detail: { change, ip: expect.any(String) },
  });
}

/** The first test's enrolment, which the removal test undoes. */
const enrolled = { token: '', secret: '' };

describe('enrolling an authenticator app', () => {
  it('needs a right code from the app, then shows ten recovery codes once', async () => {
    const token = await signIn(stack.api, 'teamadmin@demo-county.test');
    const started = await call<{ secret: string; uri: string }>(
      stack.api,
      'POST',
      '/api/v1/auth/mfa/totp',
      { token, body: { password: DEMO_PASSWORD } },
    );
    expect(started.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(started.body.uri).toContain(`secret=${started.body.secret}`);
    expect(started.body.uri).toMatch(/^otpauth:\/\/totp\/Locus/);

    // Not in force yet: sign-in still needs only the password.
    expect((await passwordStep('teamadmin@demo-county.test')).body.token).toEqual(
      expect.any(String),
    );

    const wrong = await call(stack.api, 'POST', '/api/v1/auth/mfa/totp/confirm', {
      token,
      body: { code: '000000' === (await codeFor(started.body.secret)) ? '111111' : '000000' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: 'invalid-mfa-code' });

    const confirmed = await call<{ recoveryCodes: string[] }>(
      stack.api,
      'POST',
      '/api/v1/auth/mfa/totp/confirm',
      { token, body: { code: await codeFor(started.body.secret) } },
    );
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.recoveryCodes).toHaveLength(10);
    // Four groups of five from 31 characters: about 99 bits, still typeable from paper.
    for (const code of confirmed.body.recoveryCodes)
      expect(code).toMatch(/^[a-hjkmnp-z2-9]{5}(-[a-hjkmnp-z2-9]{5}){3}$/);
    Object.assign(enrolled, { token, secret: started.body.secret });
    expect(new Set(confirmed.body.recoveryCodes).size).toBe(10);

    // The secret is never handed out again, and a second app cannot replace the first.
    const again = await call(stack.api, 'POST', '/api/v1/auth/mfa/totp', {
      token,
      body: { password: DEMO_PASSWORD },
    });
    expect(again.status).toBe(409);
    const status = await call(stack.api, 'GET', '/api/v1/auth/mfa', { token });
    expect(status.body).toEqual({ totp: true, recoveryCodesLeft: 10, requiredByTeam: false });
    const me = await call(stack.api, 'GET', '/api/v1/auth/current-user', { token });
    expect(me.body).toMatchObject({ mfaEnabled: true, mfaRequired: false });

    // Stored encrypted: the database never holds the secret in clear.
    const row = await stack.database.db
      .selectFrom('user_totp')
      .select('secret_ciphertext')
      .executeTakeFirstOrThrow();
    expect(row.secret_ciphertext).not.toContain(started.body.secret);
    const userId = (me.body as { id: string }).id;
    expect(await auditActions(userId)).toContain('mfa.enrolled');
  });
});

describe('signing in with a second factor', () => {
  const email = 'dispatcher@demo-county.test';
  let secret: string;
  let recoveryCodes: string[];

  beforeAll(async () => {
    ({ secret, recoveryCodes } = await enrol(email));
  });

  it('issues a challenge, not a session, and only after the right password', async () => {
    const wrongPassword = await passwordStep(email, 'not the password');
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.body).toEqual({
      error: 'invalid-credentials',
      message: expect.any(String),
    });

    const answer = await passwordStep(email);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      mfaRequired: true,
      challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      methods: ['totp', 'recovery'],
      expiresAt: expect.any(String),
    });
    expect(answer.headers.get('set-cookie')).toBeNull();
    // The challenge opens nothing by itself.
    const withChallenge = await call(stack.api, 'GET', '/api/v1/auth/current-user', {
      token: answer.body.challenge,
    });
    expect(withChallenge.status).toBe(401);
  });

  it('answers the right code with a session, and refuses the same code again', async () => {
    const code = await codeFor(secret, 1);
    const first = await codeStep((await passwordStep(email)).body.challenge, code);
    expect(first.status).toBe(200);
    const me = await call(stack.api, 'GET', '/api/v1/auth/current-user', {
      token: first.body.token,
    });
    expect(me.body).toMatchObject({ email, mfaEnabled: true });

    const replay = await codeStep((await passwordStep(email)).body.challenge, code);
    expect(replay.status).toBe(401);
    expect(replay.body).toMatchObject({ error: 'invalid-mfa-code' });
    expect(await auditActions((me.body as { id: string }).id)).toContain('sign-in.mfa-failed');
  });

  it('uses a challenge once', async () => {
    const { challenge } = (await passwordStep(email)).body;
    const used = await codeStep(challenge, recoveryCodes[0]!, 'recovery');
    expect(used.status).toBe(200);
    const again = await codeStep(challenge, recoveryCodes[1]!, 'recovery');
    expect(again.body).toMatchObject({ error: 'mfa-challenge-expired' });
  });

  it('accepts each recovery code once, however it is typed', async () => {
    const code = recoveryCodes[2]!;
    const typed = ` ${code.toUpperCase().replace('-', ' ')} `;
    const first = await codeStep((await passwordStep(email)).body.challenge, typed, 'recovery');
    expect(first.status).toBe(200);
    const second = await codeStep((await passwordStep(email)).body.challenge, code, 'recovery');
    expect(second.status).toBe(401);
    expect(second.body).toMatchObject({ error: 'invalid-mfa-code' });

    const token = first.body.token;
    const status = await call(stack.api, 'GET', '/api/v1/auth/mfa', { token });
    expect(status.body).toMatchObject({ recoveryCodesLeft: 8 });
    const me = await call<{ id: string }>(stack.api, 'GET', '/api/v1/auth/current-user', { token });
    expect(await auditActions(me.body.id)).toContain('mfa.recovery-used');
    // Only the key-holder can check a code: the database holds a keyed hash, not a plain SHA-256.
    const { createHash } = await import('node:crypto');
    const stored = await stack.database.db
      .selectFrom('mfa_recovery_codes')
      .select('code_hash')
      .where('user_id', '=', me.body.id)
      .execute();
    const plain = createHash('sha256').update(code.replace(/-/g, '')).digest();
    expect(stored.some((row) => Buffer.from(row.code_hash).equals(plain))).toBe(false);
  });

  it('evaluates at most five codes of a challenge, however many are sent at once', async () => {
    const { challenge } = (await passwordStep(email)).body;
    const current = new Set(await Promise.all([-1, 0, 1].map((steps) => codeFor(secret, steps))));
    const wrong = ['000000', '111111', '222222', '333333'].find((code) => !current.has(code))!;
    const user = await stack.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const failedBefore = (await auditActions(user.id)).filter(
      (action) => action === 'sign-in.mfa-failed',
    ).length;

    const answers = await Promise.all(Array.from({ length: 20 }, () => codeStep(challenge, wrong)));
    const errors = answers.map((answer) => (answer.body as { error?: string }).error);
    const evaluated = errors.filter((error) => error !== 'mfa-challenge-expired');
    expect(evaluated.length).toBeLessThanOrEqual(5);
    expect(evaluated.length).toBeGreaterThan(0);
    const failedAfter = (await auditActions(user.id)).filter(
      (action) => action === 'sign-in.mfa-failed',
    ).length;
    expect(failedAfter - failedBefore).toBeLessThanOrEqual(5);
    // Five failures lock the account, as wrong passwords do.
    expect((await passwordStep(email)).body).toMatchObject({ error: 'account-locked' });
  });
});

describe('removing the app', () => {
  it('needs a current code', async () => {
    // The enrolment's own session: the app's code for this step was used to enrol, so the next
    // step's code is the fresh one (each code works once).
    const { token, secret } = enrolled;
    const malformed = await call(stack.api, 'POST', '/api/v1/auth/mfa/totp/disable', {
      token,
      body: { code: '12345' },
    });
    expect(malformed.status).toBe(400);
    const next = await codeFor(secret, 1);
    const wrong = await call(stack.api, 'POST', '/api/v1/auth/mfa/totp/disable', {
      token,
      body: { code: next === '000000' ? '111111' : '000000' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: 'invalid-mfa-code' });
    expect((await call(stack.api, 'GET', '/api/v1/auth/mfa', { token })).body).toMatchObject({
      totp: true,
    });

    const disabled = await call(stack.api, 'POST', '/api/v1/auth/mfa/totp/disable', {
      token,
      body: { code: next },
    });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toEqual({ totp: false, recoveryCodesLeft: 0, requiredByTeam: false });
    // Back to the password alone.
    expect((await passwordStep('teamadmin@demo-county.test')).body.token).toEqual(
      expect.any(String),
    );
    const me = await call<{ id: string }>(stack.api, 'GET', '/api/v1/auth/current-user', { token });
    expect(await auditActions(me.body.id)).toContain('mfa.disabled');
  });
});

describe('wrong codes', () => {
  it('count toward the account lockout like wrong passwords', async () => {
    const email = 'dispatcher2@demo-county.test';
    const { secret } = await enrol(email);
    const right = await codeFor(secret, 1);
    const wrongCode = right === '000000' ? '111111' : '000000';
    let last;
    for (let failure = 1; failure <= 5; failure += 1) {
      last = await codeStep((await passwordStep(email)).body.challenge, wrongCode);
    }
    expect(last?.body).toMatchObject({ error: 'account-locked' });
    // Locked: even the right password and code get nowhere now.
    const locked = await passwordStep(email);
    expect(locked.body).toMatchObject({ error: 'account-locked' });
  });
});

describe('a code for a locked account', () => {
  it('is refused unheard: one failed sign-in audited, nothing counted, the lock unmoved', async () => {
    const email = 'chloe.dubois@demo-county.test';
    const { secret } = await enrol(email);
    const { challenge } = (await passwordStep(email)).body;
    // Locked between the two steps (wrong passwords from elsewhere).
    for (let failure = 1; failure <= signInLockout.maxFailures; failure += 1)
      await passwordStep(email, `wrong-${failure}`);
    const liftsAt = await lockLiftsAt(stack, email);
    expect(liftsAt).toBeGreaterThan(Date.now());
    const userId = await userIdOf(email);
    const since = await lastAuditId(stack);

    const refused = await codeStep(challenge, await codeFor(secret, 1));
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: 'account-locked' });
    // One 'sign-in.failed' saying why; no 'sign-in.mfa-failed' (no code was looked at).
    const failedSignIn = {
      action: 'sign-in.failed',
      actor_user_id: null,
      subject: email,
      team_id: expect.any(String),
      ip: expect.any(String),
      detail: { ip: expect.any(String), userId, refused: 'account-locked' },
    };
    expect(await auditRowsSince(stack, since, [email, userId])).toEqual([failedSignIn]);
    expect(await lockLiftsAt(stack, email)).toBe(liftsAt);

    // The challenge ended with the lock: another answer is turned away before it is heard.
    const again = await codeStep(challenge, await codeFor(secret, 1));
    expect(again.body).toMatchObject({ error: 'mfa-challenge-expired' });
    expect(await auditRowsSince(stack, since, [email, userId])).toEqual([failedSignIn]);
  });
});

describe('users without a second factor', () => {
  it('sign in exactly as before: a bearer token straight away', async () => {
    const answer = await call(stack.api, 'POST', '/api/v1/auth/sign-in', {
      body: { email: 'dispatcher@neighbour-county.test', password: DEMO_PASSWORD },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ token: expect.any(String), expiresAt: expect.any(String) });
  });
});

describe("a team's requirement", () => {
  it('sends a member without a second factor to enrol before anything else works', async () => {
    const admin = await signIn(stack.api, 'owner@locus.test');
    const teams = await stack.database.db
      .selectFrom('teams')
      .select('id')
      .where('team_name', '=', 'Neighbouring County')
      .executeTakeFirstOrThrow();
    const member = await signIn(stack.api, 'dispatcher@neighbour-county.test');
    const notAdmin = await call(stack.api, 'PATCH', `/api/v1/teams/${teams.id}/security`, {
      token: member,
      body: { requireMfa: true },
    });
    expect(notAdmin.status).toBe(403);
    const set = await call(stack.api, 'PATCH', `/api/v1/teams/${teams.id}/security`, {
      token: admin,
      body: { requireMfa: true },
    });
    expect(set.body).toEqual({ requireMfa: true, idleTimeoutMinutes: null });

    const me = await call(stack.api, 'GET', '/api/v1/auth/current-user', { token: member });
    expect(me.body).toMatchObject({ mfaEnabled: false, mfaRequired: true });
    const locate = await call(stack.api, 'POST', '/api/v1/location/start-stream', {
      token: member,
      body: { phoneNumber: '+12025550123' },
    });
    expect(locate.status).toBe(403);
    expect(locate.body).toMatchObject({ error: 'mfa-required' });

    // Enrolment is what still works; then the console does.
    const started = await call<{ secret: string }>(stack.api, 'POST', '/api/v1/auth/mfa/totp', {
      token: member,
      body: { password: DEMO_PASSWORD },
    });
    await call(stack.api, 'POST', '/api/v1/auth/mfa/totp/confirm', {
      token: member,
      body: { code: await codeFor(started.body.secret) },
    });
    const after = await call(stack.api, 'GET', '/api/v1/auth/current-user', { token: member });
    expect(after.body).toMatchObject({ mfaEnabled: true, mfaRequired: false });
    const teamsAnswer = await call(stack.api, 'GET', '/api/v1/auth/mfa', { token: member });
    expect(teamsAnswer.body).toMatchObject({ requiredByTeam: true });
  });
});

describe("a team's requirement is met by the session, not the user", () => {
  const email = 'teamadmin@demo-county.test';
  let secret: string;
  let current: string;

  it('refuses a password-only session from before enrolment, and any that never passed a step', async () => {
    const older = await signIn(stack.api, email);
    current = await signIn(stack.api, email);
    const started = await call<{ secret: string }>(stack.api, 'POST', '/api/v1/auth/mfa/totp', {
      token: current,
      body: { password: DEMO_PASSWORD },
    });
    expect(started.status).toBe(200);
    secret = started.body.secret;
    const confirmed = await call<{ recoveryCodes: string[] }>(
      stack.api,
      'POST',
      '/api/v1/auth/mfa/totp/confirm',
      {
        token: current,
        body: { code: await codeFor(secret) },
      },
    );
    expect(confirmed.status).toBe(200);
    const team = await stack.database.db
      .selectFrom('teams')
      .select('id')
      .where('team_name', '=', 'Demo County 911')
      .executeTakeFirstOrThrow();
    const set = await call(stack.api, 'PATCH', `/api/v1/teams/${team.id}/security`, {
      token: current,
      body: { requireMfa: true },
    });
    expect(set.status).toBe(200);

    const locate = (token: string) =>
      call(stack.api, 'POST', '/api/v1/location/start-stream', {
        token,
        body: { phoneNumber: '+12025550123' },
      });
    // The older, password-only session: ended at enrolment, and it could not locate anyway.
    const fromOlder = await locate(older);
    expect([401, 403]).toContain(fromOlder.status);
    expect(['unauthorized', 'mfa-required']).toContain((fromOlder.body as { error: string }).error);
    // The session the app was enrolled on works.
    expect((await locate(current)).status).toBe(200);

    // A fresh sign-in with the code works.
    const challenge = (await passwordStep(email)).body.challenge;
    const fresh = await codeStep(challenge, await codeFor(secret, 1));
    expect(fresh.status).toBe(200);
    expect((await locate(fresh.body.token)).status).toBe(200);

    // A session that never passed a second step (such as one from before this rule) is refused
    // with mfa-required, though the user has a factor, and the console is told to ask for it.
    const again = await codeStep(
      (await passwordStep(email)).body.challenge,
      confirmed.body.recoveryCodes[0]!,
      'recovery',
    );
    expect(again.status).toBe(200);
    const newest = await stack.database.db
      .selectFrom('auth_sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select('s.id')
      .where('u.email', '=', email)
      .orderBy('s.created_at', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    await stack.database.db
      .updateTable('auth_sessions')
      .set({ mfa_verified_at: null })
      .where('id', '=', newest.id)
      .execute();
    const refused = await locate(again.body.token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'mfa-required' });
    const me = await call(stack.api, 'GET', '/api/v1/auth/current-user', {
      token: again.body.token,
    });
    expect(me.body).toMatchObject({ mfaEnabled: true, mfaRequired: true });
  });

  it('counts wrong codes given to turn the app off toward the lockout, audited as no sign-in', async () => {
    const now = new Set(await Promise.all([-1, 0, 1, 2, 3].map((steps) => codeFor(secret, steps))));
    const wrong = ['000000', '111111', '222222', '333333', '444444', '555555', '666666'].find(
      (code) => !now.has(code),
    )!;
    const since = await lastAuditId(stack);
    const answers = [];
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      answers.push(
        await call(stack.api, 'POST', '/api/v1/auth/mfa/totp/disable', {
          token: current,
          body: { code: wrong },
        }),
      );
    }
    expect(answers[0]?.body).toMatchObject({ error: 'invalid-mfa-code' });
    expect(answers[4]?.status).toBe(401);
    expect(answers[4]?.body).toMatchObject({ error: 'account-locked' });
    await expectMfaChangeFailures(email, since, 'totp-disable');
    // Locked: sign-in is refused, and so is another try at turning the app off.
    expect((await passwordStep(email)).body).toMatchObject({ error: 'account-locked' });
    const whileLocked = await call(stack.api, 'POST', '/api/v1/auth/mfa/totp/disable', {
      token: current,
      body: { code: await codeFor(secret, 3) },
    });
    expect(whileLocked.body).toMatchObject({ error: 'account-locked' });
    expect(
      (await call(stack.api, 'GET', '/api/v1/auth/mfa', { token: current })).body,
    ).toMatchObject({ totp: true });
  });
});

describe('starting enrolment', () => {
  it('needs the current password, and wrong ones count toward the account lockout', async () => {
    const email = 'owner@locus.test';
    const token = await signIn(stack.api, email);
    const withoutPassword = await call(stack.api, 'POST', '/api/v1/auth/mfa/totp', { token });
    expect(withoutPassword.status).toBe(400);
    const since = await lastAuditId(stack);
    const answers = [];
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      answers.push(
        await call(stack.api, 'POST', '/api/v1/auth/mfa/totp', {
          token,
          body: { password: 'not the password' },
        }),
      );
    }
    expect(answers[0]?.status).toBe(401);
    expect(answers[0]?.body).toMatchObject({ error: 'invalid-credentials' });
    expect(answers.some((answer) => 'secret' in (answer.body as object))).toBe(false);
    await expectMfaChangeFailures(email, since, 'totp-enrol');
    // The fifth wrong password locked the account.
    expect((await passwordStep(email)).body).toMatchObject({ error: 'account-locked' });
    const right = await call(stack.api, 'POST', '/api/v1/auth/mfa/totp', {
      token,
      body: { password: DEMO_PASSWORD },
    });
    expect(right.body).toMatchObject({ error: 'account-locked' });
  });
});
