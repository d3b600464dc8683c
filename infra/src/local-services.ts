import { join } from 'node:path';
import { freePort } from './free-port';
import { startEmbeddedPostgres, type RunningService } from './postgres';
import { startRedis } from './redis';
import { startS3Server, type S3Endpoint } from './s3-server';
import { ensureApertium } from './system-packages';

export interface LocalServices {
  databaseUrl: string;
  redisUrl: string;
  /** The embedded S3-compatible server for exports, when one was asked for and started. */
  s3?: S3Endpoint;
  stop(): Promise<void>;
}

/**
 * Uses DATABASE_URL and REDIS_URL when set; otherwise starts embedded Postgres and
 * redis-server with their data under `dataRoot`. `persistent: false` (tests) throws the data
 * away on stop. `s3: true` also starts an S3-compatible server (s3rver, data under
 * `dataRoot/s3`) for the worker's exports, unless the environment already chose an
 * EXPORT_STORAGE (and external services may be used).
 */
export async function localServices(options: {
  dataRoot: string;
  persistent: boolean;
  postgresPort?: number;
  redisPort?: number;
  useExternal?: boolean;
  s3?: boolean;
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
    let s3: S3Endpoint | undefined;
    if (options.s3 && !(useExternal && process.env.EXPORT_STORAGE)) {
      const server = await startS3Server({
        dataDir: join(options.dataRoot, 's3'),
        port: 0, // it listens itself, so the OS picks a free port without a race
        bucket: 'locus-exports',
      });
      // In this process (no pid of its own): stopped by its close(), gone if the process is killed.
      started.push({ url: server.endpoint, pid: undefined, stop: server.stop });
      s3 = server;
    }
    return {
      databaseUrl,
      redisUrl,
      s3,
      stop: async () => {
        for (const service of started.reverse()) await service.stop();
      },
    };
  } catch (error) {
    for (const service of started.reverse()) await service.stop().catch(() => undefined);
    throw error;
  }
}
