import type { FastifyInstance } from 'fastify';
import type { ApiConfig } from '../../config';
import type { Metrics } from '../../platform/metrics';
import type { Queues } from '../../platform/queues';
import type { Database } from '@locus/db';
import type { Redis } from 'ioredis';
import type { DbPool } from './collectors';
import { startHistory } from './history';
import { startApiHeartbeat } from './instance-heartbeat';
import { platformStatusRoutes } from './routes';

export interface PlatformStatusDeps {
  db: Database;
  pool: DbPool;
  redis: Redis;
  config: ApiConfig;
  queues: Queues;
  metrics: Metrics;
  persistence: { lagMs(): number; readonly pending: number };
  instanceId: string;
  version: string;
}

/**
 * The platform status: this instance's heartbeat, its share of the history sampling, and the
 * status call. Both timers stop, and the heartbeat key is deleted, as the instance closes.
 */
export function registerPlatformStatus(app: FastifyInstance, deps: PlatformStatusDeps): void {
  const { config } = deps;
  const heartbeat = startApiHeartbeat({
    redis: deps.redis,
    redisKeyPrefix: config.REDIS_KEY_PREFIX,
    instanceId: deps.instanceId,
    version: deps.version,
    metrics: deps.metrics,
    persistence: deps.persistence,
    log: app.log,
  });
  const stopHistory = startHistory({
    db: deps.db,
    redis: deps.redis,
    redisKeyPrefix: config.REDIS_KEY_PREFIX,
    queues: deps.queues.all,
    instanceId: deps.instanceId,
    onError: (error) => app.log.warn({ err: error }, 'platform status sample not taken'),
  });
  app.addHook('preClose', async () => {
    stopHistory();
    await heartbeat.stop();
  });
  platformStatusRoutes(app, {
    db: deps.db,
    pool: deps.pool,
    redis: deps.redis,
    redisKeyPrefix: config.REDIS_KEY_PREFIX,
    queues: deps.queues.all,
    thresholds: config.STATUS_THRESHOLDS,
    devOutbox: config.DEV_OUTBOX === 'on',
  });
}
