import type { Health, Readiness } from '@locus/contract';
import type { Database } from '@locus/db';
import { readInstances } from '@locus/heartbeat';
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
  /** The instance is stopping (SIGTERM, `SHUTDOWN_DRAIN_MS`): 503 `draining`, still serving. */
  draining?: () => boolean;
}

async function workerCheck(
  redis: Redis,
  redisKeyPrefix: string,
): Promise<Health['checks']['worker']> {
  try {
    // Any worker whose instance heartbeat (`@locus/heartbeat`) has not expired; the freshest beat.
    const now = Date.now();
    const ages = (await withTimeout(readInstances(redis, redisKeyPrefix, now)))
      .filter((each) => each.alive && each.heartbeat.role === 'worker')
      .map((each) => Math.max(0, now - Date.parse(each.heartbeat.at)));
    return ages.length === 0
      ? { ok: false, lastHeartbeatMsAgo: null }
      : { ok: true, lastHeartbeatMsAgo: Math.min(...ages) };
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
    status: servingStatus(sources, postgres.ok && redisCheck.ok),
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

/**
 * Kubernetes readiness: only what this instance needs to serve. The worker and the persistence
 * lag are left out on purpose: taking every API instance out of rotation for a worker outage
 * would turn a degraded platform into a dead one.
 */
export async function checkReadiness(
  sources: Pick<HealthSources, 'db' | 'redis' | 'draining'>,
): Promise<Readiness> {
  const [postgres, redisCheck] = await Promise.all([
    timed(() => pingDatabase(sources.db)),
    timed(() => sources.redis.ping()),
  ]);
  return {
    status: servingStatus(sources, postgres.ok && redisCheck.ok),
    checks: { postgres, redis: redisCheck },
  };
}

/** Draining wins: a stopping instance must leave the rotation whatever its connections say. */
function servingStatus(
  sources: Pick<HealthSources, 'draining'>,
  reachable: boolean,
): Health['status'] {
  if (sources.draining?.()) return 'draining';
  return reachable ? 'ok' : 'unavailable';
}
