import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { stopStaleServer } from './stale-process';
import { createConnection } from 'node:net';
import type { RunningService } from './postgres';
import { ensureRedisServer } from './system-packages';

function ping(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      done(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => done(false));
  });
}

/** Starts the system's redis-server with its data in `dataDir`. */
export async function startRedis(options: {
  dataDir: string;
  port: number;
  persistent: boolean;
}): Promise<RunningService> {
  const binary = ensureRedisServer();
  const dir = resolve(options.dataDir);
  mkdirSync(dir, { recursive: true });
  const persistence = options.persistent
    ? ['--appendonly', 'yes', '--appendfsync', 'everysec']
    : ['--appendonly', 'no', '--save', ''];
  const pidFile = join(dir, 'redis-server.pid');
  await stopStaleServer(pidFile, 'redis-server', 'SIGTERM');
  const child = spawn(
    binary,
    [
      '--pidfile',
      pidFile,
      '--port',
      String(options.port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--daemonize',
      'no',
      ...persistence,
    ],
    // Its own process group: Ctrl-C reaches the orchestrator, which stops Redis after the apps.
    { stdio: ['ignore', 'ignore', 'inherit'], detached: true },
  );
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
    if (await ping(options.port)) {
      return {
        url: `redis://127.0.0.1:${options.port}`,
        pid: child.pid,
        stop: async () => {
          if (child.exitCode === null) child.kill('SIGTERM');
          // Redis refuses a SIGTERM when it cannot write its final save (its directory gone, a
          // full disk); it has nothing more to lose then, so it is killed after a grace period.
          const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
          await exited;
          clearTimeout(force);
        },
      };
    }
    await new Promise((wait) => setTimeout(wait, 50));
  }
  child.kill('SIGKILL');
  throw new Error('redis-server did not answer PING within 5 s');
}
