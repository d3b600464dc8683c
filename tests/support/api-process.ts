import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../../infra/src/free-port';
import { testEnvironment } from './environment';

const repoRoot = join(import.meta.dirname, '..', '..');

export interface ApiProcess {
  url: string;
  wsUrl: string;
  child: ChildProcess;
  /** SIGTERM, as a process manager would send, and wait for the exit code. */
  stop(): Promise<number | null>;
  /** `kill -9`: no shutdown runs; whatever the process held in memory is gone. */
  kill(): Promise<void>;
  port: number;
}

/** The API as its own OS process, exactly as deployed: `node --import tsx services/api/src/main.ts`. */
export async function startApiProcess(options: {
  databaseUrl: string;
  redisPrefix: string;
  /** A known port (a restart behind a load balancer); a free one by default. */
  port?: number;
  env?: Record<string, string>;
}): Promise<ApiProcess> {
  const port = options.port ?? (await freePort());
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'services/api/src/main.ts')],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: String(port),
        DATABASE_URL: options.databaseUrl,
        REDIS_URL: testEnvironment.redisUrl(),
        REDIS_KEY_PREFIX: options.redisPrefix,
        LOG_LEVEL: 'warn',
        DB_POOL_MAX: '4',
        DEV_OUTBOX: 'on',
        ...options.env,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const url = `http://127.0.0.1:${port}`;
  // Poll until it listens: start-up time varies, and the process may also fail to start.
  for (;;) {
    if (child.exitCode !== null) throw new Error(`API process exited with ${child.exitCode}`);
    const healthy = await fetch(`${url}/api/v1/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    await new Promise((wait) => setTimeout(wait, 100));
  }
  return {
    url,
    wsUrl: `ws://127.0.0.1:${port}`,
    child,
    port,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
