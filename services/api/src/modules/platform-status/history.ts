import { StatusSample, statusSampleIntervalMs } from '@locus/contract';
import type { Database } from '@locus/db';
import { readInstances } from '@locus/heartbeat';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { queueDepth, realtimeFigures } from './collectors';
import { textFailuresOfLastHour } from './repo';

/** One hour of samples. */
const KEEP = Math.round(3_600_000 / statusSampleIntervalMs);

export const historyKeys = {
  samples: (redisKeyPrefix: string) => `${redisKeyPrefix}platform-status:history`,
  /** Taken by the one instance that samples a given interval. */
  lock: (redisKeyPrefix: string, slot: number) =>
    `${redisKeyPrefix}platform-status:sample-lock:${slot}`,
};

export interface HistorySources {
  db: Database;
  redis: Redis;
  redisKeyPrefix: string;
  queues: readonly Queue[];
  instanceId: string;
  onError: (error: unknown) => void;
}

/**
 * Every `statusSampleIntervalMs`, one API instance (whichever takes that interval's lock first)
 * appends a sample to a capped Redis list: the sparklines of the last hour. Returns the stop.
 */
export function startHistory(sources: HistorySources): () => void {
  const { redis, redisKeyPrefix } = sources;
  const sample = async () => {
    const now = Date.now();
    // The lock is per interval (not a lease): each interval gets one sample, whichever
    // instance's timer fires first, even when the instances' timers drift apart.
    const slot = Math.floor(now / statusSampleIntervalMs);
    const taken = await redis.set(
      historyKeys.lock(redisKeyPrefix, slot),
      sources.instanceId,
      'PX',
      statusSampleIntervalMs * 2,
      'NX',
    );
    if (taken !== 'OK') return;
    // Each source on its own: during an incident (Postgres down) the other lines go on, and the
    // slot this instance locked is not lost.
    const [instances, depth, smsFailures] = await Promise.allSettled([
      readInstances(redis, redisKeyPrefix, now),
      queueDepth(sources.queues),
      textFailuresOfLastHour(sources.db),
    ]);
    const realtime = instances.status === 'fulfilled' ? realtimeFigures(instances.value) : null;
    const point: StatusSample = {
      at: new Date(now).toISOString(),
      fixesPerSecond: realtime?.fixesPerSecond ?? null,
      deliveryP99Ms: realtime?.deliveryP99Ms ?? null,
      queueDepth: depth.status === 'fulfilled' ? depth.value : null,
      smsFailures: smsFailures.status === 'fulfilled' ? smsFailures.value : null,
    };
    const key = historyKeys.samples(redisKeyPrefix);
    await redis.multi().rpush(key, JSON.stringify(point)).ltrim(key, -KEEP, -1).exec();
  };
  // At once too, so that a fresh deployment's screen has a first point.
  sample().catch(sources.onError);
  const timer = setInterval(() => {
    sample().catch(sources.onError);
  }, statusSampleIntervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** The last hour's samples, oldest first. */
export async function readHistory(
  redis: Redis,
  redisKeyPrefix: string,
  now = Date.now(),
): Promise<StatusSample[]> {
  const items = await redis.lrange(historyKeys.samples(redisKeyPrefix), 0, -1);
  // The list is capped by count; after a pause in sampling it may hold older points.
  const since = now - 3_600_000;
  return items.flatMap((item) => {
    try {
      const parsed = StatusSample.safeParse(JSON.parse(item));
      return parsed.success && Date.parse(parsed.data.at) >= since ? [parsed.data] : [];
    } catch {
      return [];
    }
  });
}
