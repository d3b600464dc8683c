import type { ChildProcess } from 'node:child_process';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { seed } from '../../../infra/src/database-tasks';
import { freePort } from '../../../infra/src/free-port';
import { nodeTs, repoRoot } from '../../../infra/src/paths';
import { startChild, stopChild, waitForHealthy } from '../../../infra/src/processes';
import { buildWebIfStale, webDist } from '../../../infra/src/web-build';

/** A running Locus: its base URL, how it came to be, and how to stop what the bench started. */
export interface Product {
  baseUrl: string;
  /** What was measured: "started by the bench …" or "already running at …". */
  description: string;
  /** Things a reader of the results should know (a failed web build, for example). */
  notes: string[];
  stop(): Promise<void>;
}

const started = new Set<ChildProcess>();

/** Last resort when the bench process exits: nothing it started may outlive it. */
export function killProductChildren(): void {
  for (const child of started) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/** An instance someone else runs (`--url`): the bench only reads and writes through its API. */
export function existingProduct(url: string): Product {
  const baseUrl = url.replace(/\/+$/, '');
  return {
    baseUrl,
    description: `already running at ${baseUrl} (--url)`,
    notes: [],
    stop: async () => {},
  };
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
 * What `npm start` does (infra/src/start.ts), with the infra CLI's private bench Postgres and
 * Redis (DATABASE_URL / REDIS_URL, already migrated): seed the demo, build the web app if it is
 * stale, then the API (serving the build) and the worker on a free port.
 *
 * The API serves a copy of the build taken now, so that someone rebuilding `web/dist` while the
 * bench runs cannot change the page half-way through a profile.
 */
export async function startProduct(logDir: string): Promise<Product> {
  const databaseUrl = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  if (!databaseUrl || !redisUrl)
    throw new Error('DATABASE_URL and REDIS_URL must be set: run it as `npm run bench -- …`');
  const notes: string[] = [];

  await seed(databaseUrl);
  try {
    await buildWebIfStale();
  } catch (error) {
    if (!existsSync(join(webDist, 'index.html'))) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    notes.push(`the web build failed (${reason}); the previous build in web/dist was measured`);
    console.warn(`[caller-page] ${notes.at(-1)}`);
  }
  const servedDist = join(logDir, 'web-dist');
  cpSync(webDist, servedDist, { recursive: true });

  const port = await freePort();
  const env = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    PORT: String(port),
    WEB_DIST_DIR: servedDist,
    NODE_ENV: process.env.NODE_ENV ?? 'development',
    // The bench reads the caller links it texts from the dev outbox.
    DEV_OUTBOX: 'on',
    // The servers' output shares this terminal with the results.
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
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
    await waitForHealthy(`http://127.0.0.1:${port}/api/v1/health`, children[0]!);
  } catch (error) {
    await stop();
    throw error;
  }
  const pids = children.map((child) => child.pid).join(', ');
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    description: `started by the bench as \`npm start\` does (API and worker, pids ${pids}, port ${port})`,
    notes,
    stop,
  };
}
