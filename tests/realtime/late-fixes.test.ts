import { openSession, type OpenedSession } from '@locus/api';
import { closeCodes, realtimeLimits } from '@locus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, testRedisPrefix, type TestApi } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';
import { fixAt as anyFixAt, TestSocket } from '../support/sockets';

// What a caller's page relies on when its network comes back: fixes it took offline go out in
// batches with their original capture times and how long they waited; each is acked by the
// page's own number (stored, a duplicate, or refused for good), stored once, and reaches the
// dispatcher marked late. And what the phone says about itself reaches the dispatcher.

/** The support helper's fix, with the fields this file reads named. */
const fixAt = (base: number, index: number) =>
  anyFixAt(base, index) as ReturnType<typeof anyFixAt> & { capturedAt: number; latitude: number };

let database: TestDatabase;
let api: TestApi;

beforeAll(async () => {
  database = await freshDatabase();
  api = await startApi({ databaseUrl: database.url, redisPrefix: testRedisPrefix() });
});

afterAll(async () => {
  await api?.close();
  await database?.drop();
});

async function pair(session: OpenedSession) {
  const dispatcher = await TestSocket.open(
    `${api.wsUrl}/api/v1/socket?token=${session.dispatcherToken}`,
  );
  dispatcher.send('join', { sessionId: session.sessionId });
  await dispatcher.event('joined');
  const caller = await TestSocket.open(
    `${api.wsUrl}/api/v1/caller/socket?token=${session.callers[0]!.token}`,
  );
  return { dispatcher, caller };
}

const newSession = () => openSession(database.db, { callers: [{ phoneNumber: '+12025550151' }] });

const storedFixes = async (sessionId: string) => {
  await api.app.locus.writer.flush();
  return database.db
    .selectFrom('location_fixes')
    .select(['seq', 'captured_at', 'delay_ms'])
    .where('session_id', '=', sessionId)
    .orderBy('seq')
    .execute();
};

describe('fixes that waited on the phone', () => {
  it('a batch is stored once, in order, acked by number, and marked delayed for the dispatcher', async () => {
    const session = await newSession();
    const { dispatcher, caller } = await pair(session);
    const base = Date.now() - 60_000;
    // Twelve fixes taken a second apart while offline; the oldest waited 60 s.
    const fixes = Array.from({ length: 12 }, (_, i) => ({
      ...fixAt(base, i),
      n: i + 1,
      queuedMs: 60_000 - i * 1000,
    }));
    caller.send('fixes', { fixes: fixes.slice(0, 7) });
    caller.send('fixes', { fixes: fixes.slice(5) }); // 6 and 7 again: a resend after a lost ack
    const acks = await caller.count('ack', 14);
    expect(acks.map((ack) => ack.data.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 6, 7, 8, 9, 10, 11, 12]);
    expect(acks.map((ack) => ack.data.outcome)).toEqual([
      ...Array<string>(7).fill('stored'),
      'duplicate',
      'duplicate',
      ...Array<string>(5).fill('stored'),
    ]);

    const live = await dispatcher.count('new-location-available', 12);
    expect(live.map((frame) => Date.parse(String(frame.data.dateTimeCaptured)))).toEqual(
      fixes.map((fix) => fix.capturedAt),
    );
    expect(live.map((frame) => frame.data.delayMs)).toEqual(fixes.map((fix) => fix.queuedMs));

    const stored = await storedFixes(session.sessionId);
    expect(stored.map((row) => row.captured_at.getTime())).toEqual(
      fixes.map((fix) => fix.capturedAt),
    );
    expect(stored.map((row) => row.delay_ms)).toEqual(fixes.map((fix) => fix.queuedMs));

    // A dispatcher who joins later gets the very same frames, delay included: from the Redis
    // replay stream, and from Postgres once the stream is gone.
    await api.app.locus.writer.flush();
    const rejoin = async () => {
      const late = await TestSocket.open(
        `${api.wsUrl}/api/v1/socket?token=${session.dispatcherToken}`,
      );
      late.send('join', { sessionId: session.sessionId });
      await late.event('joined');
      await late.close();
      return late.of('new-location-available');
    };
    expect(await rejoin()).toEqual(live);
    await api.app.locus.redis.del(api.app.locus.keys.stream(session.sessionId));
    expect(await rejoin()).toEqual(live);
    await Promise.all([caller.close(), dispatcher.close()]);
  });

  it('a fix sent as soon as it was taken carries no delay', async () => {
    const session = await newSession();
    const { dispatcher, caller } = await pair(session);
    const fix = { ...fixAt(Date.now() - 2000, 0), n: 1, queuedMs: 1500 };
    caller.send('fix', fix);
    const frame = await dispatcher.event('new-location-available');
    expect(frame.data).not.toHaveProperty('delayMs');
    expect((await caller.event('ack')).data).toEqual({
      capturedAt: fix.capturedAt,
      n: 1,
      outcome: 'stored',
    });
    expect((await storedFixes(session.sessionId))[0]!.delay_ms).toBeNull();
    await Promise.all([caller.close(), dispatcher.close()]);
  });

  it('a fix refused for good is acked as refused, by number, so the page drops it; the rest of its batch is stored', async () => {
    const session = await newSession();
    const { dispatcher, caller } = await pair(session);
    const now = Date.now();
    const tooOld = {
      ...fixAt(now - 60_000, 0),
      n: 1,
      queuedMs: realtimeLimits.maxFixAgeMs + 1,
    };
    const outOfRange = { ...fixAt(now - 5000, 1), latitude: 123, n: 2 };
    const good = { ...fixAt(now - 5000, 2), n: 3 };
    caller.send('fixes', { fixes: [tooOld, outOfRange, good] });
    const acks = await caller.count('ack', 3);
    expect(acks.map((ack) => [ack.data.n, ack.data.outcome])).toEqual([
      [1, 'refused'],
      [2, 'refused'],
      [3, 'stored'],
    ]);
    expect(acks[0]!.data.reason).toMatch(/queuedMs: The fix waited on the phone too long/);
    expect(acks[1]!.data.reason).toMatch(/latitude/);
    expect(caller.of('error').map((frame) => frame.data.error)).toEqual([
      'invalid-fix',
      'invalid-fix',
    ]);
    await dispatcher.event('new-location-available');
    const stored = await storedFixes(session.sessionId);
    expect(stored.map((row) => row.captured_at.getTime())).toEqual([good.capturedAt]);
    await Promise.all([caller.close(), dispatcher.close()]);
  });

  it("a phone whose clock is days behind still has its fixes stored (age is judged by the phone's own wait)", async () => {
    const session = await newSession();
    const { dispatcher, caller } = await pair(session);
    const threeDaysBehind = Date.now() - 3 * 24 * 3_600_000;
    caller.send('fix', { ...fixAt(threeDaysBehind, 0), n: 1 });
    expect((await caller.event('ack')).data.outcome).toBe('stored');
    await dispatcher.event('new-location-available');
    await Promise.all([caller.close(), dispatcher.close()]);
  });

  it('a flood of fixes is turned away whole: the socket closes (1013) before any later fix is taken, so a resend loses nothing', async () => {
    const session = await newSession();
    const { dispatcher, caller } = await pair(session);
    const base = Date.now() - 600_000;
    const all = Array.from({ length: 2000 }, (_, i) => ({ ...fixAt(base, i / 10), n: i + 1 }));
    // 40 frames of 50: each costs 5 tokens of the 60-token burst, so the 13th is turned away.
    for (let i = 0; i < all.length; i += 50) caller.send('fixes', { fixes: all.slice(i, i + 50) });
    expect(await caller.closed()).toBe(closeCodes.tryAgainLater);
    const acked = caller.of('ack').map((ack) => ack.data.n as number);
    expect(acked).toEqual(acked.map((_, i) => i + 1));
    expect(acked.length % 50).toBe(0);
    expect(acked.length).toBeLessThan(all.length);
    expect(caller.of('error').map((frame) => frame.data.error)).toEqual(['rate-limited']);

    // The page reconnects and sends the rest, from the first fix not acked: all of it is stored.
    const again = await TestSocket.open(
      `${api.wsUrl}/api/v1/caller/socket?token=${session.callers[0]!.token}`,
    );
    const rest = all.slice(acked.length);
    for (let i = 0; i < Math.min(rest.length, 500); i += 50)
      again.send('fixes', { fixes: rest.slice(i, i + 50) });
    const more = Math.min(rest.length, 500);
    await again.count('ack', more);
    await dispatcher.count('new-location-available', acked.length + more);
    const stored = await storedFixes(session.sessionId);
    expect(stored.map((row) => row.captured_at.getTime())).toEqual(
      all.slice(0, acked.length + more).map((fix) => fix.capturedAt),
    );
    await Promise.all([again.close(), dispatcher.close()]);
  });

  it.each([
    ['not a list', { fixes: 'many' }],
    ['an empty list', { fixes: [] }],
    ['too many fixes', { fixes: Array.from({ length: 51 }, (_, i) => fixAt(Date.now(), i)) }],
    ['an extra field', { fixes: [fixAt(Date.now() - 1000, 0)], extra: true }],
  ])('a fixes frame with %s is refused whole, and nothing is stored', async (_name, data) => {
    const session = await newSession();
    const { dispatcher, caller } = await pair(session);
    caller.send('fixes', data);
    expect((await caller.event('error')).data.error).toBe('invalid-frame');
    expect(caller.of('ack')).toHaveLength(0);
    expect(await storedFixes(session.sessionId)).toHaveLength(0);
    expect(dispatcher.of('new-location-available')).toHaveLength(0);
    await Promise.all([caller.close(), dispatcher.close()]);
  });
});

describe("the caller's phone", () => {
  it('battery, network, background and permission reach the dispatcher, with the time it went to the background', async () => {
    const session = await newSession();
    const { dispatcher, caller } = await pair(session);
    const before = Date.now();
    caller.send('device', {
      battery: { level: 0.07, charging: false },
      network: { type: 'cellular', effectiveType: '3g' },
      visibility: 'hidden',
      hiddenForMs: 90_000,
      permission: 'granted',
    });
    const frame = await dispatcher.event('caller-device');
    expect(frame.data).toMatchObject({
      callerId: session.callers[0]!.callerId,
      battery: { level: 0.07, charging: false },
      network: { type: 'cellular', effectiveType: '3g' },
      visibility: 'hidden',
      permission: 'granted',
    });
    const hiddenSince = Date.parse(String(frame.data.hiddenSince));
    expect(hiddenSince).toBeGreaterThanOrEqual(before - 90_000);
    expect(hiddenSince).toBeLessThanOrEqual(Date.now() - 90_000);

    // Kept with the session's history: a dispatcher who reloads sees it too (from Postgres).
    await api.app.locus.writer.flush();
    await api.app.locus.redis.del(api.app.locus.keys.stream(session.sessionId));
    const again = await TestSocket.open(
      `${api.wsUrl}/api/v1/socket?token=${session.dispatcherToken}`,
    );
    again.send('join', { sessionId: session.sessionId });
    expect((await again.event('caller-device')).data).toEqual(frame.data);
    await Promise.all([caller.close(), dispatcher.close(), again.close()]);
  });

  it('a device report that breaks the contract is refused and not published', async () => {
    const session = await newSession();
    const { dispatcher, caller } = await pair(session);
    caller.send('device', {
      battery: { level: 7, charging: false },
      network: null,
      visibility: 'hidden',
      hiddenForMs: 1000,
      permission: 'granted',
    });
    const error = await caller.event('error');
    expect(error.data.error).toBe('invalid-frame');
    expect(error.data.issues).toEqual([expect.objectContaining({ path: 'battery.level' })]);
    // Frames are handled in order: a good one afterwards is the first the dispatcher sees.
    caller.send('device', {
      battery: null,
      network: null,
      visibility: 'visible',
      hiddenForMs: null,
      permission: null,
    });
    const frame = await dispatcher.event('caller-device');
    expect(frame.data.visibility).toBe('visible');
    expect(dispatcher.of('caller-device')).toHaveLength(1);
    await Promise.all([caller.close(), dispatcher.close()]);
  });
});
