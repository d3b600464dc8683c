import { openSession, type OpenedSession } from '@locus/api';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SessionKeys, Sequencer } from '../../services/api/src/modules/realtime/sequencer';
import { WriteJournal, type NewRow } from '../../services/api/src/modules/realtime/write-journal';
import { testRedisPrefix } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';
import { testEnvironment } from '../support/environment';

/**
 * Issue 18: a fix is acked once numbered, and written to Postgres up to ~100 ms later. The write
 * journal keeps every numbered row in Redis until it is committed, so that when its instance is
 * killed another writes it. (The whole path, with real processes behind HAProxy, is
 * tests/faults/api-instances.test.ts; this pins the journal's own rules.)
 */
let database: TestDatabase;
let redis: Redis;
const prefix = testRedisPrefix();
const keys = new SessionKeys(prefix);
let sequencer: Sequencer;
let session: OpenedSession;
const silent = pino({ level: 'silent' });

beforeAll(async () => {
  database = await freshDatabase();
  redis = new Redis(testEnvironment.redisUrl(), { maxRetriesPerRequest: null });
  sequencer = new Sequencer(redis, keys, { streamMaxLen: 1000, ttlSeconds: 3600 });
  session = await openSession(database.db, { callers: [{ phoneNumber: '+12025550150' }] });
  await sequencer.seed(session.sessionId, 0);
});

afterAll(async () => {
  redis?.disconnect();
  await database?.drop();
});

const journalOf = (id: string) => new WriteJournal(redis, keys, prefix, id, database.db, silent);

function fixRow(capturedAt: number): NewRow {
  return {
    fix: {
      sessionId: session.sessionId,
      callerId: session.callers[0]!.callerId,
      latitude: 38.9,
      longitude: -77.03,
      uncertaintyRadiusM: 12,
      altitude: null,
      heading: 90,
      speed: 1.5,
      source: 'TEXT_MESSAGE',
      capturedAt: new Date(capturedAt),
      receivedAt: new Date(capturedAt + 400),
      delayMs: null,
      clockSkewMs: null,
    },
  };
}

/** Numbers and journals a row as the sockets do (session-publisher.ts), and writes nothing. */
async function accept(journal: WriteJournal, row: NewRow): Promise<number> {
  const entry = await journal.entryFor(session.sessionId, row);
  const event = 'fix' in row ? 'new-location-available' : row.event.event;
  const seq = await sequencer.publish(
    session.sessionId,
    event as 'new-location-available',
    '{}',
    undefined,
    undefined,
    entry,
  );
  journal.settled(session.sessionId, seq);
  return seq;
}

const storedFixes = () =>
  database.db
    .selectFrom('location_fixes')
    .select(['seq', 'heading', 'speed', 'received_at'])
    .where('session_id', '=', session.sessionId)
    .orderBy('seq')
    .execute();

describe('the write journal', () => {
  it('writes what a killed instance numbered and never wrote, once its key expires, and only that', async () => {
    const killed = journalOf('api-killed');
    const survivor = journalOf('api-survivor');
    await killed.start();
    await survivor.start();
    const base = Date.now() - 60_000;
    const killedSeqs = [
      await accept(killed, fixRow(base)),
      await accept(killed, fixRow(base + 1000)),
    ];
    const chatSeq = await accept(killed, {
      event: {
        sessionId: session.sessionId,
        callerId: session.callers[0]!.callerId,
        event: 'caller-connected',
        payload: JSON.stringify({ connected: true }),
        createdAt: new Date(base + 1500),
      },
    });
    // The survivor's own row in the same session is its own writer's to write.
    const survivorSeq = await accept(survivor, fixRow(base + 2000));
    killed.crash();

    // While the owner's key lives, the journal is its owner's.
    expect(await survivor.recoverOrphans()).toBe(0);
    expect(await storedFixes()).toEqual([]);

    // What 15 s without a renewal does.
    await redis.del(`${prefix}write-journal:{api-killed}:alive`);
    expect(await survivor.recoverOrphans()).toBe(3);

    const fixes = await storedFixes();
    expect(fixes.map((row) => row.seq)).toEqual(killedSeqs);
    expect(fixes[0]).toMatchObject({ heading: 90, speed: 1.5 });
    expect(fixes[0]!.received_at.getTime()).toBe(base + 400);
    const events = await database.db
      .selectFrom('session_events')
      .select(['seq', 'event'])
      .where('session_id', '=', session.sessionId)
      .execute();
    expect(events).toEqual([{ seq: chatSeq, event: 'caller-connected' }]);
    // Gone from the journal: the survivor's row stays until its writer commits it.
    expect(await redis.hkeys(keys.unwritten(session.sessionId))).toEqual([String(survivorSeq)]);
    expect(await redis.smembers(`${prefix}write-journals`)).toEqual(['api-survivor']);
    await survivor.stop(1);
  });

  it('skips a row already written (committed, then killed before the journal heard)', async () => {
    const killed = journalOf('api-killed-after-commit');
    const survivor = journalOf('api-survivor-2');
    await killed.start();
    const capturedAt = Date.now() - 30_000;
    const seq = await accept(killed, fixRow(capturedAt));
    const row = fixRow(capturedAt);
    if (!('fix' in row)) throw new Error('a fix');
    await database.db
      .insertInto('location_fixes')
      .values({
        session_id: session.sessionId,
        seq,
        caller_id: row.fix.callerId,
        latitude: 1,
        longitude: 2,
        uncertainty_radius_m: 5,
        source: 'TEXT_MESSAGE',
        captured_at: row.fix.capturedAt,
        received_at: row.fix.receivedAt,
      })
      .execute();
    killed.crash();
    await redis.del(`${prefix}write-journal:{api-killed-after-commit}:alive`);
    await survivor.recoverOrphans();

    const stored = await database.db
      .selectFrom('location_fixes')
      .select(['latitude'])
      .where('session_id', '=', session.sessionId)
      .where('seq', '=', seq)
      .execute();
    // The row Postgres had is kept as it was, not replaced by the journal's copy.
    expect(stored).toEqual([{ latitude: 1 }]);
    expect(await redis.hexists(keys.unwritten(session.sessionId), String(seq))).toBe(0);
  });

  it('lists its sessions again after being taken for dead, so later rows stay findable', async () => {
    const slow = journalOf('api-slow');
    const other = journalOf('api-other');
    await slow.start();
    await accept(slow, fixRow(Date.now() - 20_000));
    // Its key expired (an event loop blocked for 15 s): another instance recovers its journal.
    await redis.del(`${prefix}write-journal:{api-slow}:alive`);
    await other.recoverOrphans();
    expect(await redis.smembers(`${prefix}write-journal:{api-slow}:sessions`)).toEqual([]);

    // It wakes up and renews (its timer), then numbers another row in the same session.
    await slow.renew();
    const later = await accept(slow, fixRow(Date.now() - 10_000));
    slow.crash();
    await redis.del(`${prefix}write-journal:{api-slow}:alive`);
    await other.recoverOrphans();
    expect((await storedFixes()).map((row) => row.seq)).toContain(later);
  });

  it('lists a session only while it may hold rows: one written and idle for 10 minutes leaves the list', async () => {
    const journal = journalOf('api-prune');
    await journal.start();
    const listed = () => redis.smembers(`${prefix}write-journal:{api-prune}:sessions`);
    const row = fixRow(Date.now() - 5_000);
    const seq = await accept(journal, row);
    expect(await listed()).toEqual([session.sessionId]);
    if (!('fix' in row)) throw new Error('a fix');
    journal.written([{ ...row.fix, seq }], []);

    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 9 * 60_000);
      await journal.renew();
      expect(await listed()).toEqual([session.sessionId]);
      vi.setSystemTime(Date.now() + 2 * 60_000);
      await journal.renew();
      expect(await listed()).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
    // Its next row lists it again, before the row is numbered.
    await accept(journal, fixRow(Date.now() - 1_000));
    expect(await listed()).toEqual([session.sessionId]);
    await journal.stop(1);
  });

  it('numbers no row once shutdown has begun', async () => {
    const closing = journalOf('api-closing');
    await closing.start();
    expect(await closing.close()).toBe(0);
    await expect(closing.entryFor(session.sessionId, fixRow(Date.now()))).rejects.toThrow(
      'shutting down',
    );
    await closing.stop(0);
  });

  it('releases its journal on a clean stop with nothing left, and leaves it to others otherwise', async () => {
    const clean = journalOf('api-clean');
    await clean.start();
    await clean.stop(0);
    const leaving = journalOf('api-leaving');
    await leaving.start();
    await leaving.stop(3);
    expect(await redis.smembers(`${prefix}write-journals`)).not.toContain('api-clean');
    expect(await redis.smembers(`${prefix}write-journals`)).toContain('api-leaving');
    expect(await redis.exists(`${prefix}write-journal:{api-leaving}:alive`)).toBe(0);
  });
});
