import type { InstanceHeartbeat } from '@locus/contract';
import { startInstanceHeartbeat, type RunningHeartbeat } from '@locus/heartbeat';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Metrics } from '../../platform/metrics';
import { perBucket } from './latency';

const WINDOW_MS = 60_000;

/** A reading of this instance's cumulative counters. */
interface Reading {
  at: number;
  fixes: number;
  /** `locus_delivery_seconds` bucket counts, cumulative (`le`), `+Inf` last. */
  delivered: number[];
}

export interface ApiHeartbeatSources {
  redis: Redis;
  redisKeyPrefix: string;
  instanceId: string;
  version: string;
  metrics: Metrics;
  persistence: { lagMs(): number; readonly pending: number };
  log: FastifyBaseLogger;
}

/**
 * This API instance's heartbeat (`@locus/heartbeat`) with its own figures: sockets by kind,
 * fixes accepted, persistence backlog, and its deliveries of the last minute. The counters are
 * cumulative in Prometheus; the last minute is the difference with the reading a minute ago.
 */
export function startApiHeartbeat(sources: ApiHeartbeatSources): RunningHeartbeat {
  const { metrics } = sources;
  const readings: Reading[] = [{ at: Date.now(), fixes: 0, delivered: [] }];

  const read = async (): Promise<Reading> => {
    const [fixes, delivery] = await Promise.all([
      metrics.fixesAccepted.get(),
      metrics.delivery.get(),
    ]);
    return {
      at: Date.now(),
      fixes: fixes.values[0]?.value ?? 0,
      delivered: delivery.values
        .filter((value) => value.metricName === 'locus_delivery_seconds_bucket')
        .map((value) => value.value),
    };
  };

  const figures = async (): Promise<Pick<InstanceHeartbeat, 'api'>> => {
    const now = await read();
    // The newest reading at least a minute old (or the first, while the instance is young).
    while (readings.length > 1 && now.at - readings[1]!.at >= WINDOW_MS) readings.shift();
    const then = readings[0]!;
    readings.push(now);
    const sockets: Record<string, number> = {};
    for (const value of (await metrics.sockets.get()).values) {
      const kind = value.labels.kind;
      if (typeof kind === 'string') sockets[kind] = value.value;
    }
    return {
      api: {
        sockets,
        fixesAccepted: now.fixes,
        fixesInWindow: now.fixes - then.fixes,
        windowMs: now.at - then.at,
        persistencePendingRows: sources.persistence.pending,
        persistenceOldestMs: sources.persistence.lagMs(),
        deliveryBuckets: perBucket(
          now.delivered.map((count, i) => count - (then.delivered[i] ?? 0)),
        ),
      },
    };
  };

  return startInstanceHeartbeat({
    redis: sources.redis,
    redisKeyPrefix: sources.redisKeyPrefix,
    id: `api-${sources.instanceId}`,
    role: 'api',
    version: sources.version,
    figures,
    onError: (error) => sources.log.warn({ err: error }, 'instance heartbeat not written'),
  });
}
