import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { testEnvironment } from '../support/environment';

const repoRoot = join(import.meta.dirname, '..', '..');

export interface ServiceProcess {
  child: ChildProcess;
  /** Every line the process has written to stdout so far (its pino log lines). */
  lines: string[];
  stop(): Promise<number | null>;
}

/**
 * The API or the worker as its own OS process, started as deployed (`node --import tsx
 * services/<name>/src/main.ts`), with `env` over the test's database and Redis. Its stdout is
 * kept line by line; stderr passes through.
 */
export function startService(
  name: 'api' | 'worker',
  options: { databaseUrl: string; redisPrefix: string; env: Record<string, string> },
): ServiceProcess {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, `services/${name}/src/main.ts`)],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        DATABASE_URL: options.databaseUrl,
        REDIS_URL: testEnvironment.redisUrl(),
        REDIS_KEY_PREFIX: options.redisPrefix,
        DB_POOL_MAX: '4',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines: string[] = [];
  let partial = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return {
    child,
    lines,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Polls `probe` until it returns a value, failing after `timeoutMs` with `what`. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((wait) => setTimeout(wait, 100));
  }
}

/** Waits until `url` answers 200, or the process exits. */
export async function untilServing(service: ServiceProcess, url: string): Promise<void> {
  await eventually(
    `${url} to answer`,
    async () => {
      if (service.child.exitCode !== null)
        throw new Error(`process exited with ${service.child.exitCode}`);
      return fetch(url).then(
        (response) => (response.ok ? true : undefined),
        () => undefined,
      );
    },
    60_000,
  );
}
