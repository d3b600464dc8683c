import { signInFlowStateOf, type PersistedSignInFlow } from '@locus/machines/authentication';
import { Redis } from 'ioredis';
import { createHash } from 'node:crypto';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnvironment } from '../support/environment';
import { call, DEMO_PASSWORD, signIn, startAuthStack, type AuthStack } from './support';

// The API refuses an illegal step of sign-in because the sign-in flow machine does: the machine's
// snapshot is stored with the challenge, and a challenge that signed in takes no further code.

let stack: AuthStack;
let redis: Redis;
const email = 'dispatcher@demo-county.test';
let userId: string;
let recoveryCodes: string[];

beforeAll(async () => {
  stack = await startAuthStack({ worker: false });
  redis = new Redis(testEnvironment.redisUrl());
  const token = await signIn(stack.api, email);
  const started = await call<{ secret: string }>(stack.api, 'POST', '/api/v1/auth/mfa/totp', {
    token,
    body: { password: DEMO_PASSWORD },
  });
  const confirmed = await call<{ recoveryCodes: string[] }>(
    stack.api,
    'POST',
    '/api/v1/auth/mfa/totp/confirm',
    { token, body: { code: await generate({ secret: started.body.secret }) } },
  );
  expect(confirmed.status).toBe(200);
  recoveryCodes = confirmed.body.recoveryCodes;
  const me = await call<{ id: string }>(stack.api, 'GET', '/api/v1/auth/current-user', { token });
  userId = me.body.id;
});

afterAll(async () => {
  redis?.disconnect();
  await stack?.close();
});

async function challengeFor(): Promise<string> {
  const answer = await call<{ challenge: string }>(stack.api, 'POST', '/api/v1/auth/sign-in', {
    body: { email, password: DEMO_PASSWORD },
  });
  expect(answer.status).toBe(200);
  return answer.body.challenge;
}

function codeStep(challenge: string, code: string) {
  return call<{ token?: string; error?: string }>(stack.api, 'POST', '/api/v1/auth/sign-in/mfa', {
    body: { challenge, code, method: 'recovery' },
  });
}

/** The sign-in flow stored with a challenge, as the API keeps it in Redis. */
async function storedFlow(challenge: string) {
  const hash = createHash('sha256').update(challenge).digest('hex');
  const stored = await redis.hget(`${stack.redisPrefix}mfa-challenge:${hash}`, 'flow');
  return stored === null ? null : signInFlowStateOf(JSON.parse(stored) as PersistedSignInFlow);
}

async function sessionsOf(): Promise<number> {
  const { count } = await stack.database.db
    .selectFrom('auth_sessions')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

async function recoveryCodesLeft(token: string): Promise<number> {
  const status = await call<{ recoveryCodesLeft: number }>(stack.api, 'GET', '/api/v1/auth/mfa', {
    token,
  });
  return status.body.recoveryCodesLeft;
}

describe('the sign-in flow on the server', () => {
  it('stores the flow with the challenge, and moves it to signedIn with the right code', async () => {
    const challenge = await challengeFor();
    expect(await storedFlow(challenge)).toBe('secondFactor');
    const answer = await codeStep(challenge, recoveryCodes[0]!);
    expect(answer.status).toBe(200);
    expect(await storedFlow(challenge)).toBe('signedIn');
  });

  it('refuses a challenge that already signed in, starting no second session and spending no code', async () => {
    const challenge = await challengeFor();
    const first = await codeStep(challenge, recoveryCodes[1]!);
    expect(first.status).toBe(200);
    const token = first.body.token!;
    const sessions = await sessionsOf();
    const left = await recoveryCodesLeft(token);

    const replay = await codeStep(challenge, recoveryCodes[2]!);
    expect(replay.status).toBe(401);
    expect(replay.body).toMatchObject({ error: 'mfa-challenge-expired' });
    expect(await sessionsOf()).toBe(sessions);
    // The machine refused the step before the code was looked at: it is still unused.
    expect(await recoveryCodesLeft(token)).toBe(left);
    expect(await storedFlow(challenge)).toBe('signedIn');
    // Nor does the challenge hand out a passkey's options any more.
    const options = await call(stack.api, 'POST', '/api/v1/auth/sign-in/mfa/passkey/options', {
      body: { challenge },
    });
    expect(options.body).toMatchObject({ error: 'mfa-challenge-expired' });
  });

  it('signs a challenge in once when two right codes race: exactly one session starts', async () => {
    const challenge = await challengeFor();
    const sessions = await sessionsOf();
    const answers = await Promise.all([
      codeStep(challenge, recoveryCodes[3]!),
      codeStep(challenge, recoveryCodes[4]!),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401]);
    expect(answers.find((answer) => answer.status === 401)?.body).toMatchObject({
      error: 'mfa-challenge-expired',
    });
    expect(await sessionsOf()).toBe(sessions + 1);
  });

  it('ends a challenge whose last attempt was wrong, and the machine refuses it after', async () => {
    const challenge = await challengeFor();
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      const wrong = await codeStep(challenge, 'aaaaa-aaaaa-aaaaa-aaaaa');
      expect(wrong.body).toMatchObject({ error: 'invalid-mfa-code' });
      expect(await storedFlow(challenge)).toBe('secondFactor');
    }
    const last = await codeStep(challenge, 'aaaaa-aaaaa-aaaaa-aaaaa');
    expect(last.body).toMatchObject({
      error: expect.stringMatching(/invalid-mfa-code|account-locked/),
    });
    expect(['expired', 'locked']).toContain(await storedFlow(challenge));
    const after = await codeStep(challenge, recoveryCodes[5]!);
    expect(after.body).toMatchObject({ error: 'mfa-challenge-expired' });
  });
});
