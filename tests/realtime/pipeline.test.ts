import { openSession, type OpenedSession } from '@locus/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, testRedisPrefix, type TestApi } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';
import { fixAt, TestSocket } from '../support/sockets';

// A dispatcher on instance A and a caller on instance B: every fix crosses Redis.
let database: TestDatabase;
let apiA: TestApi;
let apiB: TestApi;

beforeAll(async () => {
  database = await freshDatabase();
  const redisPrefix = testRedisPrefix();
  apiA = await startApi({ databaseUrl: database.url, redisPrefix });
  apiB = await startApi({ databaseUrl: database.url, redisPrefix });
});

afterAll(async () => {
  await apiA?.close();
  await apiB?.close();
  await database?.drop();
});

const newSession = () => openSession(database.db, { callers: [{ phoneNumber: '+12025550123' }] });
const dispatcherUrl = (api: TestApi, session: OpenedSession) =>
  `${api.wsUrl}/api/v1/socket?token=${session.dispatcherToken}`;
const callerUrl = (api: TestApi, session: OpenedSession) =>
  `${api.wsUrl}/api/v1/caller/socket?token=${session.callers[0]!.token}`;

async function joinAsDispatcher(
  api: TestApi,
  session: OpenedSession,
  lastSeq?: number,
): Promise<TestSocket> {
  const dispatcher = await TestSocket.open(dispatcherUrl(api, session));
  dispatcher.send(
    'join',
    lastSeq === undefined
      ? { sessionId: session.sessionId }
      : { sessionId: session.sessionId, lastSeq },
  );
  await dispatcher.event('joined');
  return dispatcher;
}

/** Sends fixes one by one and waits for each ack, as the caller page does. */
async function sendFixes(
  caller: TestSocket,
  base: number,
  from: number,
  to: number,
): Promise<void> {
  for (let index = from; index < to; index += 1) {
    const fix = fixAt(base, index);
    caller.send('fix', fix);
    await caller.next((frame) => frame.event === 'ack' && frame.data.capturedAt === fix.capturedAt);
  }
}

const seqs = (frames: { data: { seq?: number } }[]) => frames.map((frame) => frame.data.seq!);

describe('a caller on one instance and a dispatcher on another', () => {
  it('delivers every fix to the dispatcher, in order, and persists it', async () => {
    const session = await newSession();
    const dispatcher = await joinAsDispatcher(apiA, session);
    const caller = await TestSocket.open(callerUrl(apiB, session));
    const base = Date.now() - 60_000;
    await sendFixes(caller, base, 0, 20);

    const fixes = await dispatcher.count('new-location-available', 20);
    expect(fixes.map((frame) => frame.data.dateTimeCaptured)).toEqual(
      Array.from({ length: 20 }, (_, index) =>
        new Date(fixAt(base, index).capturedAt!).toISOString(),
      ),
    );
    expect(fixes[0]!.data).toMatchObject({
      sessionId: session.sessionId,
      callerId: session.callers[0]!.callerId,
      latitude: 38.9,
      longitude: -77.03,
      uncertaintyRadiusInMeters: 12,
      altitude: 40,
      capturedFromSource: 'TEXT_MESSAGE',
      address: null,
    });
    const connected = await dispatcher.event('caller-connected');
    expect(connected.data).toMatchObject({
      connected: true,
      callerId: session.callers[0]!.callerId,
    });
    const all = seqs(dispatcher.frames.filter((frame) => frame.data.seq !== undefined));
    expect(all).toEqual([...all].sort((a, b) => a - b));
    expect(new Set(all).size).toBe(all.length);

    await apiB.app.locus.writer.flush();
    const stored = await database.db
      .selectFrom('location_fixes')
      .select(['seq', 'latitude'])
      .where('session_id', '=', session.sessionId)
      .orderBy('seq')
      .execute();
    expect(stored.map((row) => row.seq)).toEqual(seqs(fixes));

    await caller.close();
    const disconnected = await dispatcher.next(
      (frame) => frame.event === 'caller-connected' && frame.data.connected === false,
    );
    expect(disconnected.data.callerId).toBe(session.callers[0]!.callerId);
    await dispatcher.close();
  });

  it('moves a session to sharing with its first stored fix, and leaves it there', async () => {
    const session = await newSession();
    const lifecycle = () =>
      database.db
        .selectFrom('tracking_sessions')
        .select(['lifecycle', 'lifecycle_snapshot'])
        .where('id', '=', session.sessionId)
        .executeTakeFirstOrThrow();
    expect((await lifecycle()).lifecycle).not.toBe('sharing');

    const caller = await TestSocket.open(callerUrl(apiB, session));
    const base = Date.now() - 60_000;
    await sendFixes(caller, base, 0, 1);
    await apiB.app.locus.writer.flush();
    const first = await lifecycle();
    expect(first.lifecycle).toBe('sharing');

    // Later batches find it sharing already: the machine's snapshot is not written again.
    await sendFixes(caller, base, 1, 3);
    await apiB.app.locus.writer.flush();
    expect(await lifecycle()).toEqual(first);
    await caller.close();
  });

  it('relays tab focus, sharing on and off, and sharing errors', async () => {
    const session = await newSession();
    const dispatcher = await joinAsDispatcher(apiA, session);
    const caller = await TestSocket.open(callerUrl(apiB, session));
    caller.send('sharing', { sharing: true });
    caller.send('tab-focus', { focused: false });
    caller.send('sharing-error', { code: 'PERMISSION_DENIED', message: 'User denied Geolocation' });
    caller.send('sharing', { sharing: false });

    expect((await dispatcher.event('is-tab-focused')).data.focused).toBe(false);
    expect((await dispatcher.event('location-sharing-error')).data).toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    const sharing = await dispatcher.count('is-sharing-location', 2);
    expect(sharing.map((frame) => frame.data.sharing)).toEqual([true, false]);
    await caller.close();
    await dispatcher.close();
  });

  it('drops a repeated or older fix from the same phone (dedupe by capture time) but still acks it', async () => {
    const session = await newSession();
    const dispatcher = await joinAsDispatcher(apiA, session);
    const caller = await TestSocket.open(callerUrl(apiB, session));
    const base = Date.now() - 10_000;
    await sendFixes(caller, base, 5, 6);
    await sendFixes(caller, base, 5, 6); // the same fix again, as a page resending after a reconnect
    await sendFixes(caller, base, 2, 3); // older than the last one
    await sendFixes(caller, base, 6, 7);

    const fixes = await dispatcher.count('new-location-available', 2);
    await dispatcher.next(
      (frame) => frame.data.dateTimeCaptured === new Date(fixAt(base, 6).capturedAt!).toISOString(),
    );
    expect(dispatcher.of('new-location-available')).toHaveLength(2);
    expect(fixes.map((frame) => frame.data.latitude)).toEqual([
      fixAt(base, 5).latitude,
      fixAt(base, 6).latitude,
    ]);
    await caller.close();
    await dispatcher.close();
  });
});

describe('a dispatcher that loses its connection', () => {
  it('gets every missed event exactly once, in order, after reconnecting with its last seq', async () => {
    const session = await newSession();
    const first = await joinAsDispatcher(apiA, session);
    const caller = await TestSocket.open(callerUrl(apiB, session));
    const base = Date.now() - 120_000;
    await sendFixes(caller, base, 0, 5);
    const before = await first.count('new-location-available', 5);
    const lastSeq = Math.max(...seqs(first.frames.filter((frame) => frame.data.seq !== undefined)));
    await first.terminate();

    await sendFixes(caller, base, 5, 15); // missed while offline

    // Reconnect to the other instance this time: replay must not depend on where you were.
    const second = await TestSocket.open(dispatcherUrl(apiB, session));
    second.send('join', { sessionId: session.sessionId, lastSeq });
    const joined = await second.event('joined');
    await sendFixes(caller, base, 15, 18); // live again

    const after = await second.count('new-location-available', 13);
    const received = seqs(second.frames.filter((frame) => frame.data.seq !== undefined));
    expect(received[0]).toBe(lastSeq + 1);
    expect(received).toEqual(
      Array.from({ length: received.length }, (_, index) => lastSeq + 1 + index),
    );
    expect(joined.data.replayed).toBe(10);
    const captured = [...before, ...after].map((frame) => frame.data.dateTimeCaptured);
    expect(captured).toEqual(
      Array.from({ length: 18 }, (_, index) =>
        new Date(fixAt(base, index).capturedAt!).toISOString(),
      ),
    );
    await caller.close();
    await second.close();
  });

  it('is replayed from Postgres what Redis no longer holds', async () => {
    const session = await newSession();
    const caller = await TestSocket.open(callerUrl(apiB, session));
    const base = Date.now() - 300_000;
    await sendFixes(caller, base, 0, 8);
    await apiB.app.locus.writer.flush();
    // As if the replay stream had expired or been trimmed.
    const keys = apiB.app.locus.keys;
    await apiB.app.locus.redis.del(keys.stream(session.sessionId));

    const dispatcher = await TestSocket.open(dispatcherUrl(apiA, session));
    dispatcher.send('join', { sessionId: session.sessionId, lastSeq: 2 });
    const joined = await dispatcher.event('joined');
    const replayed = dispatcher.frames.filter((frame) => frame.data.seq !== undefined);
    expect(joined.data.replayed).toBe(replayed.length);
    expect(seqs(replayed)).toEqual(
      Array.from({ length: replayed.length }, (_, index) => 3 + index),
    );
    expect(replayed.filter((frame) => frame.event === 'new-location-available')).toHaveLength(7);
    expect(replayed.at(-1)!.data.dateTimeCaptured).toBe(
      new Date(fixAt(base, 7).capturedAt!).toISOString(),
    );

    // And the sequence carries on from Postgres's last number once the counter is gone too.
    await apiB.app.locus.redis.del(keys.seq(session.sessionId));
    await sendFixes(caller, base, 8, 9);
    const live = await dispatcher.next(
      (frame) =>
        frame.event === 'new-location-available' && frame.data.latitude === fixAt(base, 8).latitude,
    );
    expect(live.data.seq).toBe(replayed.at(-1)!.data.seq! + 1);
    await caller.close();
    await dispatcher.close();
  });
});
