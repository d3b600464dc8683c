import type { Health } from '@locus/contract';
import type { Database } from '@locus/db';
import type { Redis } from 'ioredis';
import { pingDatabase } from './repo';

const TIMEOUT_MS = 2_000;

async function timed(check: () => Promise<unknown>): Promise<Health['checks']['postgres']> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${TIMEOUT_MS} ms`)),
          TIMEOUT_MS,
        );
      }),
    ]);
    return { ok: true, latencyMs: Math.round((performance.now() - started) * 100) / 100 };
  } catch (error) {
    return {
      ok: false,
      latencyMs: Math.round(performance.now() - started),
      error: error instanceof Error ? error.message : String(error),
    };
  } finally {
    clearTimeout(timer);
  }
}

export async function checkHealth(db: Database, redis: Redis, version: string): Promise<Health> {
  const [postgres, redisCheck] = await Promise.all([
    timed(() => pingDatabase(db)),
    timed(() => redis.ping()),
  ]);
  return {
    status: postgres.ok && redisCheck.ok ? 'ok' : 'unavailable',
    checks: { postgres, redis: redisCheck },
    version,
  };
}
