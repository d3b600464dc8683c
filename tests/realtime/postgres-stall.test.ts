import { openSession, type ThreadedWriter } from '@locus/api';
import { callerTextsVersion, consentScreens } from '@locus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, testRedisPrefix, type TestApi } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';
import { fixAt, TestSocket } from '../support/sockets';
import { stallableProxy, type StallableProxy } from '../support/stallable-proxy';

/**
 * Issue 16: persistence never shares an event loop with delivery. The callers' instance (B)
 * reaches Postgres through a proxy that stalls like a hung database for 5 s; the dispatcher is
 * on instance A. Every fix the caller sends during the stall reaches the dispatcher while
 * Postgres is still stalled, and once it answers again every fix is stored exactly once.
 */
let database: TestDatabase;
let proxy: StallableProxy;
let apiA: TestApi;
let apiB: TestApi;

beforeAll(async () => {
  database = await freshDatabase();
  proxy = await stallableProxy(database.url);
  const redisPrefix = testRedisPrefix();
  apiA = await startApi({ databaseUrl: database.url, redisPrefix });
  apiB = await startApi({ databaseUrl: proxy.url, redisPrefix });
});

afterAll(async () => {
  proxy?.resume();
  await apiA?.close();
  await apiB?.close();
  await proxy?.close();
  await database?.drop();
});

const STALL_MS = 5_000;

describe('a Postgres stall on the callers’ instance', () => {
  it('delays no delivery, and every fix is stored once after it', async () => {
    const session = await openSession(database.db, { callers: [{ phoneNumber: '+12025550123' }] });
    const dispatcher = await TestSocket.open(
      `${apiA.wsUrl}/api/v1/socket?token=${session.dispatcherToken}`,
    );
    dispatcher.send('join', { sessionId: session.sessionId });
    await dispatcher.event('joined');
    const caller = await TestSocket.open(
      `${apiB.wsUrl}/api/v1/caller/socket?token=${session.callers[0]!.token}`,
    );
    const base = Date.now() - 120_000;
    let sent = 0;
    /** One fix, acked by B and delivered to the dispatcher on A. */
    const sendOne = async () => {
      const fix = fixAt(base, sent);
      sent += 1;
      caller.send('fix', fix);
      await caller.next(
        (frame) => frame.event === 'ack' && frame.data.capturedAt === fix.capturedAt,
      );
      await dispatcher.count('new-location-available', sent);
    };
    for (let index = 0; index < 10; index += 1) await sendOne();
    await apiB.app.locus.writer.flush();
    const storedCount = async () =>
      Number(
        (
          await database.db
            .selectFrom('location_fixes')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('session_id', '=', session.sessionId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await storedCount()).toBe(10);

    // Postgres hangs for B: a fix every 150 ms or so (under the per-caller limit) for the whole stall, each delivered as it goes.
    proxy.stall();
    // At least STALL_MS and at least 20 fixes, however slow the machine: a count within a time
    // would fail a loaded CI run for nothing.
    const stallEnds = Date.now() + STALL_MS;
    while (Date.now() < stallEnds || sent < 30) {
      await sendOne();
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    // Still stalled: everything reached the dispatcher, nothing more reached Postgres, and B
    // holds what it could not write yet.
    expect(await storedCount()).toBe(10);
    expect(apiB.app.locus.writer.pending).toBe(sent - 10);
    const delivered = dispatcher.frames.filter((frame) => frame.event === 'new-location-available');
    expect(delivered).toHaveLength(sent);

    proxy.resume();
    await apiB.app.locus.writer.flush();
    expect(apiB.app.locus.writer.pending).toBe(0);
    const stored = await database.db
      .selectFrom('location_fixes')
      .select(['seq', 'captured_at'])
      .where('session_id', '=', session.sessionId)
      .orderBy('seq')
      .execute();
    expect(stored).toHaveLength(sent);
    expect(stored.map((row) => row.captured_at.getTime())).toEqual(
      Array.from({ length: sent }, (_, index) => fixAt(base, index).capturedAt),
    );
    expect(stored.map((row) => row.seq)).toEqual(
      delivered.map((frame) => (frame.data as { seq: number }).seq),
    );
    await caller.close();
    await dispatcher.close();
  });

  it('loses no fix when the persistence thread dies with rows it had not written', async () => {
    const session = await openSession(database.db, { callers: [{ phoneNumber: '+12025550124' }] });
    const caller = await TestSocket.open(
      `${apiB.wsUrl}/api/v1/caller/socket?token=${session.callers[0]!.token}`,
    );
    const base = Date.now() - 120_000;
    const send = async (index: number) => {
      const fix = fixAt(base, index);
      caller.send('fix', fix);
      await caller.next(
        (frame) => frame.event === 'ack' && frame.data.capturedAt === fix.capturedAt,
      );
    };
    // A session's first event seeds its sequence counter from Postgres (sequence() in
    // session-publisher.ts), so the caller's first fix goes before the stall.
    await send(0);
    await apiB.app.locus.writer.flush();
    // Postgres hangs: the thread holds every later fix (one batch stuck in its transaction), and
    // the consent receipt holds the fixes behind it for a second at most.
    proxy.stall();
    caller.send('consent', {
      screen: consentScreens[0],
      language: 'en',
      textsVersion: callerTextsVersion,
      tappedAt: Date.now(),
    });
    for (let index = 1; index < 30; index += 1) await send(index);
    const writer = apiB.app.locus.writer as ThreadedWriter;
    await writer.crashThread();
    proxy.resume();
    await writer.flush();
    expect(writer.pending).toBe(0);
    const stored = await database.db
      .selectFrom('location_fixes')
      .select('seq')
      .where('session_id', '=', session.sessionId)
      .orderBy('seq')
      .execute();
    expect(stored).toHaveLength(30);
    await expect
      .poll(
        async () =>
          (
            await database.db
              .selectFrom('consent_receipts')
              .select('id')
              .where('session_id', '=', session.sessionId)
              .execute()
          ).length,
      )
      .toBe(1);
    await caller.close();
  });
});
