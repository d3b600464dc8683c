import { ApiConfig } from '@locus/api';
import { bullPrefix } from '@locus/contract';
import { parseWorkerConfig, startWorkers } from '@locus/worker';
import { Job, Worker, type Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, testRedisPrefix } from '../support/api';
import { testEnvironment } from '../support/environment';
import { call, signIn, startAuthStack, type AuthStack } from '../auth/support';

/**
 * Issue 22, the operations console: failed jobs (list, Retry, Discard, audited, race-safe 409s),
 * the redacted configuration, and health for machines (`/health/ready`, `/health/live`). A real
 * worker makes the jobs fail; only the platform owner's company may see or act on them.
 */
interface FailedJob {
  queue: string;
  id: string;
  name: string;
  failedReason: string;
  attemptsMade: number;
  maxAttempts: number;
  failedAt: string | null;
}
interface Page {
  items: FailedJob[];
  total: number;
  page: number;
  pageSize: number;
}
interface ErrorAnswer {
  error: string;
  message: string;
}

let stack: AuthStack;
let owner: string;
let teamAdmin: string;
let ownerId: string;
let stopWorker: (() => Promise<void>) | undefined;
let exportQueue: Queue;

// The worker validates every payload against the contract before running it: a malformed one
// fails at its first attempt, with no provider involved. The phone number and the address are
// what a payload must never leak to the console.
const badPayload = { sessionId: 'not-a-uuid', phone: '+12025550199', email: 'caller@example.com' };

async function failJob(jobId: string): Promise<void> {
  await exportQueue.add('export.upload', badPayload, { jobId, attempts: 1 });
}

async function failedList(query = ''): Promise<Page> {
  const answer = await call<Page>(stack.api, 'GET', `/api/v1/platform/jobs/failed${query}`, {
    token: owner,
  });
  expect(answer.status).toBe(200);
  return answer.body;
}

/** Polls the console's list until the job shows there as it should (the worker is another component). */
async function waitUntilListed(
  jobId: string,
  attemptsMade: number,
): Promise<FailedJob & { list: Page }> {
  for (;;) {
    const list = await failedList('?queue=export&pageSize=100');
    const job = list.items.find((each) => each.id === jobId);
    if (job && job.attemptsMade === attemptsMade) return { ...job, list };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function auditRows(action: string, subject: string) {
  return stack.database.db
    .selectFrom('audit_log')
    .select(['actor_user_id', 'action', 'subject', 'detail', 'team_id', 'ip'])
    .where('action', '=', action)
    .where('subject', '=', subject)
    .execute();
}

const retry = (queue: string, jobId: string, token = owner) =>
  call<ErrorAnswer>(stack.api, 'POST', `/api/v1/platform/jobs/${queue}/${jobId}/retry`, { token });
const discard = (queue: string, jobId: string, token = owner) =>
  call<ErrorAnswer>(stack.api, 'DELETE', `/api/v1/platform/jobs/${queue}/${jobId}`, { token });

beforeAll(async () => {
  // The worker is started here rather than by the stack, so that a test can stop it.
  stack = await startAuthStack({ worker: false });
  const connection = new Redis(testEnvironment.redisUrl(), { maxRetriesPerRequest: null });
  const workers = await startWorkers(
    parseWorkerConfig({
      DATABASE_URL: stack.database.url,
      REDIS_URL: testEnvironment.redisUrl(),
      REDIS_KEY_PREFIX: stack.redisPrefix,
      LOG_LEVEL: 'silent',
    }),
    { db: stack.database.db, connection, log: pino({ level: 'silent' }) },
  );
  stopWorker = async () => {
    await workers.close();
    await connection.quit();
  };
  exportQueue = stack.api.app.locus.queues.all.find((queue) => queue.name === 'export')!;
  owner = await signIn(stack.api, 'owner@locus.test');
  teamAdmin = await signIn(stack.api, 'teamadmin@demo-county.test');
  ownerId = (
    await call<{ id: string }>(stack.api, 'GET', '/api/v1/auth/current-user', { token: owner })
  ).body.id;
});

afterAll(async () => {
  await stopWorker?.();
  await stack?.close();
});

describe('failed jobs', () => {
  it('lists a job the worker failed, newest first, without its payload', async () => {
    await failJob('older');
    const older = await waitUntilListed('older', 1);
    await failJob('newer');
    const newer = await waitUntilListed('newer', 1);
    expect(newer).toMatchObject({
      queue: 'export',
      id: 'newer',
      name: 'export.upload',
      attemptsMade: 1,
      maxAttempts: 1,
    });
    expect(newer.failedReason).not.toBe('');
    expect(Date.parse(newer.failedAt!)).toBeGreaterThanOrEqual(Date.parse(older.failedAt!));

    // Every queue, paginated, newest first.
    const first = await failedList('?pageSize=1');
    const second = await failedList('?pageSize=1&page=2');
    expect(first.total).toBe(2);
    expect([first.items[0]?.id, second.items[0]?.id]).toEqual(['newer', 'older']);
    expect((await failedList('?queue=email')).items).toEqual([]);

    const everything = JSON.stringify(await failedList());
    expect(everything).not.toContain(badPayload.phone);
    expect(everything).not.toContain(badPayload.email);
    expect(everything).not.toContain('not-a-uuid');
  });

  it('runs a failed job again exactly once on Retry, audited', async () => {
    const answer = await retry('export', 'newer');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ queue: 'export', id: 'newer' });
    // It failed at its first attempt; the Retry ran one more, and nothing ran it a third time.
    const after = await waitUntilListed('newer', 2);
    expect(after.attemptsMade).toBe(2);
    expect(await (await Job.fromId(exportQueue, 'newer'))?.getState()).toBe('failed');

    const rows = await auditRows('job.retried', 'export/newer');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actor_user_id: ownerId,
      team_id: null,
      detail: { name: 'export.upload', attemptsMade: 1, failedReason: expect.any(String) },
    });
    expect(rows[0]?.ip).toBeTruthy();
  });

  it('answers 409 to a Retry of a job that has not failed or no longer exists, changing nothing', async () => {
    await exportQueue.add(
      'export.upload',
      { sessionId: crypto.randomUUID() },
      { jobId: 'later', delay: 3_600_000 },
    );
    const notFailed = await retry('export', 'later');
    expect(notFailed.status).toBe(409);
    expect(notFailed.body).toEqual({
      error: 'conflict',
      message: expect.stringMatching(/delayed/),
    });
    expect(await (await Job.fromId(exportQueue, 'later'))?.getState()).toBe('delayed');

    const missing = await retry('export', 'no-such-job');
    expect(missing.status).toBe(409);
    expect(missing.body).toEqual({
      error: 'conflict',
      message: expect.stringMatching(/no longer exists/),
    });
    expect(await auditRows('job.retried', 'export/later')).toHaveLength(0);
    expect(await auditRows('job.retried', 'export/no-such-job')).toHaveLength(0);
  });

  it('refuses everyone but a platform admin, and validates the queue name', async () => {
    const before = await failedList();
    for (const [method, path] of [
      ['GET', '/api/v1/platform/jobs/failed'],
      ['POST', '/api/v1/platform/jobs/export/older/retry'],
      ['DELETE', '/api/v1/platform/jobs/export/older'],
      ['GET', '/api/v1/platform/config'],
    ] as const) {
      const forbidden = await call<ErrorAnswer>(stack.api, method, path, { token: teamAdmin });
      expect(forbidden.status, `${method} ${path}`).toBe(403);
      expect(forbidden.body.error).toBe('forbidden');
      const anonymous = await call(stack.api, method, path);
      expect(anonymous.status, `${method} ${path}`).toBe(401);
    }
    expect(await failedList()).toEqual(before);
    expect(await (await Job.fromId(exportQueue, 'older'))?.getState()).toBe('failed');
    expect(await auditRows('job.retried', 'export/older')).toHaveLength(0);
    expect(await auditRows('job.discarded', 'export/older')).toHaveLength(0);

    for (const [method, path] of [
      ['GET', '/api/v1/platform/jobs/failed?queue=nope'],
      ['POST', '/api/v1/platform/jobs/nope/older/retry'],
      ['DELETE', '/api/v1/platform/jobs/nope/older'],
    ] as const) {
      const invalid = await call<ErrorAnswer>(stack.api, method, path, { token: owner });
      expect(invalid.status, `${method} ${path}`).toBe(400);
      expect(invalid.body.error).toBe('validation-failed');
    }
  });

  it('discards a failed job once, audited; a second Discard answers 409', async () => {
    const answer = await discard('export', 'older');
    expect(answer.status).toBe(204);
    expect(await Job.fromId(exportQueue, 'older')).toBeUndefined();
    expect((await failedList()).items.map((job) => job.id)).toEqual(['newer']);
    const rows = await auditRows('job.discarded', 'export/older');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actor_user_id: ownerId,
      detail: { name: 'export.upload', state: 'failed', attemptsMade: 1 },
    });

    const again = await discard('export', 'older');
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'conflict', message: expect.stringMatching(/no longer/) });
    expect(await auditRows('job.discarded', 'export/older')).toHaveLength(1);
  });

  it('lets only one of two simultaneous Retries through', async () => {
    // Without a worker the retried job stays waiting, so the second Retry meets it there.
    await stopWorker?.();
    stopWorker = undefined;
    const answers = await Promise.all([retry('export', 'newer'), retry('export', 'newer')]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(await (await Job.fromId(exportQueue, 'newer'))?.getState()).toBe('waiting');
    expect(await auditRows('job.retried', 'export/newer')).toHaveLength(2);
    // A waiting job may be discarded.
    expect((await discard('export', 'newer')).status).toBe(204);
  });

  it('answers 409 to a Discard of a running job, which keeps running', async () => {
    // A worker of our own takes the job and holds it active until we let it fail.
    const connection = new Redis(testEnvironment.redisUrl(), { maxRetriesPerRequest: null });
    const holder = new Worker('export', null, {
      connection,
      prefix: bullPrefix(stack.redisPrefix),
      autorun: false,
    });
    try {
      await exportQueue.add('export.upload', { sessionId: crypto.randomUUID() }, { jobId: 'busy' });
      const token = 'test-holder';
      const job = await holder.getNextJob(token);
      expect(job?.id).toBe('busy');
      expect(await job!.getState()).toBe('active');

      const running = await discard('export', 'busy');
      expect(running.status).toBe(409);
      expect(running.body).toEqual({
        error: 'conflict',
        message: expect.stringMatching(/running/),
      });
      expect(await job!.getState()).toBe('active');
      expect(await auditRows('job.discarded', 'export/busy')).toHaveLength(0);
      // Nor can it be retried while it runs.
      expect((await retry('export', 'busy')).status).toBe(409);

      await job!.moveToFailed(new Error('let go by the test'), token);
      expect((await discard('export', 'busy')).status).toBe(204);
    } finally {
      await holder.close();
      await connection.quit();
    }
  });
});

describe('configuration', () => {
  it('lists every key, with passwords and keys redacted', async () => {
    const answer = await call<{
      entries: { key: string; value: string | null; redacted: boolean }[];
    }>(stack.api, 'GET', '/api/v1/platform/config', { token: owner });
    expect(answer.status).toBe(200);
    const byKey = new Map(answer.body.entries.map((entry) => [entry.key, entry]));
    for (const key of Object.keys(ApiConfig.shape)) expect(byKey.has(key), key).toBe(true);
    expect(byKey.get('MFA_ENCRYPTION_KEY')).toEqual({
      key: 'MFA_ENCRYPTION_KEY',
      value: '[redacted]',
      redacted: true,
    });
    expect(byKey.get('REDIS_KEY_PREFIX')?.value).toBe(stack.redisPrefix);
    expect(byKey.get('NODE_ENV')?.value).toBe('test');
    // The test database's URL carries a password: only the part after the user name is hidden.
    const databaseUrl = new URL(stack.database.url);
    expect(databaseUrl.password).not.toBe('');
    expect(byKey.get('DATABASE_URL')).toEqual({
      key: 'DATABASE_URL',
      value: stack.database.url.replace(`:${databaseUrl.password}@`, ':[redacted]@'),
      redacted: true,
    });
    expect(byKey.get('WEBAUTHN_RP_NAME')).toMatchObject({ value: 'Locus', redacted: false });
    expect(JSON.stringify(answer.body)).not.toContain('dev-only-mfa-key');
  });
});

describe('health for machines', () => {
  it('answers live and ready while Postgres and Redis are up; /health keeps its shape', async () => {
    const live = await call(stack.api, 'GET', '/api/v1/health/live');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: 'ok', version: expect.any(String) });
    const ready = await call(stack.api, 'GET', '/api/v1/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'ok',
      checks: {
        postgres: { ok: true, latencyMs: expect.any(Number) },
        redis: { ok: true, latencyMs: expect.any(Number) },
      },
    });
    const health = await call<Record<string, unknown>>(stack.api, 'GET', '/api/v1/health');
    expect(health.status).toBe(200);
    expect(Object.keys(health.body).sort()).toEqual(['checks', 'status', 'version']);
    expect(Object.keys(health.body.checks as object).sort()).toEqual([
      'persistence',
      'postgres',
      'redis',
      'worker',
    ]);
  });

  it('is not ready while Postgres is unreachable, and still alive', async () => {
    const broken = await startApi({
      databaseUrl: 'postgres://nobody:wrong@127.0.0.1:1/none',
      redisPrefix: testRedisPrefix(),
    });
    try {
      const ready = await call<{
        status: string;
        checks: { postgres: { ok: boolean; error?: string }; redis: { ok: boolean } };
      }>(broken, 'GET', '/api/v1/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.body.status).toBe('unavailable');
      expect(ready.body.checks.postgres).toMatchObject({ ok: false, error: expect.any(String) });
      expect(ready.body.checks.redis.ok).toBe(true);
      expect(JSON.stringify(ready.body)).not.toContain('wrong');
      const live = await call(broken, 'GET', '/api/v1/health/live');
      expect(live.status).toBe(200);
      expect(live.body).toMatchObject({ status: 'ok' });
    } finally {
      await broken.close();
    }
  });
});
