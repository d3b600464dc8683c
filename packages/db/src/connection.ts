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
  // The pool listens for errors of idle connections only. A connection that breaks while it is
  // checked out (a query in flight when Postgres stops or resets it) fails that query, and then
  // pg emits `error` on the client as well: with no listener that is an uncaught exception,
  // which stops the API or worker. The query's own rejection is what callers see and handle
  // (503 with Retry-After, a retried job); pg drops the broken client when it is released.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  return pool;
}

export function createDb(options: DbOptions): { db: Database; pool: pg.Pool } {
  const pool = createPool(options);
  return { db: new Kysely<DB>({ dialect: new PostgresDialect({ pool }) }), pool };
}
