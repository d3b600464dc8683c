import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiProcess, type ApiProcess } from '../support/api-process';
import { testRedisPrefix } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';
import { holdSessionRows } from '../support/session-locks';
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
    // As deploy/compose.yaml runs them behind this HAProxy configuration.
    env: { LOG_LEVEL: 'error', DB_POOL_MAX: '6', SHUTDOWN_DRAIN_MS: '5000' },
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
 * Requests through the balancer until stopped, as consoles make them: GET /api/v1/config (a page
 * load; HAProxy may retry a read on the other instance) and a POST, which HAProxy never replays,
 * so it fails if it reaches an instance that refuses it: sign-up's agency search, which reads
 * Postgres and stores nothing. (Not the health route: a
 * stopping instance answers that 503 on purpose, to leave the rotation.)
 */
function pollRest(): {
  stop(): Promise<{ requests: number; failed: number; failures: string[] }>;
} {
  let running = true;
  let requests = 0;
  let failed = 0;
  const failures: string[] = [];
  const attempt = async (expected: string, request: () => Promise<Response>) => {
    requests += 1;
    const outcome = await request().then(
      (response) => String(response.status),
      (error: unknown) => String(error),
    );
    if (outcome !== expected) {
      failed += 1;
      failures.push(outcome);
    }
  };
  const loop = (async () => {
    while (running) {
      await attempt('200', () => fetch(`${lb.url}/api/v1/config`));
      await attempt('200', () =>
        fetch(`${lb.url}/api/v1/psap/search`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ searchTerm: 'county' }),
        }),
      );
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

    // Postgres slow for the last second before the kill (the sessions' rows locked, which every
    // batch touching them waits for), so that the killed instance surely has acked rows it has
    // not written: the ones its write journal must bring back.
    const slow = await holdSessionRows(database.db, live.sessionIds());
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await apis[0].kill();
    const killedAt = Date.now();
    await slow.release();
    try {
      const resumedMs = await live.waitResumed(killedAt, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      await live.settle(30_000);
      // Acked and delivered, but still in the killed process's batch writer: written from its
      // write journal by the survivor once the journal's owner key expires (15 s).
      const stored = await storedEventually(live, 0, 40_000);
      const figures = report('one of two API instances SIGKILLed, 200 sessions', {
        ...live.figures(),
        everyDispatcherLiveAgainMs: resumedMs,
        stored,
        allStoredAfterKillMs: Date.now() - killedAt,
        writtenFromKilledJournal: await journalRowsRecovered(apis[1]),
        notStoredWithKilledInstance: stored.taken - stored.distinct,
      });
      expect(figures.everyDispatcherLiveAgainMs).toBeLessThanOrEqual(10_000);
      expect(figures.gaps).toBe(0);
      expect(figures.seqReused).toBe(0);
      expect(figures.undelivered).toBe(0);
      expect(stored.rows).toBe(stored.distinct);
      expect(figures.writtenFromKilledJournal).toBeGreaterThan(0);
      expect(figures.notStoredWithKilledInstance).toBe(0);
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

/** `locus_journal_rows_recovered_total` of an instance: rows it wrote for a dead one. */
async function journalRowsRecovered(api: ApiProcess): Promise<number> {
  const text = await (await fetch(`${api.url}/metrics`)).text();
  const line = text
    .split('\n')
    .find((each) => each.startsWith('locus_journal_rows_recovered_total'));
  return Number(line?.split(' ')[1] ?? NaN);
}

/** What Postgres holds once every fix taken is there, or once `waitMs` have passed. */
async function storedEventually(sessions: LiveSessions, missingBefore = 0, waitMs = 10_000) {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const stored = await sessions.stored();
    if (stored.distinct >= stored.taken - missingBefore || Date.now() > deadline) return stored;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
