import { seedDemo } from '@locus/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, testRedisPrefix, type TestApi } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';
import { call, DEMO_PASSWORD } from './support';

let database: TestDatabase;
let api: TestApi;

beforeAll(async () => {
  database = await freshDatabase();
  await seedDemo(database.db, 'development');
  api = await startApi({
    databaseUrl: database.url,
    redisPrefix: testRedisPrefix(),
    env: { AUTH_RATE_LIMIT_MAX: '1000' },
  });
});

afterAll(async () => {
  await api?.close();
  await database?.drop();
});

/** Signs in and returns the token and the Set-Cookie header, as a browser would receive them. */
async function signInCookie(target: TestApi, email: string) {
  const answer = await call<{ token: string }>(target, 'POST', '/api/v1/auth/sign-in', {
    body: { email, password: DEMO_PASSWORD },
  });
  const setCookie = answer.headers.get('set-cookie') ?? '';
  return { token: answer.body.token, setCookie, cookie: setCookie.split(';')[0]! };
}

const board = (cookie?: string, path = '/admin/queues') =>
  fetch(`${api.url}${path}`, { headers: cookie ? { cookie } : {} });

describe('the queue board', () => {
  it('answers 401 to anyone not signed in', async () => {
    const response = await board();
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'unauthorized', message: expect.any(String) });
    expect((await board(undefined, '/admin/queues/api/queues')).status).toBe(401);
  });

  it('answers 403 to users who are not platform admins, team admins included', async () => {
    for (const email of ['dispatcher@demo-county.test', 'teamadmin@demo-county.test']) {
      const { cookie } = await signInCookie(api, email);
      const response = await board(cookie);
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ error: 'forbidden' });
    }
  });

  it('shows the queues to a platform admin signed in through the sign-in cookie', async () => {
    const { cookie, setCookie } = await signInCookie(api, 'owner@locus.test');
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    expect(setCookie).toMatch(/Path=\/admin\/queues/);
    expect(setCookie).not.toMatch(/Secure/i);
    expect((await board(cookie)).status).toBe(200);
    const queues = (await (await board(cookie, '/admin/queues/api/queues')).json()) as {
      queues: { name: string }[];
    };
    expect(queues.queues.map((queue) => queue.name)).toEqual(
      expect.arrayContaining(['maintenance', 'email']),
    );
  });

  it('accepts only the cookie, and the cookie is accepted nowhere else', async () => {
    const { token, cookie } = await signInCookie(api, 'owner@locus.test');
    const withBearer = await fetch(`${api.url}/admin/queues`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(withBearer.status).toBe(401);
    const restWithCookie = await fetch(`${api.url}/api/v1/auth/current-user`, {
      headers: { cookie },
    });
    expect(restWithCookie.status).toBe(401);
  });

  it('closes after sign-out, which also clears the cookie', async () => {
    const { token, cookie } = await signInCookie(api, 'owner@locus.test');
    const out = await call(api, 'POST', '/api/v1/auth/sign-out', { token });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/locus_session=;.*Path=\/admin\/queues/i);
    expect((await board(cookie)).status).toBe(401);
  });

  it("holds a session to its team's MFA requirement, as the console's routes do", async () => {
    const { cookie } = await signInCookie(api, 'owner@locus.test');
    const platformTeam = database.db.updateTable('teams').where('is_platform_owner', '=', true);
    await platformTeam.set({ require_mfa: true }).execute();
    try {
      const response = await board(cookie);
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ error: 'mfa-required' });
    } finally {
      await platformTeam.set({ require_mfa: false }).execute();
    }
  });

  it('ends a session idle past the configured timeout, as the bearer token does', async () => {
    const shortIdle = await startApi({
      databaseUrl: database.url,
      redisPrefix: testRedisPrefix(),
      env: { AUTH_RATE_LIMIT_MAX: '1000', SESSION_IDLE_TIMEOUT_SECONDS: '600' },
    });
    try {
      const { token, cookie } = await signInCookie(shortIdle, 'owner@locus.test');
      // Twenty minutes without activity: past this deployment's ten, within the default thirty.
      await database.db
        .updateTable('auth_sessions')
        .set({ last_active_at: new Date(Date.now() - 20 * 60_000) })
        .where('user_id', 'in', (eb) =>
          eb.selectFrom('users').select('id').where('email', '=', 'owner@locus.test'),
        )
        .where('revoked_at', 'is', null)
        .execute();
      const response = await fetch(`${shortIdle.url}/admin/queues`, { headers: { cookie } });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: 'session-expired' });
      const bearer = await call(shortIdle, 'GET', '/api/v1/auth/current-user', { token });
      expect(bearer.status).toBe(401);
    } finally {
      await shortIdle.close();
    }
  });
});

describe('in production', () => {
  let production: TestApi;

  beforeAll(async () => {
    production = await startApi({
      databaseUrl: database.url,
      redisPrefix: testRedisPrefix(),
      env: {
        NODE_ENV: 'production',
        MFA_ENCRYPTION_KEY: 'test-only-mfa-encryption-key',
        // Production refuses the default media URL secret (issue 19).
        MEDIA_URL_SECRET: 'test-only-media-url-secret',
        AUTH_RATE_LIMIT_MAX: '1000',
      },
    });
  });

  afterAll(async () => {
    await production?.close();
  });

  it('marks the session cookie Secure', async () => {
    const { setCookie } = await signInCookie(production, 'owner@locus.test');
    expect(setCookie).toMatch(/; Secure/i);
  });

  it('has no dev outbox', async () => {
    for (const path of ['/api/v1/dev/outbox/email', '/api/v1/dev/outbox/sms']) {
      const answer = await call(production, 'GET', path);
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ error: 'not-found' });
    }
  });
});

describe('the dev outbox', () => {
  it('is absent with a real e-mail provider', async () => {
    const smtp = await startApi({
      databaseUrl: database.url,
      redisPrefix: testRedisPrefix(),
      env: { EMAIL_PROVIDER: 'smtp' },
    });
    try {
      expect((await call(smtp, 'GET', '/api/v1/dev/outbox/email')).status).toBe(404);
    } finally {
      await smtp.close();
    }
  });

  it('lists no text messages until tracking sends them', async () => {
    const answer = await call(api, 'GET', '/api/v1/dev/outbox/sms');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([]);
  });
});
