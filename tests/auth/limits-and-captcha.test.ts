import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, testRedisPrefix, type TestApi } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';
import { call, registration, uniqueEmail } from './support';

let database: TestDatabase;
let limited: TestApi;
let withCaptcha: TestApi;
let siteverify: Server;
const verified: URLSearchParams[] = [];

beforeAll(async () => {
  database = await freshDatabase();
  // A stand-in for Turnstile's siteverify endpoint, speaking its protocol: "pass" is solved.
  siteverify = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const form = new URLSearchParams(body);
      verified.push(form);
      response.setHeader('content-type', 'application/json');
      const success = form.get('secret') === 'test-secret' && form.get('response') === 'pass';
      response.end(JSON.stringify({ success, 'error-codes': success ? [] : ['invalid-input'] }));
    });
  });
  await new Promise<void>((resolve) => siteverify.listen(0, '127.0.0.1', resolve));
  const verifyUrl = `http://127.0.0.1:${(siteverify.address() as AddressInfo).port}/siteverify`;

  limited = await startApi({
    databaseUrl: database.url,
    redisPrefix: testRedisPrefix(),
    env: { AUTH_RATE_LIMIT_MAX: '3', AUTH_RATE_LIMIT_WINDOW_SECONDS: '60' },
  });
  withCaptcha = await startApi({
    databaseUrl: database.url,
    redisPrefix: testRedisPrefix(),
    env: {
      AUTH_RATE_LIMIT_MAX: '1000',
      CAPTCHA_PROVIDER: 'turnstile',
      CAPTCHA_SITE_KEY: 'test-site-key',
      CAPTCHA_SECRET_KEY: 'test-secret',
      CAPTCHA_VERIFY_URL: verifyUrl,
    },
  });
});

afterAll(async () => {
  await limited?.close();
  await withCaptcha?.close();
  await new Promise((resolve) => siteverify?.close(resolve));
  await database?.drop();
});

describe('rate limits on auth endpoints', () => {
  it('answer 429 rate-limited in the documented error shape once an address exceeds the limit', async () => {
    const attempt = () =>
      call(limited, 'POST', '/api/v1/auth/sign-in', {
        body: { email: 'someone@agency.test', password: 'wrong password' },
      });
    for (let count = 1; count <= 3; count += 1) expect((await attempt()).status).toBe(401);
    const refused = await attempt();
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: 'rate-limited', message: expect.any(String) });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

    // Counted per route: another endpoint still answers.
    const other = await call(limited, 'POST', '/api/v1/auth/forgot-password', {
      body: { email: 'someone@agency.test' },
    });
    expect(other.status).toBe(202);
  });

  it('are shared by every instance through Redis', async () => {
    const prefix = testRedisPrefix();
    const env = { AUTH_RATE_LIMIT_MAX: '2' };
    const [first, second] = await Promise.all([
      startApi({ databaseUrl: database.url, redisPrefix: prefix, env }),
      startApi({ databaseUrl: database.url, redisPrefix: prefix, env }),
    ]);
    try {
      const body = { email: uniqueEmail('shared') };
      const path = '/api/v1/auth/resend-email-confirmation';
      expect((await call(first!, 'POST', path, { body })).status).toBe(202);
      expect((await call(second!, 'POST', path, { body })).status).toBe(202);
      expect((await call(first!, 'POST', path, { body })).status).toBe(429);
      expect((await call(second!, 'POST', path, { body })).status).toBe(429);
    } finally {
      await Promise.all([first?.close(), second?.close()]);
    }
  });

  it('leave other endpoints alone', async () => {
    for (let count = 0; count < 5; count += 1) {
      expect((await call(limited, 'GET', '/api/v1/config')).status).toBe(200);
    }
  });
});

describe('the captcha', () => {
  it('is announced to the web app with its site key, never the secret', async () => {
    const config = await call<{ captcha: unknown }>(withCaptcha, 'GET', '/api/v1/config');
    expect(config.body.captcha).toEqual({ provider: 'turnstile', siteKey: 'test-site-key' });
    expect(JSON.stringify(config.body)).not.toContain('test-secret');
  });

  it('guards registration: 400 captcha-failed without a solved captcha', async () => {
    for (const captchaToken of [undefined, 'fail']) {
      const answer = await call(withCaptcha, 'POST', '/api/v1/auth/register', {
        body: registration(uniqueEmail('bot'), { captchaToken }),
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: 'captcha-failed', message: expect.any(String) });
    }
    const human = await call(withCaptcha, 'POST', '/api/v1/auth/register', {
      body: registration(uniqueEmail('human'), { captchaToken: 'pass' }),
    });
    expect(human.status).toBe(201);
    expect(verified.at(-1)?.get('remoteip')).toBe('127.0.0.1');
  });

  it('guards demo requests', async () => {
    const request = {
      firstName: 'Ann',
      lastName: 'Lee',
      email: 'ann@county.test',
      phoneNumber: '+12025550100',
      companyName: 'County 911',
    };
    const refused = await call(withCaptcha, 'POST', '/api/v1/auth/demo-request', {
      body: request,
    });
    expect(refused.body).toMatchObject({ error: 'captcha-failed' });
    const accepted = await call(withCaptcha, 'POST', '/api/v1/auth/demo-request', {
      body: { ...request, captchaToken: 'pass' },
    });
    expect(accepted.status).toBe(202);
  });

  it('is off by default', async () => {
    const answer = await call(limited, 'POST', '/api/v1/auth/register', {
      body: registration(uniqueEmail('nocaptcha')),
    });
    expect(answer.status).toBe(201);
    expect((await call(limited, 'GET', '/api/v1/config')).body).toMatchObject({
      captcha: { provider: 'off' },
    });
  });
});
