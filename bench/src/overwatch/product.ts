import type { ChildProcess } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { seed } from '../../../infra/src/database-tasks';
import { freePort } from '../../../infra/src/free-port';
import { nodeTs, repoRoot } from '../../../infra/src/paths';
import { startChild, stopChild, waitForHealthy } from '../../../infra/src/processes';
import { buildWebIfStale, webDist } from '../../../infra/src/web-build';
import type { Product } from '../caller-page/product';

const started = new Set<ChildProcess>();

/** Last resort when the bench process exits: nothing it started may outlive it. */
export function killOverwatchChildren(): void {
  for (const child of started) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/** The files under /assets/ that a copy's index.html names and the copy lacks. */
function missingAssets(dist: string): string[] {
  const index = join(dist, 'index.html');
  if (!existsSync(index)) return ['index.html'];
  const named = [...readFileSync(index, 'utf8').matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)];
  return named.map((match) => match[1]!).filter((file) => !existsSync(join(dist, file)));
}

async function stopWithin(child: ChildProcess, ms: number): Promise<void> {
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  try {
    await stopChild(child);
  } finally {
    clearTimeout(timer);
    started.delete(child);
  }
}

/**
 * Locus as the caller-page bench starts it (`caller-page/product.ts`: the demo seed, the web
 * build if stale, a copy of `web/dist`, the API and the worker on a free port, with the infra
 * CLI's private Postgres and Redis), with what this bench needs on top:
 * - `extraEnv`: N texts at once exceed the default SMS limits, and the map's tiles must come
 *   from this server (no internet here);
 * - a longer wait for the API's health: on a busy 2-core machine its start can pass 60 s.
 */
export async function startOverwatchProduct(
  logDir: string,
  extraEnv: Record<string, string>,
): Promise<Product> {
  const databaseUrl = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  if (!databaseUrl || !redisUrl)
    throw new Error('DATABASE_URL and REDIS_URL must be set: run it as `npm run bench -- …`');
  const notes: string[] = [];
  await seed(databaseUrl);
  // Other work on this checkout may be building web/dist at the same moment (Vite empties it
  // first): a failed build is tried again, and the copy is taken only once every file the
  // console's index.html names is there.
  for (let attempt = 1; ; attempt += 1) {
    try {
      await buildWebIfStale();
      break;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (attempt < 3) {
        console.warn(`[overwatch] ${reason}; trying again in 20 s`);
        await new Promise((wait) => setTimeout(wait, 20_000));
        continue;
      }
      if (!existsSync(join(webDist, 'index.html'))) throw error;
      notes.push(`the web build failed (${reason}); the previous build in web/dist was measured`);
      console.warn(`[overwatch] ${notes.at(-1)}`);
      break;
    }
  }
  const servedDist = join(logDir, 'web-dist');
  for (let attempt = 1; ; attempt += 1) {
    rmSync(servedDist, { recursive: true, force: true });
    let missing: string[];
    try {
      cpSync(webDist, servedDist, { recursive: true });
      missing = missingAssets(servedDist);
    } catch (error) {
      // A file deleted under the copy: a build is running.
      missing = [error instanceof Error ? error.message : String(error)];
    }
    if (missing.length === 0) break;
    if (attempt >= 10)
      throw new Error(`web/dist stays incomplete (no ${missing.join(', ')}): is a build running?`);
    await new Promise((wait) => setTimeout(wait, 10_000));
  }
  const port = await freePort();
  const env = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    PORT: String(port),
    WEB_DIST_DIR: servedDist,
    NODE_ENV: process.env.NODE_ENV ?? 'development',
    DEV_OUTBOX: 'on',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    ...extraEnv,
  };
  const children: ChildProcess[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all(children.map((child) => stopWithin(child, 15_000)));
    rmSync(servedDist, { recursive: true, force: true });
  };
  try {
    for (const [label, entry] of [
      ['api', 'services/api/src/main.ts'],
      ['worker', 'services/worker/src/main.ts'],
    ] as const) {
      const child = startChild(label, ...nodeTs(join(repoRoot, entry)), env);
      children.push(child);
      started.add(child);
    }
    await waitForHealthy(`http://127.0.0.1:${port}/api/v1/health`, children[0]!, 240_000);
  } catch (error) {
    await stop();
    throw error;
  }
  const pids = children.map((child) => child.pid).join(', ');
  const overrides = Object.entries(extraEnv)
    .map(([key, value]) => `${key}=${value}`)
    .join(', ');
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    description: `started by the bench as \`npm start\` does (API and worker, pids ${pids}, port ${port}; ${overrides})`,
    notes,
    stop,
  };
}
