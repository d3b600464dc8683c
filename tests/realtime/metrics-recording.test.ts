import { BatchWriter, openSession, type OpenedSession } from '@locus/api';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, testRedisPrefix, type TestApi } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';
import { fixAt, TestSocket } from '../support/sockets';

// Issue 13: what the metrics read is recorded where it happens, by the caller socket and the
// batch writer (not rebuilt from logs).
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

const newSession = () => openSession(database.db, { callers: [{ phoneNumber: '+12025550131' }] });
const callerSocket = (session: OpenedSession) =>
  TestSocket.open(`${api.wsUrl}/api/v1/caller/socket?token=${session.callers[0]!.token}`);

async function joinAsDispatcher(session: OpenedSession): Promise<TestSocket> {
  const dispatcher = await TestSocket.open(
    `${api.wsUrl}/api/v1/socket?token=${session.dispatcherToken}`,
  );
  dispatcher.send('join', { sessionId: session.sessionId });
  await dispatcher.event('joined');
  return dispatcher;
}

/** Sends one fix with this accuracy and waits for its ack. */
async function sendFix(caller: TestSocket, capturedAt: number, accuracy: number): Promise<void> {
  caller.send('fix', { ...fixAt(capturedAt, 0), accuracy });
  const ack = await caller.next(
    (frame) => frame.event === 'ack' && frame.data.capturedAt === capturedAt,
  );
  expect(ack.data.outcome).toBe('stored');
}

const sessionRow = (sessionId: string) =>
  database.db
    .selectFrom('tracking_sessions')
    .select(['first_fix_at', 'first_fix_source', 'first_fix_uncertainty_m', 'best_uncertainty_m'])
    .where('id', '=', sessionId)
    .executeTakeFirstOrThrow();

const callerRow = (callerId: string) =>
  database.db
    .selectFrom('session_callers')
    .select(['prompt_shown_at', 'shared_at', 'denied_at'])
    .where('id', '=', callerId)
    .executeTakeFirstOrThrow();

const fixesOf = (sessionId: string) =>
  database.db
    .selectFrom('location_fixes')
    .select(['seq', 'received_at', 'uncertainty_radius_m'])
    .where('session_id', '=', sessionId)
    .orderBy('received_at')
    .orderBy('seq')
    .execute();

const time = (date: Date | null) => date?.getTime() ?? null;

describe("the caller's link funnel and the session's first fix", () => {
  it('records prompt-shown, the first fix as sharing, once each, and the best uncertainty', async () => {
    const session = await newSession();
    const callerId = session.callers[0]!.callerId;
    const dispatcher = await joinAsDispatcher(session);
    const caller = await callerSocket(session);
    const before = Date.now();

    caller.send('prompt-shown', {});
    await expect.poll(async () => (await callerRow(callerId)).prompt_shown_at).not.toBeNull();
    caller.send('sharing', { sharing: true });
    caller.send('prompt-shown', {});
    // Tapping Share is not sharing: the browser's prompt may still be refused.
    await expect.poll(async () => (await callerRow(callerId)).prompt_shown_at).not.toBeNull();
    expect((await callerRow(callerId)).shared_at).toBeNull();

    const base = Date.now() - 30_000;
    await sendFix(caller, base, 30);
    await sendFix(caller, base + 1_000, 8);
    await sendFix(caller, base + 2_000, 15);
    await api.app.locus.writer.flush();

    const fixes = await fixesOf(session.sessionId);
    expect(fixes).toHaveLength(3);
    const first = await sessionRow(session.sessionId);
    expect(first).toMatchObject({
      first_fix_source: 'link',
      first_fix_uncertainty_m: 30,
      best_uncertainty_m: 8,
    });
    expect(time(first.first_fix_at)).toBe(time(fixes[0]!.received_at));

    const marks = await callerRow(callerId);
    expect(marks.denied_at).toBeNull();
    expect(time(marks.prompt_shown_at)).toBeGreaterThanOrEqual(before);
    // Shared when the first position reached Locus.
    expect(time(marks.shared_at)).toBe(time(first.first_fix_at));

    // Later fixes, on a later socket too: the first fix stays; only a better accuracy counts.
    await caller.close();
    const again = await callerSocket(session);
    again.send('prompt-shown', {});
    again.send('sharing', { sharing: true });
    await sendFix(again, base + 3_000, 50);
    await api.app.locus.writer.flush();
    expect(await sessionRow(session.sessionId)).toEqual(first);
    await sendFix(again, base + 4_000, 3);
    await api.app.locus.writer.flush();
    expect(await sessionRow(session.sessionId)).toEqual({ ...first, best_uncertainty_m: 3 });
    expect(await callerRow(callerId)).toEqual(marks);

    // prompt-shown is the metrics' only: never shown to the dispatcher, nor in the session's log.
    expect(dispatcher.frames.map((frame) => frame.event)).not.toContain('prompt-shown');
    const logged = await database.db
      .selectFrom('session_events')
      .select('event')
      .where('session_id', '=', session.sessionId)
      .execute();
    expect(logged.map((row) => row.event)).not.toContain('prompt-shown');
    await again.close();
    await dispatcher.close();
  });

  it('counts the first stored fix as sharing when the page sent no sharing frame', async () => {
    const session = await newSession();
    const callerId = session.callers[0]!.callerId;
    const caller = await callerSocket(session);
    await sendFix(caller, Date.now() - 5_000, 12);
    await expect.poll(async () => (await callerRow(callerId)).shared_at).not.toBeNull();
    await api.app.locus.writer.flush();
    const [fix] = await fixesOf(session.sessionId);
    // Counted sharing when that fix reached Locus.
    expect(time((await callerRow(callerId)).shared_at)).toBe(time(fix!.received_at));
    await caller.close();
  });

  it('records a permission denial once, and no other sharing error as one', async () => {
    const session = await newSession();
    const callerId = session.callers[0]!.callerId;
    const caller = await callerSocket(session);
    caller.send('prompt-shown', {});
    caller.send('sharing', { sharing: true });
    caller.send('sharing-error', { code: 'timeout', message: 'Taking too long.' });
    caller.send('sharing', { sharing: false });
    caller.send('sharing-error', { code: 'permission-denied', message: 'Blocked.' });
    await expect.poll(async () => (await callerRow(callerId)).denied_at).not.toBeNull();
    const marks = await callerRow(callerId);
    expect(marks.prompt_shown_at).not.toBeNull();
    // Tapping Share and then refusing the browser's prompt is a denial, never a share.
    expect(marks.shared_at).toBeNull();
    await caller.close();

    const later = await callerSocket(session);
    later.send('sharing-error', { code: 'permission-denied', message: 'Blocked again.' });
    // Frames are handled in order: once the next one is answered, the denial has been handled.
    later.send('prompt-shown', { unexpected: true });
    await later.next((frame) => frame.event === 'error');
    expect(await callerRow(callerId)).toEqual(marks);
    await api.app.locus.writer.flush();
    expect(await sessionRow(session.sessionId)).toEqual({
      first_fix_at: null,
      first_fix_source: null,
      first_fix_uncertainty_m: null,
      best_uncertainty_m: null,
    });
    await later.close();
  });
});

describe('the batch writer', () => {
  it("takes a session's first fix as the batch's earliest to arrive, in one write for every session", async () => {
    const link = await newSession();
    const lookup = await newSession();
    const writer = new BatchWriter(database.db, pino({ level: 'silent' }), {
      maxRows: 100,
      maxDelayMs: 60_000,
    });
    const t0 = new Date(Date.now() - 10_000);
    const at = (ms: number) => new Date(t0.getTime() + ms);
    const row = (
      session: OpenedSession,
      seq: number,
      receivedAt: Date,
      uncertaintyRadiusM: number,
      source: 'TEXT_MESSAGE' | 'RAPID_SOS' = 'TEXT_MESSAGE',
    ) => ({
      sessionId: session.sessionId,
      seq,
      callerId: session.callers[0]!.callerId,
      latitude: 38.9,
      longitude: -77.03,
      uncertaintyRadiusM,
      altitude: null,
      heading: null,
      speed: null,
      source,
      capturedAt: at(-1_000),
      receivedAt,
    });
    // Seq order is not arrival order (two instances, or a retry): arrival decides.
    writer.addFix(row(link, 1, at(2_000), 20));
    writer.addFix(row(link, 2, at(500), 40));
    writer.addFix(row(link, 3, at(3_000), 6));
    writer.addFix(row(lookup, 1, at(1_000), 75, 'RAPID_SOS'));
    await writer.flush();

    expect(await sessionRow(link.sessionId)).toEqual({
      first_fix_at: at(500),
      first_fix_source: 'link',
      first_fix_uncertainty_m: 40,
      best_uncertainty_m: 6,
    });
    expect(await sessionRow(lookup.sessionId)).toEqual({
      first_fix_at: at(1_000),
      first_fix_source: 'lookup',
      first_fix_uncertainty_m: 75,
      best_uncertainty_m: 75,
    });

    // A later batch with an earlier-stamped fix (a late one) never moves the first fix.
    writer.addFix(row(lookup, 2, at(0), 10));
    await writer.flush();
    expect(await sessionRow(lookup.sessionId)).toEqual({
      first_fix_at: at(1_000),
      first_fix_source: 'lookup',
      first_fix_uncertainty_m: 75,
      best_uncertainty_m: 10,
    });
  });
});
