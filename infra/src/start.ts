import { demoUsers, DEMO_PASSWORD } from '@locus/db';
import { join } from 'node:path';
import { startLocalTurn, type RunningTurn } from './coturn';
import { freePort } from './free-port';
import { migrate, seed } from './database-tasks';
import { localServices, type LocalServices } from './local-services';
import { dataRoot, nodeTs, repoRoot } from './paths';
import { startChild, stopChild, waitForHealthy } from './processes';
import { claimRunLock } from './run-lock';
import { s3WorkerEnv } from './s3-server';
import { buildWebIfStale, webDist } from './web-build';

/**
 * `npm start`: services (embedded unless DATABASE_URL / REDIS_URL are set), migrations, the
 * demo seed, the web build, then the API (serving the web app) and the worker. Ctrl-C stops
 * everything it started.
 */
export async function start(): Promise<void> {
  const port = Number(process.env.PORT ?? 3000);
  const lock = claimRunLock(dataRoot);
  // Exports go to an embedded S3-compatible server unless the environment chose a storage.
  const services = await localServices({ dataRoot, persistent: true, s3: true });
  const children: ReturnType<typeof startChild>[] = [];
  // Live video's TURN server (issue 19), unless the environment names one.
  let turn: RunningTurn | null = null;
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    console.log('\n[locus] stopping …');
    await Promise.all(children.map((child) => stopChild(child)));
    await turn?.stop();
    await services.stop();
    lock.release();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  try {
    await migrate(services.databaseUrl);
    if (process.env.NODE_ENV !== 'production') await seed(services.databaseUrl, services.redisUrl);
    await buildWebIfStale();
    if (!process.env.TURN_URLS) {
      turn = await startLocalTurn({
        dataDir: join(dataRoot, 'coturn'),
        // Where browsers reach this machine: a phone on the LAN needs PUBLIC_URL's host.
        host: process.env.PUBLIC_URL ? new URL(process.env.PUBLIC_URL).hostname : '127.0.0.1',
        freePort,
      });
    }
    const env = {
      DATABASE_URL: services.databaseUrl,
      REDIS_URL: services.redisUrl,
      PORT: String(port),
      WEB_DIST_DIR: webDist,
      ...(turn ? { TURN_URLS: turn.urls.join(','), TURN_SECRET: turn.secret } : {}),
      NODE_ENV: process.env.NODE_ENV ?? 'development',
      // The demo follows its links through the dev outbox; never with real providers or users.
      DEV_OUTBOX:
        process.env.DEV_OUTBOX ??
        (process.env.NODE_ENV === 'production' ||
        process.env.EMAIL_PROVIDER === 'smtp' ||
        process.env.SMS_PROVIDER === 'twilio'
          ? 'off'
          : 'on'),
    };
    const api = startChild('api', ...nodeTs(join(repoRoot, 'services/api/src/main.ts')), env);
    const worker = startChild('worker', ...nodeTs(join(repoRoot, 'services/worker/src/main.ts')), {
      ...env,
      ...(services.s3 ? s3WorkerEnv(services.s3) : {}),
    });
    children.push(api, worker);
    for (const child of children) child.once('exit', (code) => !stopping && void stop(code ?? 1));
    const url = process.env.PUBLIC_URL ?? `http://localhost:${port}`;
    await waitForHealthy(`http://127.0.0.1:${port}/api/v1/health`, api);
    console.log(`
  Locus is running at ${url}
    API docs      ${url}/api/docs
    Health        ${url}/api/v1/health
    Metrics       ${url}/metrics
    Exports       ${exportStorageLine(services.s3)}
    TURN          ${turn ? `${turn.urls[0]} (local coturn, pid ${turn.pid})` : (process.env.TURN_URLS ?? 'none: live video without a relay')}

  Demo accounts (password ${DEMO_PASSWORD}):
${demoUsers.map((user) => `    ${user.email.padEnd(34)} ${user.role === 'admin' ? 'admin of' : 'dispatcher on'} ${user.team}`).join('\n')}

  Press Ctrl-C to stop.
`);
  } catch (error) {
    console.error(`[locus] ${error instanceof Error ? error.message : String(error)}`);
    await stop(1);
  }
}

/** Where the worker puts exports, for the start banner. */
function exportStorageLine(s3: LocalServices['s3']): string {
  if (s3)
    return `s3://${s3.bucket} on ${s3.endpoint} (s3rver, key ${s3.accessKeyId} / ${s3.secretAccessKey}, data in .data/s3)`;
  if (process.env.EXPORT_STORAGE === 's3')
    return `s3://${process.env.S3_BUCKET ?? '?'}${process.env.S3_ENDPOINT ? ` on ${process.env.S3_ENDPOINT}` : ''}`;
  return `files in ${process.env.EXPORT_DIR ?? '.data/exports'}`;
}
