import { bullPrefix, instanceHeartbeat, jobs } from '@locus/contract';
import { seedDemo } from '@locus/db';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, startAuthStack, type AuthStack } from '../auth/support';
import { startApi, testRedisPrefix } from '../support/api';
import { freshDatabase } from '../support/database';
import { testEnvironment } from '../support/environment';

// Issue 17's probe, items 5 and 9: bad input is a 400, never a 500; what operators see is
// not public; signed-in answers are not cached; the queue board shows no stack traces; health
// says whether the workers live and whether fixes reach Postgres.

let stack: AuthStack;

beforeAll(async () => {
  stack = await startAuthStack();
});

afterAll(async () => {
  await stack?.close();
});

async function demoRequestCount(): Promise<number> {
  const row = await stack.database.db
    .selectFrom('demo_requests')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

describe('bad input is a 400 that changes nothing', () => {
  it('refuses a NUL character in the anonymous demo-request form, and stores nothing', async () => {
    const before = await demoRequestCount();
    const answer = await call(stack.api, 'POST', '/api/v1/auth/demo-request', {
      body: {
        firstName: 'Ada\u0000',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        phoneNumber: '+12025550123',
        companyName: 'Analytical Engines',
      },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: 'validation-failed',
      message: expect.any(String),
      issues: [{ path: 'firstName', message: 'Must not contain control characters' }],
    });
    expect(await demoRequestCount()).toBe(before);
  });

  it('refuses a NUL character in a search field', async () => {
    const token = await signIn(stack.api, 'dispatcher@demo-county.test');
    const answer = await call(stack.api, 'POST', '/api/v1/psap/search', {
      body: { searchTerm: 'Demo\u0000County' },
      token,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'validation-failed' });
  });

  it('refuses agency ids beyond the integer range, in a path and in a body', async () => {
    for (const id of ['2147483648', '1e308', '9007199254740993']) {
      const answer = await call(stack.api, 'GET', `/api/v1/psap/${id}`);
      expect(answer.status, id).toBe(400);
      expect(answer.body).toMatchObject({ error: 'validation-failed' });
    }
    const token = await signIn(stack.api, 'dispatcher@demo-county.test');
    for (const psapPrimaryKey of [2147483648, 1e308]) {
      const answer = await call(stack.api, 'POST', '/api/v1/auth/complete-registration', {
        body: { psapPrimaryKey },
        token,
      });
      expect(answer.status, String(psapPrimaryKey)).toBe(400);
      expect(answer.body).toMatchObject({
        error: 'validation-failed',
        issues: [expect.objectContaining({ path: 'psapPrimaryKey' })],
      });
    }
  });
});

describe('while Postgres is down', () => {
  it('answers 503 with Retry-After, not 500, to sign-in and to signed-in requests', async () => {
    const broken = await startApi({
      databaseUrl: 'postgres://nobody:wrong@127.0.0.1:1/none',
      redisPrefix: testRedisPrefix(),
    });
    try {
      const signInAnswer = await call(broken, 'POST', '/api/v1/auth/sign-in', {
        body: { email: 'dispatcher@demo-county.test', password: 'whatever-it-is' },
      });
      expect(signInAnswer.status).toBe(503);
      expect(signInAnswer.headers.get('retry-after')).toBe('5');
      expect(signInAnswer.body).toEqual({
        error: 'service-unavailable',
        message: expect.any(String),
      });
      const current = await call(broken, 'GET', '/api/v1/auth/current-user', {
        token: 'a'.repeat(43),
      });
      expect(current.status).toBe(503);
      expect(current.headers.get('retry-after')).toBe('5');
    } finally {
      await broken.close();
    }
  });
});

describe('/metrics', () => {
  it('is open to the configured scrape network only, and otherwise to platform admins', async () => {
    // The tests talk from 127.0.0.1, which is outside this network.
    const api = await startApi({
      databaseUrl: stack.database.url,
      redisPrefix: stack.redisPrefix,
      env: { METRICS_ALLOW_CIDRS: '10.0.0.0/8', AUTH_RATE_LIMIT_MAX: '10000' },
    });
    try {
      const metrics = (token?: string) =>
        fetch(`${api.url}/metrics`, {
          headers: token ? { authorization: `Bearer ${token}` } : {},
        });
      const anonymous = await metrics();
      expect(anonymous.status).toBe(403);
      expect(await anonymous.text()).not.toContain('locus_fixes_accepted_total');
      expect((await metrics(await signIn(api, 'dispatcher@demo-county.test'))).status).toBe(403);
      expect((await metrics(await signIn(api, 'teamadmin@demo-county.test'))).status).toBe(403);
      const admin = await metrics(await signIn(api, 'owner@locus.test'));
      expect(admin.status).toBe(200);
      expect(await admin.text()).toContain('locus_fixes_accepted_total');
    } finally {
      await api.close();
    }
  });

  it('refuses to start with a scrape network that is not one', () => {
    return expect(
      startApi({
        databaseUrl: stack.database.url,
        redisPrefix: stack.redisPrefix,
        env: { METRICS_ALLOW_CIDRS: 'everyone' },
      }),
    ).rejects.toThrow(/METRICS_ALLOW_CIDRS/);
  });
});

describe('caching', () => {
  it('marks every signed-in answer no-store, so a shared computer keeps no caller data', async () => {
    const token = await signIn(stack.api, 'dispatcher@demo-county.test');
    const current = await call(stack.api, 'GET', '/api/v1/auth/current-user', { token });
    expect(current.status).toBe(200);
    expect(current.headers.get('cache-control')).toBe('no-store');
    // A refusal carries it too: it may still say who the token belongs to.
    const refused = await call(stack.api, 'GET', '/api/v1/auth/current-user', {
      token: 'b'.repeat(43),
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('cache-control')).toBe('no-store');
  });
});

describe('the queue board', () => {
  it('shows why a job failed but never its stack trace', async () => {
    const connection = new Redis(testEnvironment.redisUrl(), { maxRetriesPerRequest: null });
    const prefix = bullPrefix(stack.redisPrefix);
    const queue = new Queue(jobs.emailSend.queue, { connection, prefix });
    const events = new QueueEvents(jobs.emailSend.queue, { connection, prefix });
    try {
      await events.waitUntilReady();
      // The worker validates every payload again: this one fails at once, with a ZodError.
      const job = await queue.add(
        jobs.emailSend.name,
        { emailId: 'not-a-uuid' },
        { ...jobs.emailSend.options, attempts: 1 },
      );
      await expect(job.waitUntilFinished(events, 30_000)).rejects.toThrow();

      const signedIn = await call(stack.api, 'POST', '/api/v1/auth/sign-in', {
        body: { email: 'owner@locus.test', password: 'Locus-demo-2026' },
      });
      const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;
      const board = await fetch(
        `${stack.api.url}/admin/queues/api/queues?activeQueue=${jobs.emailSend.queue}&status=failed&page=1`,
        { headers: { cookie } },
      );
      expect(board.status).toBe(200);
      const body = (await board.json()) as {
        queues: {
          name: string;
          jobs: { id: string; failedReason?: string; stacktrace?: string[] }[];
        }[];
      };
      const shown = body.queues
        .find((each) => each.name === jobs.emailSend.queue)
        ?.jobs.find((each) => each.id === job.id);
      expect(shown?.failedReason).toBeTruthy();
      expect(shown?.stacktrace ?? []).toEqual([]);
      expect(JSON.stringify(body)).not.toMatch(/\n\s+at /);
    } finally {
      await events.close();
      await queue.close();
      await connection.quit();
    }
  });
});

describe('health', () => {
  it('reports the workers alive by their heartbeat, and the persistence lag', async () => {
    const answer = await call<{
      status: string;
      checks: {
        worker: { ok: boolean; lastHeartbeatMsAgo: number | null };
        persistence: { ok: boolean; lagMs: number; pendingRows: number };
      };
    }>(stack.api, 'GET', '/api/v1/health');
    expect(answer.status).toBe(200);
    expect(answer.body.checks.worker.ok).toBe(true);
    expect(answer.body.checks.worker.lastHeartbeatMsAgo).toBeLessThanOrEqual(
      instanceHeartbeat.expireMs,
    );
    expect(answer.body.checks.persistence).toMatchObject({ ok: true });
  });

  it('says no worker is alive when none has beaten, and stays up for the load balancer', async () => {
    const database = await freshDatabase();
    await seedDemo(database.db, 'development');
    const api = await startApi({ databaseUrl: database.url, redisPrefix: testRedisPrefix() });
    try {
      const answer = await call<{
        status: string;
        checks: { worker: { ok: boolean; lastHeartbeatMsAgo: number | null } };
      }>(api, 'GET', '/api/v1/health');
      expect(answer.status).toBe(200);
      expect(answer.body.status).toBe('ok');
      expect(answer.body.checks.worker).toEqual({ ok: false, lastHeartbeatMsAgo: null });
    } finally {
      await api.close();
      await database.drop();
    }
  });
});
