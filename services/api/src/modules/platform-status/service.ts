import { worstLevel, type PlatformStatus, type StatusThresholds } from '@locus/contract';
import type { Database } from '@locus/db';
import { readInstances, type SeenInstance } from '@locus/heartbeat';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  instanceStatus,
  lookupStatus,
  messagingStatus,
  postgresStatus,
  queueStatus,
  realtimeStatus,
  redisStatus,
  workersStatus,
  type DbPool,
} from './collectors';
import { readHistory } from './history';
import { withTimeout } from './standing';

export interface StatusSources {
  db: Database;
  /** This instance's pool, for its use. */
  pool: DbPool;
  redis: Redis;
  redisKeyPrefix: string;
  queues: readonly Queue[];
  thresholds: StatusThresholds;
  devOutbox: boolean;
}

/**
 * The platform's health as one answer: every figure read now (heartbeats, Postgres, Redis,
 * queues, the messaging and lookup tables), judged against the thresholds. A backend that does
 * not answer makes its card red; the rest is still reported.
 */
export async function platformStatus(sources: StatusSources): Promise<PlatformStatus> {
  const { db, redis, redisKeyPrefix, thresholds: t } = sources;
  const now = Date.now();
  const seen: SeenInstance[] | Error = await withTimeout(
    readInstances(redis, redisKeyPrefix, now),
  ).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
  const instances = seen instanceof Error ? [] : seen;
  const [postgres, redisCard, queues, messaging, lookups, history] = await Promise.all([
    postgresStatus(db, sources.pool, t),
    redisStatus(redis, t),
    Promise.all(sources.queues.map((queue) => queueStatus(queue, redis, t, now))),
    messagingStatus(db, t),
    lookupStatus(db, instances, t),
    withTimeout(readHistory(redis, redisKeyPrefix, now)).catch(() => []),
  ]);
  const instanceCards = instances
    .map((each) =>
      instanceStatus(
        each,
        t,
        now,
        instances.some(
          (other) => other !== each && other.alive && other.heartbeat.role === each.heartbeat.role,
        ),
      ),
    )
    // API instances first, then workers; the longest running first.
    .sort((a, b) => a.role.localeCompare(b.role) || a.startedAt.localeCompare(b.startedAt));
  const workers = workersStatus(seen);
  const realtime = realtimeStatus(instances, t);
  return {
    generatedAt: new Date(now).toISOString(),
    level: worstLevel([
      ...instanceCards.map((card) => card.level),
      workers.level,
      postgres.level,
      redisCard.level,
      ...queues.map((card) => card.level),
      realtime.level,
      messaging.level,
      lookups.level,
    ]),
    instances: instanceCards,
    workers,
    postgres,
    redis: redisCard,
    queues,
    realtime,
    messaging,
    lookups,
    history,
    thresholds: t,
    devOutbox: sources.devOutbox,
  };
}
