import { openSession } from '@locus/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBatch } from '../../services/api/src/modules/realtime/batch-writer';
import type { FixRow } from '../../services/api/src/modules/realtime/repo';
import { freshDatabase, type TestDatabase } from '../support/database';

/**
 * Two instances' batches (or a batch and a journal recovery) often touch the same sessions at
 * once, each in its own order. Their transactions must queue on the sessions' rows, never
 * deadlock: a deadlock fails a batch (it is retried, but late and logged as an error).
 */
let database: TestDatabase;

beforeAll(async () => {
  database = await freshDatabase();
});

afterAll(async () => {
  await database?.drop();
});

describe('batches touching the same sessions at once', () => {
  it('never deadlock, whatever order each lists the sessions in', async () => {
    const sessions = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        openSession(database.db, {
          callers: [{ phoneNumber: `+1202555${String(1000 + i).padStart(4, '0')}` }],
        }),
      ),
    );
    let seq = 0;
    const batch = (order: typeof sessions): FixRow[] =>
      order.map((session) => ({
        sessionId: session.sessionId,
        seq: (seq += 1),
        callerId: session.callers[0]!.callerId,
        latitude: 38.9,
        longitude: -77.03,
        uncertaintyRadiusM: 10,
        altitude: null,
        heading: null,
        speed: null,
        source: 'TEXT_MESSAGE',
        capturedAt: new Date(),
        receivedAt: new Date(),
      }));
    const reversed = [...sessions].reverse();
    const errors: string[] = [];
    const writer = async (order: typeof sessions) => {
      for (let round = 0; round < 20; round += 1) {
        const fixes = batch(order);
        await database.db
          .transaction()
          .execute((trx) => writeBatch(trx, fixes, []))
          .catch((error: unknown) => errors.push(String(error)));
      }
    };
    await Promise.all([writer(sessions), writer(reversed), writer(sessions), writer(reversed)]);
    expect(errors).toEqual([]);
  }, 120_000);
});
