import { openSession } from '@locus/api';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markSendAttempt } from '../../services/worker/src/jobs/sms/repo';
import { freshDatabase, type TestDatabase } from '../support/database';

/**
 * Issue 18: a text goes out once. The worker stamps a send's first attempt; a run that finds a
 * stamp asks the provider before texting again. Two runs of one job at once (a stalled job run
 * again while the first still runs) must not both find none.
 */
let database: TestDatabase;

beforeAll(async () => {
  database = await freshDatabase();
});

afterAll(async () => {
  await database?.drop();
});

describe('the first send attempt', () => {
  it('is claimed by exactly one of two runs at once', async () => {
    const session = await openSession(database.db, { callers: [{ phoneNumber: '+12025550160' }] });
    const callerId = session.callers[0]!.callerId;
    const row = await database.db
      .insertInto('sms_messages')
      .values({
        session_id: session.sessionId,
        caller_id: callerId,
        phone_number: '+12025550160',
        direction: 'outbound',
        body: 'Share your location',
        status: 'queued',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // The first run holds the row (its stamp not yet committed) while the second asks.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let stamped!: () => void;
    const isStamped = new Promise<void>((resolve) => (stamped = resolve));
    const first = database.db.transaction().execute(async (trx) => {
      const previous = await markSendAttempt(trx, row.id);
      stamped();
      await held;
      return previous;
    });
    await isStamped;
    const second = markSendAttempt(database.db, row.id);
    // The second waits for the first's row lock.
    await expect
      .poll(async () => {
        const waiting = await sql<{ n: number }>`
          select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`.execute(database.db);
        return waiting.rows[0]!.n;
      })
      .toBe(1);
    release();
    const answers = [await first, await second];
    expect(answers[0]).toBeNull();
    expect(answers[1]).toBeInstanceOf(Date);
  });
});
