import { createDb, type Database } from '@locus/db';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { testEnvironment } from './environment';

export interface TestDatabase {
  url: string;
  db: Database;
  drop(): Promise<void>;
}

async function admin<T>(task: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: testEnvironment.postgresAdminUrl() });
  await client.connect();
  try {
    return await task(client);
  } finally {
    await client.end();
  }
}

/** A new database, migrated (copied from the migrated template), private to the calling test file. */
export async function freshDatabase(): Promise<TestDatabase> {
  const name = `locus_test_${randomBytes(6).toString('hex')}`;
  await admin((client) =>
    client.query(`create database ${name} template ${testEnvironment.templateDatabase()}`),
  );
  const url = testEnvironment.postgresAdminUrl().replace(/\/[^/]+$/, `/${name}`);
  const { db } = createDb({
    connectionString: url,
    maxConnections: 5,
    applicationName: 'locus-test',
  });
  return {
    url,
    db,
    drop: async () => {
      await db.destroy();
      await admin((client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}
