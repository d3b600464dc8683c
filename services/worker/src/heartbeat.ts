import { startInstanceHeartbeat, type RunningHeartbeat } from '@locus/heartbeat';
import type { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import type { WorkerConfig } from './config';

const { version } = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
) as { version: string };

/**
 * Announces this worker in Redis (`@locus/heartbeat`), for the API's health check and the
 * platform status: a worker that is down means no text, no e-mail and no lookup goes out.
 */
export function startWorkerHeartbeat(
  config: WorkerConfig,
  redis: Redis,
  log: Logger,
): RunningHeartbeat {
  return startInstanceHeartbeat({
    redis,
    redisKeyPrefix: config.REDIS_KEY_PREFIX,
    id: `worker-${randomBytes(4).toString('hex')}`,
    role: 'worker',
    version,
    figures: () =>
      Promise.resolve({
        worker: {
          sms: config.SMS_PROVIDER,
          email: config.EMAIL_PROVIDER,
          lookup: config.LOOKUP_PROVIDER,
        },
      }),
    onError: (error) => log.warn({ err: error }, 'worker heartbeat not written'),
  });
}
