import { InstanceHeartbeat, instanceHeartbeat } from '@locus/contract';
import type { Redis } from 'ioredis';
import { hostname } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Instance heartbeats, written by every API instance and every worker and read by the API's
 * health check and platform status. Its own package because both services write them and
 * neither may import the other.
 */
export const heartbeatKeys = {
  /** One per process, expiring after `instanceHeartbeat.expireMs`: it exists while it beats. */
  alive: (redisKeyPrefix: string, id: string) => `${redisKeyPrefix}instance:${id}:alive`,
  /**
   * Every process's last beat, by id: a process that stopped beating is still listed (not
   * alive) until its last beat is `instanceHeartbeat.forgetAfterMs` old.
   */
  lastSeen: (redisKeyPrefix: string) => `${redisKeyPrefix}instances`,
};

/** The event-loop delay timer's period; the histogram's values include it. */
const RESOLUTION_MS = 10;

export interface HeartbeatOptions {
  redis: Redis;
  redisKeyPrefix: string;
  id: string;
  role: InstanceHeartbeat['role'];
  version: string;
  /** The role's own figures (an API instance's sockets, fixes, persistence and deliveries). */
  figures?: () => Promise<Pick<InstanceHeartbeat, 'api' | 'worker'>>;
  onError?: (error: unknown) => void;
}

export interface RunningHeartbeat {
  /**
   * Stops beating, deletes the alive key at once and records the clean stop: the process is
   * listed as stopped on purpose.
   */
  stop(): Promise<void>;
}

/** Beats now and every `instanceHeartbeat.intervalMs` until stopped. */
export function startInstanceHeartbeat(options: HeartbeatOptions): RunningHeartbeat {
  const { redis, redisKeyPrefix, id } = options;
  const startedAt = new Date().toISOString();
  const delay = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  delay.enable();
  let stopped = false;
  /** The last beat written, rewritten with `stoppedAt` when the process stops cleanly. */
  let last: InstanceHeartbeat | undefined;

  const beat = async () => {
    // The p99 of this interval only: reset after each reading.
    const lagMs = delay.count > 0 ? Math.max(0, delay.percentile(99) / 1e6 - RESOLUTION_MS) : 0;
    delay.reset();
    const memory = process.memoryUsage();
    const payload: InstanceHeartbeat = {
      id,
      role: options.role,
      version: options.version,
      hostname: hostname(),
      pid: process.pid,
      startedAt,
      at: new Date().toISOString(),
      eventLoopLagMs: Math.round(lagMs * 10) / 10,
      memoryRssBytes: memory.rss,
      heapUsedBytes: memory.heapUsed,
      ...(options.figures ? await options.figures() : {}),
    };
    if (stopped) return;
    last = payload;
    const json = JSON.stringify(payload);
    await redis
      .multi()
      .set(heartbeatKeys.alive(redisKeyPrefix, id), json, 'PX', instanceHeartbeat.expireMs)
      .hset(heartbeatKeys.lastSeen(redisKeyPrefix), id, json)
      .exec();
  };
  let running: Promise<void> | undefined;
  const beatOnce = () => {
    // While Redis does not answer, beats would pile up in the client's offline queue.
    if (running) return;
    running = beat()
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        running = undefined;
      });
  };
  beatOnce();
  const timer = setInterval(beatOnce, instanceHeartbeat.intervalMs);
  timer.unref();

  return {
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      delay.disable();
      // A beat in flight must not write the key again after it was deleted. Bounded: a
      // shutdown must not hang on a Redis that does not answer (the key then expires by itself).
      await settled(running, STOP_WAIT_MS);
      const goodbye = redis.multi().del(heartbeatKeys.alive(redisKeyPrefix, id));
      if (last) {
        const stoppedAt = new Date().toISOString();
        goodbye.hset(
          heartbeatKeys.lastSeen(redisKeyPrefix),
          id,
          JSON.stringify({ ...last, at: stoppedAt, stoppedAt }),
        );
      }
      await settled(
        goodbye.exec().catch((error: unknown) => options.onError?.(error)),
        STOP_WAIT_MS,
      );
    },
  };
}

const STOP_WAIT_MS = 2_000;

/** Waits for `promise`, or `ms` at most. */
async function settled(promise: Promise<unknown> | undefined, ms: number): Promise<void> {
  if (!promise) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    promise,
    new Promise((done) => {
      timer = setTimeout(done, ms);
    }),
  ]);
  clearTimeout(timer);
}

export interface SeenInstance {
  heartbeat: InstanceHeartbeat;
  /** Its alive key still exists. */
  alive: boolean;
}

/**
 * Every process that beat within `forgetAfterMs` (`forgetStoppedAfterMs` for one that stopped
 * cleanly), alive or not; forgets (deletes) the older ones
 * and any entry that does not parse (written by another version).
 */
export async function readInstances(
  redis: Redis,
  redisKeyPrefix: string,
  now = Date.now(),
): Promise<SeenInstance[]> {
  const lastSeenKey = heartbeatKeys.lastSeen(redisKeyPrefix);
  const entries = await redis.hgetall(lastSeenKey);
  const kept: InstanceHeartbeat[] = [];
  const forget: string[] = [];
  for (const [id, json] of Object.entries(entries)) {
    const parsed = parseHeartbeat(json);
    const forgetAfterMs = parsed?.stoppedAt
      ? instanceHeartbeat.forgetStoppedAfterMs
      : instanceHeartbeat.forgetAfterMs;
    if (parsed && now - Date.parse(parsed.at) <= forgetAfterMs) kept.push(parsed);
    else forget.push(id);
  }
  if (forget.length > 0) await redis.hdel(lastSeenKey, ...forget);
  if (kept.length === 0) return [];
  const pipeline = redis.pipeline();
  for (const each of kept) pipeline.exists(heartbeatKeys.alive(redisKeyPrefix, each.id));
  const exists = (await pipeline.exec()) ?? [];
  return kept.map((heartbeat, index) => ({
    heartbeat,
    alive: exists[index]?.[1] === 1,
  }));
}

function parseHeartbeat(json: string): InstanceHeartbeat | undefined {
  try {
    const parsed = InstanceHeartbeat.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
