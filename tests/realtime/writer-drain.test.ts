import { BatchWriter, openSession, ThreadedWriter } from '@locus/api';
import { createDb } from '@locus/db';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/database';
import { holdSessionRows } from '../support/session-locks';

/**
 * Shutdown drains the batch writer (app.ts, `onClose`). A batch already being written when the
 * drain begins holds every row the writer had: its queue is empty, but those rows are not in
 * Postgres yet. The drain must wait for that write, or the persistence thread is stopped in the
 * middle of its transaction and the rows, acked to the caller and delivered, are never stored
 * (the rolling restart of tests/faults/api-instances.test.ts lost 2 fixes and 200 events so).
 *
 * The write is held in flight by a lock on the session's row, which the batch's `touchSessions`
 * update waits for, and released after the drain has begun.
 */
let database: TestDatabase;

beforeAll(async () => {
  database = await freshDatabase();
});

afterAll(async () => {
  await database?.drop();
});

const fix = (sessionId: string, callerId: string, seq: number) => ({
  sessionId,
  seq,
  callerId,
  latitude: 38.9,
  longitude: -77.03,
  uncertaintyRadiusM: 10,
  altitude: null,
  heading: null,
  speed: null,
  source: 'TEXT_MESSAGE' as const,
  capturedAt: new Date(Date.now() - 60_000 + seq),
  receivedAt: new Date(),
});

/** Resolves once a connection named `applicationName` waits for a lock in this database. */
async function waitingForLock(applicationName: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const { rows } = await sql<{ waiting: number }>`
          select count(*)::int as waiting from pg_stat_activity
           where datname = current_database() and application_name = ${applicationName}
             and wait_event_type = 'Lock'`.execute(database.db);
        return rows[0]!.waiting;
      },
      { timeout: 10_000, interval: 20 },
    )
    .toBe(1);
}

async function storedSeqs(sessionId: string): Promise<number[]> {
  const rows = await database.db
    .selectFrom('location_fixes')
    .select('seq')
    .where('session_id', '=', sessionId)
    .orderBy('seq')
    .execute();
  return rows.map((row) => row.seq);
}

/** A logger that keeps what was logged as errors. */
function errorLog() {
  const errors: string[] = [];
  const log = pino({ level: 'error' }, { write: (line: string) => void errors.push(line) });
  return { log, errors };
}

describe('draining the writer on shutdown', () => {
  it('waits for the batch the persistence thread is writing, and stores it', async () => {
    const session = await openSession(database.db, { callers: [{ phoneNumber: '+12025550150' }] });
    const callerId = session.callers[0]!.callerId;
    const { log, errors } = errorLog();
    const writer = await ThreadedWriter.start(
      { databaseUrl: database.url, maxRows: 500, maxDelayMs: 10 },
      log,
    );
    const lock = await holdSessionRows(database.db, [session.sessionId]);
    try {
      for (let seq = 1; seq <= 3; seq += 1) writer.addFix(fix(session.sessionId, callerId, seq));
      // Every row is with the thread, in one batch that waits for the lock: its queue is empty.
      await waitingForLock('locus-api-persistence');

      const drained = writer.drain(Date.now() + 5_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await lock.release();
      await drained;
    } finally {
      await lock.release();
    }

    expect(await storedSeqs(session.sessionId)).toEqual([1, 2, 3]);
    expect(writer.pending).toBe(0);
    expect(errors).toEqual([]);
  });

  it('in the batch writer itself: drain() returns only once the write in progress is committed', async () => {
    const session = await openSession(database.db, { callers: [{ phoneNumber: '+12025550151' }] });
    const callerId = session.callers[0]!.callerId;
    const { db } = createDb({
      connectionString: database.url,
      applicationName: 'locus-drain-test',
    });
    const lock = await holdSessionRows(database.db, [session.sessionId]);
    try {
      const { log, errors } = errorLog();
      const writer = new BatchWriter(db, log, { maxRows: 2, maxDelayMs: 60_000 });
      writer.addFix(fix(session.sessionId, callerId, 1));
      writer.addFix(fix(session.sessionId, callerId, 2)); // maxRows: this write starts now
      await waitingForLock('locus-drain-test');
      expect(writer.pending).toBe(0); // both rows are in the write, none queued

      let done = false;
      const drained = writer.drain(Date.now() + 5_000).then(() => (done = true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(done).toBe(false);
      await lock.release();
      await drained;

      expect(await storedSeqs(session.sessionId)).toEqual([1, 2]);
      expect(errors).toEqual([]);
    } finally {
      await lock.release();
      await db.destroy();
    }
  });
});
