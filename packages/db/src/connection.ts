import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DB } from './generated/types';

export type Database = Kysely<DB>;

export interface DbOptions {
  connectionString: string;
  maxConnections?: number;
  applicationName?: string;
  /**
   * An idle pooled connection failed (the server restarted, failed over, or dropped it). pg
   * discards the connection; without a listener the error would crash the process.
   */
  onIdleError?: (error: Error) => void;
}

export function createPool({
  connectionString,
  maxConnections = 10,
  applicationName = 'locus',
  onIdleError = (error) => console.error('idle Postgres connection failed:', error.message),
}: DbOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max: maxConnections,
    application_name: applicationName,
  });
  // pg hangs the failed client on the error: a logger would write its whole state (kilobytes of
  // type tables) once per pooled connection when Postgres goes away.
  pool.on('error', (error: Error & { client?: unknown }) => {
    delete error.client;
    onIdleError(error);
  });
  return pool;
}

export function createDb(options: DbOptions): { db: Database; pool: pg.Pool } {
  const pool = createPool(options);
  return { db: new Kysely<DB>({ dialect: new PostgresDialect({ pool }) }), pool };
}
