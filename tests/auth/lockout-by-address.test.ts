import { demoUsers } from '@locus/db';
import { SignInLockout } from '@locus/api';
import { Redis } from 'ioredis';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, testRedisPrefix, type TestApi } from '../support/api';
import { testEnvironment } from '../support/environment';
import {
  call,
  DEMO_PASSWORD,
  registration,
  startAuthStack,
  uniqueEmail,
  type AuthStack,
} from './support';

/** The production defaults: the test stacks raise them, since every test signs in from 127.0.0.1. */
const productionThrottle = {
  TRUST_PROXY: 'true',
  SIGN_IN_FAILURES_PER_ADDRESS: '3',
  SIGN_IN_ACCOUNTS_PER_ADDRESS: '5',
  SIGN_IN_FAILURES_PER_SUBNET: '10',
  SIGN_IN_MAX_DELAY_SECONDS: '30',
};

let stack: AuthStack;
let redis: Redis;

beforeAll(async () => {
  stack = await startAuthStack({ worker: false, env: productionThrottle });
  redis = new Redis(testEnvironment.redisUrl());
});

afterAll(async () => {
  redis?.disconnect();
  await stack?.close();
});

// Every address in its own /24 unless a test means to share one: 10.<n>.<n>.7.
let nextNetwork = 0;
function freshAddress(): string {
  nextNetwork += 1;
  return `10.${Math.floor(nextNetwork / 250) + 1}.${nextNetwork % 250}.7`;
}

function signInFrom(api: TestApi, ip: string, body: Record<string, unknown>) {
  return call(api, 'POST', '/api/v1/auth/sign-in', {
    body,
    headers: { 'x-forwarded-for': ip },
  });
}

/** Six accounts: five of the demo users and one registered here. */
const accounts = demoUsers
  .slice(0, 5)
  .map((user) => ({ email: user.email, password: DEMO_PASSWORD }));

beforeAll(async () => {
  const sixth = registration(uniqueEmail('sixth'));
  const registered = await signInFromRegistration(sixth);
  expect(registered).toBe(201);
  accounts.push({ email: sixth.email, password: sixth.password });
});

async function signInFromRegistration(body: ReturnType<typeof registration>): Promise<number> {
  const answer = await call(stack.api, 'POST', '/api/v1/auth/register', { body });
  return answer.status;
}

describe('one address failing against many accounts', () => {
  it('cannot lock them: round after round over six accounts, all six still sign in', async () => {
    expect(accounts).toHaveLength(6);
    const attacker = freshAddress();
    const answers = [];
    // Round after round over six accounts, as fast as the API answers.
    for (let round = 0; round < 5; round += 1) {
      for (const { email } of accounts) {
        answers.push(await signInFrom(stack.api, attacker, { email, password: `guess-${round}` }));
      }
    }
    // The first round reaches every password check; the sixth account is one more than an
    // address may fail against, so from then on that address waits the window out for it.
    expect(answers.slice(0, 6).map((answer) => answer.status)).toEqual(Array(6).fill(401));
    for (let round = 1; round < 5; round += 1) {
      const sixth = answers[round * 6 + 5]!;
      expect(sixth.status).toBe(429);
      expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(60);
    }
    for (const answer of answers) {
      expect(answer.body).not.toMatchObject({ error: 'account-locked' });
      if (answer.status === 429) {
        expect(answer.body).toMatchObject({ error: 'rate-limited' });
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      }
    }
    // At most four failures from it on any account: one short of the lock.
    expect(answers.filter((answer) => answer.status === 401).length).toBeLessThanOrEqual(5 * 4 + 1);

    // None of the six is locked: each signs in from its own desk.
    for (const { email, password } of accounts) {
      const desk = await signInFrom(stack.api, freshAddress(), { email, password });
      expect(desk.status, email).toBe(200);
    }
  });

  it('never delays a colleague behind the same address or /24 signing in to their own account', async () => {
    const network = `10.251.${Math.floor(Math.random() * 250)}`;
    const attacker = `${network}.7`;
    // Guest Wi-Fi behind the centre's NAT: wrong passwords on many accounts, again and again.
    for (let round = 0; round < 3; round += 1) {
      for (let target = 1; target <= 8; target += 1) {
        await signInFrom(stack.api, attacker, {
          email: `ghost-${target}@demo-county.test`,
          password: `guess-${round}`,
        });
      }
    }
    // The sixth to eighth accounts are past what one address may fail against: it waits.
    const stillFailing = await signInFrom(stack.api, attacker, {
      email: 'ghost-6@demo-county.test',
      password: 'guess',
    });
    expect(stillFailing.status).toBe(429);

    // A dispatcher at the same public address, and one elsewhere in the /24, get in at once.
    for (const [ip, { email, password }] of [
      [attacker, accounts[0]!],
      [`${network}.8`, accounts[1]!],
    ] as const) {
      const colleague = await signInFrom(stack.api, ip, { email, password });
      expect(colleague.status, ip).toBe(200);
    }
  });

  it('waits 1 s after the third failure on an account, and one short of the lock the window out', async () => {
    const attacker = freshAddress();
    const fail = () =>
      signInFrom(stack.api, attacker, { email: 'nobody@nowhere.test', password: 'guess' });
    for (let failure = 1; failure <= 3; failure += 1) expect((await fail()).status).toBe(401);
    const first = await fail();
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('1');

    // Honouring Retry-After is what the client is told to do; the 4th failure is the last.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await fail()).status).toBe(401);
    const second = await fail();
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(500);
  });

  it('never turns a subnet away: failures across a /24 are only counted', async () => {
    const network = `10.250.${Math.floor(Math.random() * 250)}`;
    for (let host = 1; host <= 12; host += 1) {
      const answer = await signInFrom(stack.api, `${network}.${host}`, {
        email: `ghost-${host}@nowhere.test`,
        password: 'guess',
      });
      expect(answer.status).toBe(401);
    }
    const neighbour = await signInFrom(stack.api, `${network}.13`, accounts[2]!);
    expect(neighbour.status).toBe(200);
  });
});

describe('the per-account lock (CJIS: 5 failures, 10 minutes)', () => {
  it('still locks an account that five different addresses fail against, and audits each failure', async () => {
    const email = 'dispatcher2@demo-county.test';
    // Only this test's audit rows (the round-robin above failed against this account too).
    const before = await stack.database.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirstOrThrow();
    const answers = [];
    for (let failure = 1; failure <= 5; failure += 1) {
      answers.push(
        await signInFrom(stack.api, freshAddress(), { email, password: `wrong-${failure}` }),
      );
    }
    expect(answers.slice(0, 4).map((answer) => answer.body)).toEqual(
      Array(4).fill(expect.objectContaining({ error: 'invalid-credentials' })),
    );
    expect(answers[4]!.body).toMatchObject({ error: 'account-locked' });
    const right = await signInFrom(stack.api, freshAddress(), { email, password: DEMO_PASSWORD });
    expect(right.body).toMatchObject({ error: 'account-locked' });

    const audit = await stack.database.db
      .selectFrom('audit_log')
      .select(['action', 'detail', 'actor_user_id'])
      .where('subject', '=', email)
      .where('id', '>', before.id ?? '0')
      .where('action', 'in', ['sign-in.failed', 'sign-in.locked'])
      .orderBy('id')
      .execute();
    // The right password on the locked account is a failed sign-in too, audited but not counted.
    expect(audit.map((row) => row.action)).toEqual([
      ...Array<string>(5).fill('sign-in.failed'),
      'sign-in.locked',
      'sign-in.failed',
    ]);
    expect(audit.at(-1)!.detail).toMatchObject({ refused: 'account-locked' });
    expect(audit[0]!.detail).toMatchObject({ ip: expect.stringMatching(/^10\./) });
    expect(audit.every((row) => row.actor_user_id === null)).toBe(true);

    // An admin lifts the lock at once.
    const lockout = new SignInLockout(redis, stack.redisPrefix);
    expect(await lockout.unlockAccount(email)).toBe(true);
    const afterUnlock = await signInFrom(stack.api, freshAddress(), {
      email,
      password: DEMO_PASSWORD,
    });
    expect(afterUnlock.status).toBe(200);
  });

  it('does not count attempts the address throttle turned away', async () => {
    const email = 'teamadmin@demo-county.test';
    const attacker = freshAddress();
    for (let attempt = 1; attempt <= 8; attempt += 1) {
      await signInFrom(stack.api, attacker, { email, password: `wrong-${attempt}` });
    }
    // Only three of the eight reached the password check: a fourth from elsewhere does not lock.
    const fourth = await signInFrom(stack.api, freshAddress(), { email, password: 'wrong' });
    expect(fourth.body).toMatchObject({ error: 'invalid-credentials' });
    const owner = await signInFrom(stack.api, freshAddress(), { email, password: DEMO_PASSWORD });
    expect(owner.status).toBe(200);
  });
});

describe('with a captcha configured', () => {
  let siteverify: Server;
  let withCaptcha: TestApi;

  beforeAll(async () => {
    // Turnstile's siteverify protocol: the token "pass" is a solved captcha.
    siteverify = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const form = new URLSearchParams(body);
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ success: form.get('response') === 'pass' }));
      });
    });
    await new Promise<void>((resolve) => siteverify.listen(0, '127.0.0.1', resolve));
    withCaptcha = await startApi({
      databaseUrl: stack.database.url,
      redisPrefix: testRedisPrefix(),
      env: {
        ...productionThrottle,
        AUTH_RATE_LIMIT_MAX: '1000',
        CAPTCHA_PROVIDER: 'turnstile',
        CAPTCHA_SITE_KEY: 'site',
        CAPTCHA_SECRET_KEY: 'secret',
        CAPTCHA_VERIFY_URL: `http://127.0.0.1:${(siteverify.address() as AddressInfo).port}/`,
      },
    });
  });

  afterAll(async () => {
    await withCaptcha?.close();
    await new Promise((resolve) => siteverify?.close(resolve));
  });

  it('is asked for after three failures for the account, and then lets the right password in', async () => {
    const email = 'dispatcher@demo-county.test';
    for (let failure = 1; failure <= 3; failure += 1) {
      const answer = await signInFrom(withCaptcha, freshAddress(), { email, password: 'wrong' });
      expect(answer.body).toMatchObject({ error: 'invalid-credentials' });
    }
    for (const captchaToken of [undefined, 'fail']) {
      const answer = await signInFrom(withCaptcha, freshAddress(), {
        email,
        password: DEMO_PASSWORD,
        captchaToken,
      });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ error: 'captcha-required', message: expect.any(String) });
    }
    const solved = await signInFrom(withCaptcha, freshAddress(), {
      email,
      password: DEMO_PASSWORD,
      captchaToken: 'pass',
    });
    expect(solved.status).toBe(200);
  });

  it('is asked for from a /24 (or IPv6 /64) after ten failures there, never a 429', async () => {
    const email = 'dispatcher2@demo-county.test';
    for (const [network, host] of [
      [`10.252.${Math.floor(Math.random() * 250)}`, (n: number) => `.${n}`],
      [`2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:1`, (n: number) => `::${n}`],
    ] as const) {
      for (let n = 1; n <= 10; n += 1) {
        const answer = await signInFrom(withCaptcha, `${network}${host(n)}`, {
          email: `ghost-${n}@nowhere.test`,
          password: 'guess',
        });
        expect(answer.status).toBe(401);
      }
      const unsolved = await signInFrom(withCaptcha, `${network}${host(99)}`, {
        email,
        password: DEMO_PASSWORD,
      });
      expect(unsolved.body).toMatchObject({ error: 'captcha-required' });
      const solved = await signInFrom(withCaptcha, `${network}${host(99)}`, {
        email,
        password: DEMO_PASSWORD,
        captchaToken: 'pass',
      });
      expect(solved.status).toBe(200);
    }
    // Another network is not asked.
    const elsewhere = await signInFrom(withCaptcha, freshAddress(), {
      email,
      password: DEMO_PASSWORD,
    });
    expect(elsewhere.status).toBe(200);
  });

  it('is not asked for before', async () => {
    const email = 'owner@locus.test';
    for (let failure = 1; failure <= 2; failure += 1) {
      await signInFrom(withCaptcha, freshAddress(), { email, password: 'wrong' });
    }
    const answer = await signInFrom(withCaptcha, freshAddress(), {
      email,
      password: DEMO_PASSWORD,
    });
    expect(answer.status).toBe(200);
  });
});
