import { openSession, type OpenedSession } from '@locus/api';
import { realtimeLimits } from '@locus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, testRedisPrefix, type TestApi } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';
import { fixAt, TestSocket, type ReceivedFrame } from '../support/sockets';

// The probe's finding: one fix stamped 29 s ahead (a phone whose clock runs fast) made every
// correctly stamped fix after it acknowledged but never delivered. The caller is on instance B,
// the dispatcher on A, as in production.
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

const newSession = () => openSession(database.db, { callers: [{ phoneNumber: '+12025550188' }] });
const callerUrl = (session: OpenedSession) =>
  `${apiB.wsUrl}/api/v1/caller/socket?token=${session.callers[0]!.token}`;

async function joinAsDispatcher(session: OpenedSession, lastSeq?: number): Promise<TestSocket> {
  const dispatcher = await TestSocket.open(
    `${apiA.wsUrl}/api/v1/socket?token=${session.dispatcherToken}`,
  );
  dispatcher.send('join', { sessionId: session.sessionId, ...(lastSeq ? { lastSeq } : {}) });
  await dispatcher.event('joined');
  return dispatcher;
}

/** Sends one fix, numbered as the page numbers it, and resolves with its ack. */
async function send(caller: TestSocket, fix: Record<string, number>): Promise<ReceivedFrame> {
  caller.send('fix', fix);
  return caller.next((frame) => frame.event === 'ack' && frame.data.n === fix.n);
}

const fixes = (socket: TestSocket) => socket.of('new-location-available');

/** A fix as the page sends it: with its number, and anything else changed. */
type PageFix = Record<string, number>;
const numbered = (fix: PageFix, n: number, change: PageFix = {}): PageFix => ({
  ...fix,
  ...change,
  n,
});

describe('a fix from a phone whose clock runs ahead', () => {
  it('does not hold back the correctly stamped fixes after it: each is delivered once, in order', async () => {
    const session = await newSession();
    const dispatcher = await joinAsDispatcher(session);
    const caller = await TestSocket.open(callerUrl(session));

    const sentAt = Date.now();
    const ahead = numbered(fixAt(sentAt, 0), 1, { capturedAt: sentAt + 29_000 });
    expect((await send(caller, ahead)).data.outcome).toBe('stored');
    const genuineBase = Date.now() - 6_000;
    const genuine = [1, 2, 3, 4, 5].map((index) => numbered(fixAt(genuineBase, index), index + 1));
    for (const fix of genuine) expect((await send(caller, fix)).data.outcome).toBe('stored');

    const delivered = await dispatcher.count('new-location-available', 6);
    expect(delivered.map((frame) => frame.data.latitude)).toEqual(
      [ahead, ...genuine].map((fix) => fix.latitude),
    );
    const seqs = delivered.map((frame) => frame.data.seq!);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    // The fix stamped ahead is drawn at the server's estimate, flagged with how far ahead it was.
    const [first] = delivered;
    expect(first!.data.clockSkewMs).toBeGreaterThan(28_000);
    expect(first!.data.clockSkewMs).toBeLessThanOrEqual(29_000);
    const drawnAt = Date.parse(first!.data.dateTimeCaptured as string);
    expect(drawnAt).toBeGreaterThanOrEqual(sentAt);
    expect(drawnAt).toBeLessThan(sentAt + 29_000 - realtimeLimits.futureFixToleranceMs);
    // The others keep the phone's own time and carry no flag.
    expect(delivered.slice(1).map((frame) => frame.data.dateTimeCaptured)).toEqual(
      genuine.map((fix) => new Date(fix.capturedAt!).toISOString()),
    );
    expect(delivered.slice(1).every((frame) => frame.data.clockSkewMs === undefined)).toBe(true);

    // A page that reconnects sends again what it has no ack for: every one is a duplicate.
    await caller.terminate();
    const again = await TestSocket.open(callerUrl(session));
    const resent = [
      { ...ahead, queuedMs: 3_000 },
      { ...genuine[4]!, queuedMs: 2_000 },
    ];
    for (const fix of resent) expect((await send(again, fix)).data.outcome).toBe('duplicate');
    const next = numbered(fixAt(genuineBase, 6), 7);
    expect((await send(again, next)).data.outcome).toBe('stored');
    await dispatcher.next(
      (frame) => frame.event === 'new-location-available' && frame.data.latitude === next.latitude,
    );
    expect(fixes(dispatcher)).toHaveLength(7);

    // Replayed from Postgres, the fix stamped ahead is the very frame first sent.
    await apiB.app.locus.writer.flush();
    await apiB.app.locus.redis.del(apiB.app.locus.keys.stream(session.sessionId));
    const later = await joinAsDispatcher(session);
    expect(fixes(later)).toEqual(fixes(dispatcher));

    await again.close();
    await dispatcher.close();
    await later.close();
  });

  it("is still a duplicate when resent once the phone's stamp is no longer ahead", async () => {
    const session = await newSession();
    const dispatcher = await joinAsDispatcher(session);
    const caller = await TestSocket.open(callerUrl(session));

    // Just beyond the tolerance: ahead when first sent, no longer ahead a moment later.
    const stamp = Date.now() + realtimeLimits.futureFixToleranceMs + 500;
    const ahead = numbered(fixAt(stamp, 0), 1);
    expect((await send(caller, ahead)).data.outcome).toBe('stored');
    expect((await dispatcher.event('new-location-available')).data.clockSkewMs).toBeGreaterThan(
      realtimeLimits.futureFixToleranceMs,
    );

    // Waits for the clock, not for a race: until the stamp is within the tolerance of now.
    await new Promise((resolve) =>
      setTimeout(resolve, stamp - realtimeLimits.futureFixToleranceMs - Date.now() + 50),
    );
    await caller.terminate();
    const again = await TestSocket.open(callerUrl(session));
    expect((await send(again, ahead)).data.outcome).toBe('duplicate');
    const next = numbered(fixAt(stamp, 1), 2, { capturedAt: Date.now() });
    expect((await send(again, next)).data.outcome).toBe('stored');
    await dispatcher.next(
      (frame) => frame.event === 'new-location-available' && frame.data.latitude === next.latitude,
    );
    expect(fixes(dispatcher)).toHaveLength(2);
    await again.close();
    await dispatcher.close();
  });

  it('still drops a resend or an older fix from a phone whose clock is right', async () => {
    const session = await newSession();
    const dispatcher = await joinAsDispatcher(session);
    const caller = await TestSocket.open(callerUrl(session));
    const base = Date.now() - 20_000;
    expect((await send(caller, numbered(fixAt(base, 5), 1))).data.outcome).toBe('stored');
    expect((await send(caller, numbered(fixAt(base, 5), 2))).data.outcome).toBe('duplicate');
    expect((await send(caller, numbered(fixAt(base, 2), 3))).data.outcome).toBe('duplicate');
    expect((await send(caller, numbered(fixAt(base, 6), 4))).data.outcome).toBe('stored');
    await dispatcher.count('new-location-available', 2);
    expect(fixes(dispatcher)).toHaveLength(2);
    await caller.close();
    await dispatcher.close();
  });
});
