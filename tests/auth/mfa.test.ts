import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, DEMO_PASSWORD, signIn, startAuthStack, type AuthStack } from './support';

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
    { token },
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

/** The first test's enrolment, which the removal test undoes. */
const enrolled = { token: '', secret: '' };

describe('enrolling an authenticator app', () => {
  it('needs a right code from the app, then shows ten recovery codes once', async () => {
    const token = await signIn(stack.api, 'teamadmin@demo-county.test');
    const started = await call<{ secret: string; uri: string }>(
      stack.api,
      'POST',
      '/api/v1/auth/mfa/totp',
      { token },
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
    Object.assign(enrolled, { token, secret: started.body.secret });
    expect(new Set(confirmed.body.recoveryCodes).size).toBe(10);

    // The secret is never handed out again, and a second app cannot replace the first.
    const again = await call(stack.api, 'POST', '/api/v1/auth/mfa/totp', { token });
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
