import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DB } from './generated/types';

export type Database = Kysely<DB>;

export interface DbOptions {
  connectionString: string;
  maxConnections?: number;
  applicationName?: string;
}

export function createPool({
  connectionString,
  maxConnections = 10,
  applicationName = 'locus',
}: DbOptions): pg.Pool {
  return new pg.Pool({ connectionString, max: maxConnections, application_name: applicationName });
}

export function createDb(options: DbOptions): { db: Database; pool: pg.Pool } {
  const pool = createPool(options);
  return { db: new Kysely<DB>({ dialect: new PostgresDialect({ pool }) }), pool };
}
