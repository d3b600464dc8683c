import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/src/free-port';
import { startRedis } from '../../infra/src/redis';
import { startApi, testRedisPrefix, type TestApi } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';
import { LiveSessions } from './live-sessions';
import { report } from './processes';

/**
 * Issue 18: `kill -9` Redis for 5 s under 1,000 live sessions (callers on instance B, their
 * dispatchers on A, so every fix crosses Redis). Redis comes back empty, as a restarted cache
 * without persistence does: the sequencer re-seeds each session from Postgres.
 */
const sessions = 1_000;
const outageMs = 5_000;

let database: TestDatabase;
let dataDir: string;
let port: number;
let redis: { url: string; pid?: number; stop(): Promise<void> };
let apiA: TestApi;
let apiB: TestApi;
let live: LiveSessions | undefined;

const startPrivate = () => startRedis({ dataDir, port, persistent: false });

beforeAll(async () => {
  database = await freshDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'locus-fault-redis-'));
  port = await freePort();
  redis = await startPrivate();
  const redisPrefix = testRedisPrefix();
  const env = { REDIS_URL: redis.url, DB_POOL_MAX: '8' };
  apiA = await startApi({ databaseUrl: database.url, redisPrefix, env });
  apiB = await startApi({ databaseUrl: database.url, redisPrefix, env });
});

afterAll(async () => {
  await live?.close();
  await apiA?.close();
  await apiB?.close();
  await redis?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  await database?.drop();
});

describe('Redis killed under live sessions', () => {
  it('resumes every dispatcher within 5 s of its return, with no gap, and every fix delivered and stored once', async () => {
    live = await LiveSessions.open({
      db: database.db,
      sessions,
      fixEveryMs: 2_000,
      dispatcherBase: () => apiA.wsUrl,
      callerBase: () => apiB.wsUrl,
    });
    await live.start();
    await new Promise((resolve) => setTimeout(resolve, 4_000));

    process.kill(redis.pid!, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, outageMs));
    redis = await startPrivate();
    const returnedAt = Date.now();
    const resumedMs = await live.waitResumed(returnedAt, 30_000);

    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await live.settle(30_000);
    await apiA.app.locus.writer.flush();
    await apiB.app.locus.writer.flush();
    const stored = await live.stored();
    const figures = report('Redis kill -9 for 5 s under 1,000 sessions', {
      ...live.figures(),
      resumedAfterRedisReturnedMs: resumedMs,
      stored,
    });
    expect(figures.resumedAfterRedisReturnedMs).toBeLessThanOrEqual(5_000);
    expect(figures.gaps).toBe(0);
    expect(figures.seqReused).toBe(0);
    expect(figures.undelivered).toBe(0);
    expect(stored.rows).toBe(stored.taken);
    expect(stored.distinct).toBe(stored.taken);
  }, 180_000);
});
