import type { Socket } from 'node:net';
import type pg from 'pg';
import { createPool } from '@locus/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/database';

/**
 * A Postgres connection that breaks while checked out (Postgres stopped or reset it mid-query)
 * must fail that query only. pg also emits `error` on the client then; before the pool gave
 * every client a listener, that was an uncaught exception that stopped the process (seen in the
 * Postgres-down fault test as `write ECONNRESET`).
 */
describe('a pooled connection reset while in use', () => {
  let database: TestDatabase;
  let pool: pg.Pool;

  beforeAll(async () => {
    database = await freshDatabase();
    pool = createPool({ connectionString: database.url, maxConnections: 2 });
  });

  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  it('fails its query, keeps the process up, and the pool serves the next one', async () => {
    const client = await pool.connect();
    const running = client.query('select pg_sleep(30)');
    // What a reset by the server or a proxy looks like to pg: its socket errors.
    const socket = (client as unknown as { connection: { stream: Socket } }).connection.stream;
    socket.destroy(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
    await expect(running).rejects.toThrow('ECONNRESET');
    client.release(true);

    const { rows } = await pool.query<{ ok: number }>('select 1 as ok');
    expect(rows).toEqual([{ ok: 1 }]);
  });
});
