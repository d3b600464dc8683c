import { BatchWriter, openSession } from '@locus/api';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/database';

let database: TestDatabase;

beforeAll(async () => {
  database = await freshDatabase();
});

afterAll(async () => {
  await database?.drop();
});

describe('the batch writer', () => {
  it('flush() waits for rows queued while an earlier write was already in progress', async () => {
    const session = await openSession(database.db, { callers: [{ phoneNumber: '+12025550140' }] });
    const callerId = session.callers[0]!.callerId;
    const writer = new BatchWriter(database.db, pino({ level: 'silent' }), {
      maxRows: 2,
      maxDelayMs: 60_000,
    });
    const row = (seq: number) => ({
      sessionId: session.sessionId,
      seq,
      callerId,
      latitude: 38.9,
      longitude: -77.03,
      uncertaintyRadiusM: 10,
      altitude: null,
      heading: null,
      speed: null,
      source: 'TEXT_MESSAGE' as const,
      capturedAt: new Date(),
      receivedAt: new Date(),
    });
    writer.addFix(row(1));
    writer.addFix(row(2)); // reaches maxRows: a write of 1 and 2 starts now
    for (let seq = 3; seq <= 7; seq += 1) writer.addFix(row(seq)); // queued behind it

    await writer.flush();

    const stored = await database.db
      .selectFrom('location_fixes')
      .select('seq')
      .where('session_id', '=', session.sessionId)
      .orderBy('seq')
      .execute();
    expect(stored.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(writer.pending).toBe(0);
  });
});
