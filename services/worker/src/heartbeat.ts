import { workerHeartbeat } from '@locus/contract';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * Writes this worker's heartbeat now and every few seconds, for the API's health check (a
 * worker that is down means no text, no e-mail and no lookup goes out). Returns the stop.
 */
export function startHeartbeat(redis: Redis, redisKeyPrefix: string, log: Logger): () => void {
  const beat = () =>
    redis
      .set(workerHeartbeat.key(redisKeyPrefix), String(Date.now()), 'PX', workerHeartbeat.expireMs)
      .catch((error: unknown) => log.warn({ err: error }, 'worker heartbeat not written'));
  void beat();
  const timer = setInterval(() => void beat(), workerHeartbeat.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
