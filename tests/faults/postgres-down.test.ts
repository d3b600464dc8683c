import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '@locus/db';
import { call, signIn } from '../auth/support';
import { startApi, testRedisPrefix, type TestApi } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';
import { stallableProxy, type StallableProxy } from '../support/stallable-proxy';
import { LiveSessions } from './live-sessions';
import { report } from './processes';

/**
 * Issue 18: Postgres stopped for 10 s under live sessions. Both instances reach it through a
 * proxy that resets every connection and refuses new ones, as a stopped server does. REST
 * answers 503 with Retry-After (not 500), delivery goes on from Redis, and every fix taken
 * meanwhile is stored once Postgres is back.
 */
const sessions = 200;
const outageMs = 10_000;

let database: TestDatabase;
let proxy: StallableProxy;
let apiA: TestApi;
let apiB: TestApi;
let live: LiveSessions | undefined;

beforeAll(async () => {
  database = await freshDatabase();
  await seedDemo(database.db, 'development');
  proxy = await stallableProxy(database.url);
  const redisPrefix = testRedisPrefix();
  apiA = await startApi({ databaseUrl: proxy.url, redisPrefix });
  apiB = await startApi({ databaseUrl: proxy.url, redisPrefix });
});

afterAll(async () => {
  proxy?.resume();
  await live?.close();
  await apiA?.close();
  await apiB?.close();
  await proxy?.close();
  await database?.drop();
});

describe('Postgres stopped under live sessions', () => {
  it('answers REST with 503 and Retry-After, keeps delivering, and stores every fix afterwards', async () => {
    const dispatcher = await signIn(apiA, 'dispatcher@demo-county.test');
    live = await LiveSessions.open({
      db: database.db,
      sessions,
      fixEveryMs: 1_000,
      dispatcherBase: () => apiA.wsUrl,
      callerBase: () => apiB.wsUrl,
      firstNumber: 2_000,
    });
    await live.start();
    await new Promise((resolve) => setTimeout(resolve, 3_000));

    proxy.down();
    const downAt = Date.now();
    // Delivery goes on: every dispatcher gets fixes taken after Postgres stopped, while it is
    // still stopped.
    const deliveredWithin = await live.waitResumed(downAt + 500, outageMs - 2_000);
    const rest = await call(apiA, 'GET', '/api/v1/location/active-session', { token: dispatcher });
    const retryAfter = Number(rest.headers.get('retry-after'));
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, downAt + outageMs - Date.now())),
    );
    proxy.resume();

    await live.settle(30_000);
    await apiA.app.locus.writer.flush();
    await apiB.app.locus.writer.flush();
    const stored = await live.stored();
    const after = await call(apiA, 'GET', '/api/v1/location/active-session', {
      token: dispatcher,
    });
    const figures = report('Postgres stopped for 10 s under 200 sessions', {
      ...live.figures(),
      restStatusDuringOutage: rest.status,
      retryAfterSeconds: retryAfter,
      deliveryDuringOutageMs: deliveredWithin,
      restStatusAfter: after.status,
      stored,
    });
    expect(figures.restStatusDuringOutage).toBe(503);
    expect(figures.retryAfterSeconds).toBeGreaterThan(0);
    expect(figures.restStatusAfter).toBe(200);
    expect(figures.gaps).toBe(0);
    expect(figures.seqReused).toBe(0);
    expect(figures.undelivered).toBe(0);
    expect(stored.rows).toBe(stored.taken);
    expect(stored.distinct).toBe(stored.taken);
  }, 120_000);
});
