import { join } from 'node:path';
import { freePort } from './free-port';
import { startEmbeddedPostgres, type RunningService } from './postgres';
import { startRedis } from './redis';
import { ensureApertium } from './system-packages';

export interface LocalServices {
  databaseUrl: string;
  redisUrl: string;
  stop(): Promise<void>;
}

/**
 * Uses DATABASE_URL and REDIS_URL when set; otherwise starts embedded Postgres and
 * redis-server with their data under `dataRoot`. `persistent: false` (tests) throws the data
 * away on stop.
 */
export async function localServices(options: {
  dataRoot: string;
  persistent: boolean;
  postgresPort?: number;
  redisPort?: number;
  useExternal?: boolean;
}): Promise<LocalServices> {
  const started: RunningService[] = [];
  const useExternal = options.useExternal ?? true;
  // The chat's default, offline translation engine: like redis-server, installed when missing
  // (as root) or explained; the product starts either way.
  if ((process.env.TRANSLATION_PROVIDER ?? 'apertium') === 'apertium') ensureApertium();
  try {
    let databaseUrl = useExternal ? process.env.DATABASE_URL : undefined;
    if (!databaseUrl) {
      const pg = await startEmbeddedPostgres({
        dataDir: join(options.dataRoot, 'postgres'),
        port: options.postgresPort ?? (await freePort()),
        database: 'locus',
        persistent: options.persistent,
      });
      started.push(pg);
      databaseUrl = pg.url;
    }
    let redisUrl = useExternal ? process.env.REDIS_URL : undefined;
    if (!redisUrl) {
      const redis = await startRedis({
        dataDir: join(options.dataRoot, 'redis'),
        port: options.redisPort ?? (await freePort()),
        persistent: options.persistent,
      });
      started.push(redis);
      redisUrl = redis.url;
    }
    return {
      databaseUrl,
      redisUrl,
      stop: async () => {
        for (const service of started.reverse()) await service.stop();
      },
    };
  } catch (error) {
    for (const service of started.reverse()) await service.stop().catch(() => undefined);
    throw error;
  }
}
