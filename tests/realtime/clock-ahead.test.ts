import { randomUUID } from 'node:crypto';
import { openSession, type OpenedSession } from '@locus/api';
import { realtimeLimits } from '@locus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RECENT_STAMPS_PER_KEY,
  Sequencer,
} from '../../services/api/src/modules/realtime/sequencer';
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

  // Whether a fix counts as stamped ahead depends on the network delay and on the `queuedMs` the
  // page reports with each send, so a resend can be classified otherwise than the first send.
  // Varying `queuedMs` flips the classification deterministically: a phone 58 s fast whose fix
  // was taken 60 s ago is within the tolerance if it reports no wait, far beyond it if it does.
  it('delivers a fix first sent within the tolerance, and resent beyond it, exactly once', async () => {
    const session = await newSession();
    const dispatcher = await joinAsDispatcher(session);
    const caller = await TestSocket.open(callerUrl(session));

    const stamp = Date.now() - 2_000;
    const fix = numbered(fixAt(stamp, 0), 1);
    expect((await send(caller, fix)).data.outcome).toBe('stored');
    expect((await dispatcher.event('new-location-available')).data.clockSkewMs).toBeUndefined();

    // The ack was lost with the socket: the page sends it again, now saying it waited 60 s.
    await caller.terminate();
    const again = await TestSocket.open(callerUrl(session));
    expect((await send(again, { ...fix, queuedMs: 60_000 })).data.outcome).toBe('duplicate');
    const next = numbered(fixAt(stamp, 1), 2);
    expect((await send(again, next)).data.outcome).toBe('stored');
    await dispatcher.next(
      (frame) => frame.event === 'new-location-available' && frame.data.latitude === next.latitude,
    );
    expect(fixes(dispatcher).map((frame) => frame.data.latitude)).toEqual([
      fix.latitude,
      next.latitude,
    ]);
    await again.close();
    await dispatcher.close();
  });

  it('delivers a fix first sent beyond the tolerance, and resent within it, exactly once', async () => {
    const session = await newSession();
    const dispatcher = await joinAsDispatcher(session);
    const caller = await TestSocket.open(callerUrl(session));

    const stamp = Date.now() - 2_000;
    const ahead = numbered(fixAt(stamp, 0), 1, { queuedMs: 60_000 });
    expect((await send(caller, ahead)).data.outcome).toBe('stored');
    expect((await dispatcher.event('new-location-available')).data.clockSkewMs).toBeGreaterThan(
      50_000,
    );

    await caller.terminate();
    const again = await TestSocket.open(callerUrl(session));
    const { queuedMs: _waited, ...resent } = ahead;
    expect((await send(again, resent)).data.outcome).toBe('duplicate');
    const next = numbered(fixAt(stamp, 1), 2);
    expect((await send(again, next)).data.outcome).toBe('stored');
    await dispatcher.next(
      (frame) => frame.event === 'new-location-available' && frame.data.latitude === next.latitude,
    );
    expect(fixes(dispatcher)).toHaveLength(2);
    await again.close();
    await dispatcher.close();
  });

  it('delivers a fix stamped 10 minutes ahead (a clock set by hand), at the estimate and flagged', async () => {
    const session = await newSession();
    const dispatcher = await joinAsDispatcher(session);
    const caller = await TestSocket.open(callerUrl(session));

    const sentAt = Date.now();
    const ahead = numbered(fixAt(sentAt + 600_000, 0), 1);
    expect((await send(caller, ahead)).data.outcome).toBe('stored');
    const delivered = await dispatcher.event('new-location-available');
    const ackedAt = Date.now();
    expect(delivered.data.clockSkewMs).toBeLessThanOrEqual(600_000);
    expect(delivered.data.clockSkewMs).toBeGreaterThan(600_000 - (ackedAt - sentAt) - 1);
    const drawnAt = Date.parse(delivered.data.dateTimeCaptured as string);
    expect(drawnAt).toBeGreaterThanOrEqual(sentAt);
    expect(drawnAt).toBeLessThanOrEqual(ackedAt);

    // The phone's later fixes, stamped ahead too, are delivered; so is one once its clock is
    // set right; a resend of the first is a duplicate.
    const later = numbered(fixAt(sentAt + 600_000, 1), 2);
    expect((await send(caller, later)).data.outcome).toBe('stored');
    const corrected = numbered(fixAt(sentAt - 10_000, 2), 3);
    expect((await send(caller, corrected)).data.outcome).toBe('stored');
    await caller.terminate();
    const again = await TestSocket.open(callerUrl(session));
    expect((await send(again, { ...ahead, queuedMs: 3_000 })).data.outcome).toBe('duplicate');
    await dispatcher.count('new-location-available', 3);

    await apiB.app.locus.writer.flush();
    const stored = await database.db
      .selectFrom('location_fixes')
      .select(['latitude', 'clock_skew_ms'])
      .where('session_id', '=', session.sessionId)
      .orderBy('seq')
      .execute();
    expect(stored.map((row) => row.latitude)).toEqual(
      [ahead, later, corrected].map((fix) => fix.latitude),
    );
    expect(stored[0]!.clock_skew_ms).toBe(delivered.data.clockSkewMs);
    expect(stored[2]!.clock_skew_ms).toBeNull();
    expect(fixes(dispatcher)).toHaveLength(3);
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

describe('the stamps the sequencer remembers', () => {
  it('are bounded per caller, and a stamp dropped from them is still a duplicate when not newer than the latest', async () => {
    const redis = apiB.app.locus.redis.duplicate();
    const sequencer = new Sequencer(redis, apiB.app.locus.keys, {
      streamMaxLen: 100,
      ttlSeconds: 600,
    });
    const sessionId = randomUUID();
    const key = randomUUID();
    await sequencer.seed(sessionId, 0);
    const publish = (capturedAt: number, exact: boolean) =>
      sequencer.publish(sessionId, 'new-location-available', '{}', { key, capturedAt, exact });

    const base = Date.now() - 60_000;
    expect(await publish(base, false)).toBe(1);
    // Stamped ahead: none moves the latest, each is remembered, the oldest are forgotten.
    const more = RECENT_STAMPS_PER_KEY + 10;
    const seqs = await Promise.all(
      Array.from({ length: more }, (_, i) => publish(base + 600_000 + i, true)),
    );
    expect(seqs).toEqual(seqs.map((_, i) => i + 2));
    const stamps = apiB.app.locus.keys.captureStamps(sessionId, key);
    expect(await redis.zcard(stamps)).toBe(RECENT_STAMPS_PER_KEY);
    expect(await redis.zscore(stamps, String(base))).toBeNull();
    expect(await redis.ttl(stamps)).toBeGreaterThan(0);

    // Remembered stamps are duplicates in either mode; the first, forgotten, is still one as it
    // is not newer than the latest; a newer stamp is not.
    expect(await publish(base + 600_000 + more - 1, false)).toBe(0);
    expect(await publish(base + 600_000 + more - 1, true)).toBe(0);
    expect(await publish(base, true)).toBe(0);
    expect(await publish(base, false)).toBe(0);
    expect(await publish(base + 1, false)).toBe(more + 2);
    await redis.quit();
  });
});
