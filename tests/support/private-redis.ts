import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../infra/src/free-port';
import { startRedis } from '../../infra/src/redis';

export interface PrivateRedis {
  url: string;
  stop(): Promise<void>;
}

/**
 * A redis-server of the calling test file's own, on a free port: for tests that change server
 * settings (CONFIG SET), which would disturb the other files sharing the suite's Redis. Stopped
 * by its own pid.
 */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const dataDir = mkdtempSync(join(tmpdir(), 'locus-test-redis-'));
  const redis = await startRedis({ dataDir, port: await freePort(), persistent: false });
  return {
    url: redis.url,
    stop: async () => {
      await redis.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
