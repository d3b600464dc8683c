import { workerHeartbeat, type Health } from '@locus/contract';
import type { Database } from '@locus/db';
import type { Redis } from 'ioredis';
import { pingDatabase } from './repo';

const TIMEOUT_MS = 2_000;

async function timed(check: () => Promise<unknown>): Promise<Health['checks']['postgres']> {
  const started = performance.now();
  try {
    await withTimeout(check());
    return { ok: true, latencyMs: Math.round((performance.now() - started) * 100) / 100 };
  } catch (error) {
    return {
      ok: false,
      latencyMs: Math.round(performance.now() - started),
      error: error instanceof Error ? error.message : String(error),
    };
  }
}

/** Fixes waiting longer than this for Postgres make the persistence check fail. */
export const persistenceLagLimitMs = 5_000;

export interface HealthSources {
  db: Database;
  redis: Redis;
  redisKeyPrefix: string;
  version: string;
  /** This instance's batch writer. */
  persistence: { lagMs(): number; readonly pending: number };
}

async function workerCheck(
  redis: Redis,
  redisKeyPrefix: string,
): Promise<Health['checks']['worker']> {
  try {
    const beat = await withTimeout(redis.get(workerHeartbeat.key(redisKeyPrefix)));
    const ago = beat === null ? null : Math.max(0, Date.now() - Number(beat));
    return { ok: ago !== null && ago <= workerHeartbeat.staleAfterMs, lastHeartbeatMsAgo: ago };
  } catch {
    return { ok: false, lastHeartbeatMsAgo: null };
  }
}

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
}

export async function checkHealth(sources: HealthSources): Promise<Health> {
  const { db, redis } = sources;
  const [postgres, redisCheck, worker] = await Promise.all([
    timed(() => pingDatabase(db)),
    timed(() => redis.ping()),
    workerCheck(redis, sources.redisKeyPrefix),
  ]);
  const lagMs = sources.persistence.lagMs();
  return {
    status: postgres.ok && redisCheck.ok ? 'ok' : 'unavailable',
    checks: {
      postgres,
      redis: redisCheck,
      worker,
      persistence: {
        ok: lagMs <= persistenceLagLimitMs,
        lagMs,
        pendingRows: sources.persistence.pending,
      },
    },
    version: sources.version,
  };
}
