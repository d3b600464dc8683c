import { openSession } from '@locus/api';
import { bullPrefix, instanceHeartbeat, jobs, PlatformStatus } from '@locus/contract';
import { seedDemo } from '@locus/db';
import { parseWorkerConfig, startWorkers } from '@locus/worker';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '../auth/support';
import { startApi, testRedisPrefix, type TestApi } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis';
import { fixAt, TestSocket } from '../support/sockets';

/**
 * Two API instances and one worker on a Redis of this file's own (the test changes its eviction
 * policy, which would disturb every other file on the shared one).
 */
let redisServer: PrivateRedis;
let database: TestDatabase;
let apiA: TestApi;
let apiB: TestApi;
let redis: Redis;
let redisPrefix: string;
let stopWorker: (() => Promise<void>) | undefined;
let ownerToken: string;

beforeAll(async () => {
  redisServer = await startPrivateRedis();
  database = await freshDatabase();
  await seedDemo(database.db, 'development');
  redisPrefix = testRedisPrefix();
  const env = { REDIS_URL: redisServer.url, AUTH_RATE_LIMIT_MAX: '10000' };
  apiA = await startApi({ databaseUrl: database.url, redisPrefix, env });
  apiB = await startApi({ databaseUrl: database.url, redisPrefix, env });
  const connection = new Redis(redisServer.url, { maxRetriesPerRequest: null });
  const workers = await startWorkers(
    parseWorkerConfig({
      DATABASE_URL: database.url,
      REDIS_URL: redisServer.url,
      REDIS_KEY_PREFIX: redisPrefix,
      LOG_LEVEL: 'silent',
    }),
    { db: database.db, connection, log: pino({ level: 'silent' }) },
  );
  stopWorker = async () => {
    stopWorker = undefined;
    await workers.close();
    await connection.quit();
  };
  redis = new Redis(redisServer.url);
  ownerToken = await signIn(apiA, 'owner@locus.test');
});

afterAll(async () => {
  await stopWorker?.();
  await apiA?.close();
  await apiB?.close();
  await redis?.quit();
  await database?.drop();
  await redisServer?.stop();
});

async function status(api: TestApi = apiA): Promise<PlatformStatus> {
  const answer = await call(api, 'GET', '/api/v1/platform/status', { token: ownerToken });
  expect(answer.status).toBe(200);
  return PlatformStatus.parse(answer.body);
}

/** Reads the status until `ok` holds or `withinMs` has passed; returns the last answer. */
async function statusUntil(
  ok: (answer: PlatformStatus) => boolean,
  withinMs: number,
  api: TestApi = apiA,
): Promise<PlatformStatus> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const answer = await status(api);
    if (ok(answer) || Date.now() > deadline) return answer;
    await new Promise((next) => setTimeout(next, 200));
  }
}

const apiId = (api: TestApi) => `api-${api.app.locus.instanceId}`;

describe('platform status', () => {
  it('lists both API instances and the worker as alive, from either instance', async () => {
    const answer = await statusUntil(
      (each) => each.instances.filter((instance) => instance.alive).length === 3,
      instanceHeartbeat.intervalMs * 2,
    );
    const alive = answer.instances.filter((instance) => instance.alive);
    expect(alive.map((instance) => instance.id)).toEqual(
      expect.arrayContaining([apiId(apiA), apiId(apiB)]),
    );
    expect(alive.filter((instance) => instance.role === 'worker')).toHaveLength(1);
    for (const instance of alive) {
      // Not asserted green: one process hosts them all here, and under a full run its event loop
      // or memory may cross a threshold (a fresh run saw red). What this test checks is that
      // each is alive and beating: no other note.
      const load = /^(Event-loop delay|It uses .* of memory)/;
      expect(instance.notes.filter((note) => !load.test(note))).toEqual([]);
      expect(instance.memoryRssBytes).toBeGreaterThan(0);
      expect(instance.pid).toBe(process.pid);
    }
    expect(answer.workers).toMatchObject({ alive: 1, level: 'green', notes: [] });
    // Its level depends on the suite's shared Postgres (other files' connections).
    expect(answer.postgres.reachable).toBe(true);
    expect(answer.postgres.server?.connections).toBeGreaterThan(0);
    expect(answer.postgres.pool.max).toBe(4);
    expect(answer.postgres.largestTables.length).toBeGreaterThan(0);
    expect(answer.redis).toMatchObject({ reachable: true, evictionPolicy: 'noeviction' });
    expect(answer.queues.map((queue) => queue.name).sort()).toEqual(
      [...new Set(Object.values(jobs).map((job) => job.queue))].sort(),
    );
    // The first history sample is taken as an instance starts.
    expect(answer.history.length).toBeGreaterThan(0);

    const fromB = await status(apiB);
    expect(fromB.instances.map((instance) => instance.id).sort()).toEqual(
      answer.instances.map((instance) => instance.id).sort(),
    );
  });

  it('measures fixes crossing instances: sockets, fixes per second and delivery latency', async () => {
    const session = await openSession(database.db, {
      callers: [{ phoneNumber: '+12025550123' }],
    });
    const dispatcher = await TestSocket.open(
      `${apiA.wsUrl}/api/v1/socket?token=${session.dispatcherToken}`,
    );
    const raw: string[] = [];
    dispatcher.ws.on('message', (data: Buffer) => raw.push(data.toString()));
    dispatcher.send('join', { sessionId: session.sessionId });
    await dispatcher.event('joined');
    const caller = await TestSocket.open(
      `${apiB.wsUrl}/api/v1/caller/socket?token=${session.callers[0]!.token}`,
    );
    const base = Date.now() - 60_000;
    for (let index = 0; index < 5; index += 1) {
      const fix = fixAt(base, index);
      caller.send('fix', fix);
      await caller.next(
        (frame) => frame.event === 'ack' && frame.data.capturedAt === fix.capturedAt,
      );
    }
    await dispatcher.count('new-location-available', 5);
    // The accepted-at stamp never reaches a dispatcher: every frame is the frame, as before.
    expect(raw.every((text) => text.startsWith('{"event":'))).toBe(true);

    const answer = await statusUntil(
      (each) =>
        each.realtime.deliveryP50Ms !== null &&
        (each.realtime.sockets.dispatcher ?? 0) >= 1 &&
        (each.realtime.sockets.caller ?? 0) >= 1,
      instanceHeartbeat.intervalMs * 3,
    );
    expect(answer.realtime.deliveryP50Ms).not.toBeNull();
    expect(answer.realtime.deliveryP99Ms).toBeGreaterThanOrEqual(answer.realtime.deliveryP50Ms!);
    expect(answer.realtime.fixesPerSecond).toBeGreaterThan(0);
    expect(answer.realtime.sockets).toMatchObject({ dispatcher: 1, caller: 1 });
    caller.ws.close();
    dispatcher.ws.close();
  });

  it('shows a queue with a failed job', async () => {
    // A malformed job: the worker checks every payload against the contract and fails it.
    const connection = redis.duplicate();
    const queue = new Queue(jobs.emailSend.queue, {
      connection,
      prefix: bullPrefix(redisPrefix),
    });
    try {
      await queue.add(jobs.emailSend.name, { emailId: 'not-a-uuid' }, { attempts: 1 });
    } finally {
      await queue.close();
      await connection.quit();
    }
    const answer = await statusUntil(
      (each) => (each.queues.find((card) => card.name === jobs.emailSend.queue)?.failed ?? 0) >= 1,
      15_000,
    );
    const card = answer.queues.find((each) => each.name === jobs.emailSend.queue)!;
    expect(card.failed).toBeGreaterThanOrEqual(1);
    expect(card.level).not.toBe('green');
    expect(card.notes.join(' ')).toMatch(/failed job/);
  });

  it('turns the Redis card red while keys may be evicted, and back', async () => {
    await redis.config('SET', 'maxmemory-policy', 'allkeys-lru');
    try {
      const red = await status();
      expect(red.redis.evictionPolicy).toBe('allkeys-lru');
      expect(red.redis.level).toBe('red');
      expect(red.level).toBe('red');
      expect(red.redis.notes.join(' ')).toMatch(/allkeys-lru.*lose data/);
    } finally {
      await redis.config('SET', 'maxmemory-policy', 'noeviction');
    }
    const back = await status();
    expect(back.redis.evictionPolicy).toBe('noeviction');
    expect(back.redis.notes.join(' ')).not.toMatch(/Eviction policy/);
  });

  it('is for the platform owner only: 403 for a team admin, 401 signed out', async () => {
    const teamAdmin = await signIn(apiA, 'teamadmin@demo-county.test');
    const refused = await call(apiA, 'GET', '/api/v1/platform/status', { token: teamAdmin });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'forbidden' });
    const anonymous = await call(apiA, 'GET', '/api/v1/platform/status');
    expect(anonymous.status).toBe(401);
  });

  it('lists a stopped worker as not alive, red, within its heartbeat expiry', async () => {
    const before = await status();
    const workerId = before.instances.find((each) => each.role === 'worker' && each.alive)!.id;
    const stoppedAt = Date.now();
    await stopWorker!();
    const answer = await statusUntil(
      (each) => each.instances.some((instance) => instance.id === workerId && !instance.alive),
      instanceHeartbeat.expireMs,
    );
    expect(Date.now() - stoppedAt).toBeLessThanOrEqual(instanceHeartbeat.expireMs);
    const worker = answer.instances.find((instance) => instance.id === workerId)!;
    // It said goodbye: stopped on purpose, and red because no other worker carries its work.
    expect(worker).toMatchObject({ alive: false, level: 'red' });
    expect(worker.stoppedAt).not.toBeNull();
    expect(worker.notes.join(' ')).toMatch(/Stopped cleanly .* no other worker process is alive/);
    expect(answer.workers).toMatchObject({ alive: 0, level: 'red' });
    expect(answer.workers.notes.join(' ')).toMatch(/No worker is alive/);
    expect(answer.level).toBe('red');
    // Health (for load balancers) agrees, and still answers 200.
    const health = await call<{ checks: { worker: { ok: boolean } } }>(
      apiA,
      'GET',
      '/api/v1/health',
    );
    expect(health.body.checks.worker.ok).toBe(false);
  });

  it('lists a worker process that died without a word as not alive once its heartbeat expires', async () => {
    // A worker as deployed, in its own OS process, killed so that it cannot delete its key.
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, '../../services/worker/src/main.ts')],
      {
        cwd: join(import.meta.dirname, '../..'),
        env: {
          ...process.env,
          DATABASE_URL: database.url,
          REDIS_URL: redisServer.url,
          REDIS_KEY_PREFIX: redisPrefix,
          LOG_LEVEL: 'silent',
        },
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    const exited = new Promise((done) => child.once('exit', done));
    try {
      const started = await statusUntil(
        (each) => each.instances.some((one) => one.pid === child.pid && one.alive),
        40_000,
      );
      const worker = started.instances.find((one) => one.pid === child.pid && one.alive);
      expect(worker).toMatchObject({ role: 'worker', alive: true });
      expect(started.workers.alive).toBe(1);

      const killedAt = Date.now();
      child.kill('SIGKILL');
      await exited;
      const answer = await statusUntil(
        (each) => each.instances.some((one) => one.id === worker!.id && !one.alive),
        instanceHeartbeat.expireMs + 2_000,
      );
      const dead = answer.instances.find((one) => one.id === worker!.id)!;
      expect(dead).toMatchObject({ alive: false, level: 'red', stoppedAt: null });
      expect(dead.notes.join(' ')).toMatch(/Stopped beating/);
      // Its key was written at most one beat interval before the kill, and expires after that.
      expect(Date.now() - killedAt).toBeLessThanOrEqual(instanceHeartbeat.expireMs + 1_000);
      expect(answer.workers).toMatchObject({ alive: 0, level: 'red' });
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 90_000);
});
