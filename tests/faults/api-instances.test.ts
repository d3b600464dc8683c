import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiProcess, type ApiProcess } from '../support/api-process';
import { testRedisPrefix } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';
import { LiveSessions } from './live-sessions';
import { startLoadBalancer, type LoadBalancer } from './load-balancer';
import { report } from './processes';

/**
 * Issue 18: two API processes behind HAProxy (the shipped deploy/haproxy.cfg), live callers and
 * dispatchers connected through it. One instance is SIGKILLed; then both are restarted one by
 * one, as a rolling deploy does, while REST requests keep coming.
 */
const sessions = 200;

let database: TestDatabase;
let apis: [ApiProcess, ApiProcess];
let lb: LoadBalancer;
let live: LiveSessions | undefined;
const redisPrefix = testRedisPrefix();

const start = (port?: number) =>
  startApiProcess({
    databaseUrl: database.url,
    redisPrefix,
    ...(port ? { port } : {}),
    env: { LOG_LEVEL: 'error', DB_POOL_MAX: '6' },
  });

beforeAll(async () => {
  database = await freshDatabase();
  apis = [await start(), await start()];
  lb = await startLoadBalancer([apis[0].port, apis[1].port]);
}, 300_000); // a fresh machine installs HAProxy first

afterAll(async () => {
  await live?.close();
  await lb?.stop();
  await Promise.all((apis ?? []).map((api) => api.stop()));
  await database?.drop();
});

/**
 * GET /api/v1/config through the balancer until stopped: what a console's page load sees. (Not
 * the health route: a stopping instance answers that 503 on purpose, to leave the rotation.)
 */
function pollRest(): {
  stop(): Promise<{ requests: number; failed: number; failures: string[] }>;
} {
  let running = true;
  let requests = 0;
  let failed = 0;
  const failures: string[] = [];
  const loop = (async () => {
    while (running) {
      requests += 1;
      const outcome = await fetch(`${lb.url}/api/v1/config`).then(
        (response) => String(response.status),
        (error: unknown) => String(error),
      );
      if (outcome !== '200') {
        failed += 1;
        failures.push(outcome);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return { requests, failed, failures };
    },
  };
}

describe('two API instances behind HAProxy', () => {
  it('moves the sockets of a SIGKILLed instance to the other within 10 s, and misses no fix', async () => {
    live = await LiveSessions.open({
      db: database.db,
      sessions,
      fixEveryMs: 1_000,
      dispatcherBase: () => lb.wsUrl,
      callerBase: () => lb.wsUrl,
      firstNumber: 4_000,
    });
    await live.start();
    await new Promise((resolve) => setTimeout(resolve, 3_000));

    await apis[0].kill();
    const killedAt = Date.now();
    try {
      const resumedMs = await live.waitResumed(killedAt, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      await live.settle(30_000);
      const stored = await storedEventually(live);
      const figures = report('one of two API instances SIGKILLed, 200 sessions', {
        ...live.figures(),
        everyDispatcherLiveAgainMs: resumedMs,
        stored,
        // Acked and delivered, but still in the killed process's batch writer: not in Postgres
        // (a known gap, docs/operations.md "Failure modes the fault suite proves").
        notStoredWithKilledInstance: stored.taken - stored.distinct,
      });
      expect(figures.everyDispatcherLiveAgainMs).toBeLessThanOrEqual(10_000);
      expect(figures.gaps).toBe(0);
      expect(figures.seqReused).toBe(0);
      expect(figures.undelivered).toBe(0);
      expect(stored.rows).toBe(stored.distinct);
      // No more than the killed writer's batch in the making (100 ms of about 200 fixes/s and
      // the sockets' events); a larger loss would be a new failure.
      expect(figures.notStoredWithKilledInstance).toBeLessThanOrEqual(100);
    } finally {
      apis[0] = await start(apis[0].port);
    }
  }, 180_000);

  it('restarts both instances one by one under load: no fix lost, no request failed', async () => {
    await live!.settle(30_000);
    const before = await live!.stored();
    const lostBefore = before.taken - before.distinct;
    live!.resume();
    const rest = pollRest();
    for (const index of [0, 1] as const) {
      const port = apis[index].port;
      expect(await apis[index].stop()).toBe(0);
      apis[index] = await start(port);
      // As a deploy tool does: the next instance stops only once the balancer uses this one.
      await lb.waitUp(index === 0 ? 'api-1' : 'api-2');
    }
    const restarted = Date.now();
    const resumedMs = await live!.waitResumed(restarted, 30_000);
    await live!.settle(30_000);
    const requests = await rest.stop();
    const stored = await storedEventually(live!, lostBefore);
    const figures = report('rolling restart of both API instances, 200 sessions', {
      ...live!.figures(),
      rest: requests,
      stored,
      notStoredSinceRestartBegan: stored.taken - stored.distinct - lostBefore,
      liveAfterRestartMs: resumedMs,
    });
    expect(figures.rest.failed).toBe(0);
    expect(figures.gaps).toBe(0);
    expect(figures.seqReused).toBe(0);
    expect(figures.undelivered).toBe(0);
    expect(stored.rows).toBe(stored.distinct);
    // A SIGTERM drains the batch writer: nothing acked is left unstored by a restart.
    expect(figures.notStoredSinceRestartBegan).toBe(0);
  }, 180_000);
});

/** What Postgres holds once the batch writers of the live instances have had their second. */
async function storedEventually(sessions: LiveSessions, missingBefore = 0) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const stored = await sessions.stored();
    if (stored.distinct >= stored.taken - missingBefore || Date.now() > deadline) return stored;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
