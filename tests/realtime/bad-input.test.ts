import { openSession, type OpenedSession } from '@locus/api';
import { closeCodes, realtimeLimits } from '@locus/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, testRedisPrefix, type TestApi } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';
import { fixAt, TestSocket } from '../support/sockets';

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

const newSession = () => openSession(database.db, { callers: [{ phoneNumber: '+12025550150' }] });

async function pair(
  session: OpenedSession,
): Promise<{ dispatcher: TestSocket; caller: TestSocket }> {
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

const storedFixes = async (sessionId: string) => {
  await api.app.locus.writer.flush();
  return database.db
    .selectFrom('location_fixes')
    .select('seq')
    .where('session_id', '=', sessionId)
    .execute();
};

describe('fixes that are not valid', () => {
  const cases: [string, (base: number) => string, string][] = [
    [
      'NaN (not JSON)',
      (base) =>
        `{"event":"fix","data":{"latitude":NaN,"longitude":1,"accuracy":5,"capturedAt":${base}}}`,
      'invalid-frame',
    ],
    [
      'latitude 91',
      (base) => JSON.stringify({ event: 'fix', data: { ...fixAt(base, 0), latitude: 91 } }),
      'invalid-fix',
    ],
    [
      'longitude -181',
      (base) => JSON.stringify({ event: 'fix', data: { ...fixAt(base, 0), longitude: -181 } }),
      'invalid-fix',
    ],
    [
      'negative accuracy',
      (base) => JSON.stringify({ event: 'fix', data: { ...fixAt(base, 0), accuracy: -1 } }),
      'invalid-fix',
    ],
    [
      'a string for a number',
      (base) => JSON.stringify({ event: 'fix', data: { ...fixAt(base, 0), latitude: '38.9' } }),
      'invalid-fix',
    ],
    [
      // A capture time in the future is kept at the server's estimate (clock-ahead.test.ts).
      'a capture time no clock can show',
      (base) => JSON.stringify({ event: 'fix', data: { ...fixAt(base, 0), capturedAt: 9e15 } }),
      'invalid-fix',
    ],
    ['an unknown event', () => JSON.stringify({ event: 'teleport', data: {} }), 'unknown-event'],
    ['not an event frame', () => JSON.stringify([1, 2, 3]), 'invalid-frame'],
  ];

  it.each(cases)(
    '%s gets a clear error and is neither published nor stored',
    async (_name, frame, code) => {
      const session = await newSession();
      const { dispatcher, caller } = await pair(session);
      const base = Date.now() - 5_000;
      caller.sendRaw(frame(base));
      const error = await caller.event('error');
      expect(error.data.error).toBe(code);
      expect(String(error.data.message).length).toBeGreaterThan(0);

      // A good fix afterwards arrives, and is the only one: frames are handled in order, so a
      // published bad fix would have reached the dispatcher first.
      const good = fixAt(base, 1);
      caller.send('fix', good);
      await dispatcher.event('new-location-available');
      // The ack follows the hand-over to the batch writer: only then can a flush store it.
      await caller.next((f) => f.event === 'ack' && f.data.capturedAt === good.capturedAt);
      expect(dispatcher.of('new-location-available').map((f) => f.data.latitude)).toEqual([
        good.latitude,
      ]);
      expect(await storedFixes(session.sessionId)).toHaveLength(1);
      expect(caller.closeCode).toBeUndefined();
      await caller.close();
      await dispatcher.close();
    },
  );

  it('names the offending field', async () => {
    const session = await newSession();
    const { dispatcher, caller } = await pair(session);
    caller.send('fix', { ...fixAt(Date.now(), 0), latitude: 91 });
    const error = await caller.event('error');
    expect(error.data.issues).toEqual([expect.objectContaining({ path: 'latitude' })]);
    await caller.close();
    await dispatcher.close();
  });

  it('closes the socket with 1009 on a 1 MB frame, and stores nothing', async () => {
    const session = await newSession();
    const { dispatcher, caller } = await pair(session);
    const huge = JSON.stringify({
      event: 'fix',
      data: { ...fixAt(Date.now(), 0), pad: 'x'.repeat(1024 * 1024) },
    });
    expect(huge.length).toBeGreaterThan(realtimeLimits.maxFrameBytes);
    caller.sendRaw(huge);
    expect(await caller.closed()).toBe(closeCodes.messageTooBig);
    await dispatcher.next(
      (frame) => frame.event === 'caller-connected' && frame.data.connected === false,
    );
    expect(dispatcher.of('new-location-available')).toHaveLength(0);
    expect(await storedFixes(session.sessionId)).toHaveLength(0);
    await dispatcher.close();
  });
});

describe('tokens', () => {
  const expectRefused = async (url: string) => {
    const socket = await TestSocket.open(url);
    const error = await socket.event('error');
    expect(error.data.error).toBe('invalid-token');
    expect(await socket.closed()).toBe(closeCodes.invalidToken);
  };

  it('refuses an unknown token on both sockets', async () => {
    const unknown = 'A'.repeat(43);
    await expectRefused(`${api.wsUrl}/api/v1/socket?token=${unknown}`);
    await expectRefused(`${api.wsUrl}/api/v1/caller/socket?token=${unknown}`);
    await expectRefused(`${api.wsUrl}/api/v1/caller/socket?token=not-even-a-token`);
    await expectRefused(`${api.wsUrl}/api/v1/caller/socket`);
  });

  it('refuses an expired token', async () => {
    const session = await newSession();
    await database.db
      .updateTable('connection_tokens')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('session_id', '=', session.sessionId)
      .execute();
    await expectRefused(`${api.wsUrl}/api/v1/socket?token=${session.dispatcherToken}`);
    await expectRefused(`${api.wsUrl}/api/v1/caller/socket?token=${session.callers[0]!.token}`);
  });

  it('refuses a token on the wrong socket (a caller link is not a dispatcher token)', async () => {
    const session = await newSession();
    await expectRefused(`${api.wsUrl}/api/v1/socket?token=${session.callers[0]!.token}`);
    await expectRefused(`${api.wsUrl}/api/v1/caller/socket?token=${session.dispatcherToken}`);
  });

  it("does not let a dispatcher token join another session, and says only 'not found'", async () => {
    const mine = await newSession();
    const theirs = await newSession();
    const { dispatcher: theirDispatcher, caller: theirCaller } = await pair(theirs);
    const intruder = await TestSocket.open(
      `${api.wsUrl}/api/v1/socket?token=${mine.dispatcherToken}`,
    );
    intruder.send('join', { sessionId: theirs.sessionId });
    const error = await intruder.event('error');
    expect(error.data.error).toBe('not-found');
    expect(await intruder.closed()).toBe(closeCodes.notFound);

    theirCaller.send('fix', fixAt(Date.now() - 1000, 0));
    await theirDispatcher.event('new-location-available');
    expect(intruder.of('new-location-available')).toHaveLength(0);
    await theirCaller.close();
    await theirDispatcher.close();
  });

  it('answers a join with bad data with a clear error and keeps the socket open', async () => {
    const session = await newSession();
    const dispatcher = await TestSocket.open(
      `${api.wsUrl}/api/v1/socket?token=${session.dispatcherToken}`,
    );
    dispatcher.send('join', { sessionId: 'not-a-uuid' });
    expect((await dispatcher.event('error')).data.error).toBe('invalid-frame');
    dispatcher.send('join', { sessionId: session.sessionId });
    await dispatcher.event('joined');
    await dispatcher.close();
  });
});

describe('a flood from one caller', () => {
  it('is cut off beyond the burst: the socket closes (1013) and no later fix is taken, while accepted fixes still arrive', async () => {
    const session = await newSession();
    const { dispatcher, caller } = await pair(session);
    const base = Date.now() - 600_000;
    const sent = 200;
    for (let index = 0; index < sent; index += 1) caller.send('fix', fixAt(base, index));
    expect(await caller.closed()).toBe(closeCodes.tryAgainLater);
    const acks = caller.of('ack');
    expect(caller.of('error').map((frame) => frame.data.error)).toEqual(['rate-limited']);
    expect(acks.length).toBeGreaterThan(0);
    expect(acks.length).toBeLessThan(sent);
    // Exactly the fixes before the first one turned away: none after it overtook it.
    expect(acks.map((ack) => ack.data.capturedAt)).toEqual(
      acks.map((_, index) => fixAt(base, index).capturedAt),
    );
    const delivered = await dispatcher.count('new-location-available', acks.length);
    expect(delivered).toHaveLength(acks.length);
    await dispatcher.close();
  });

  it('is still turned away with an error, socket open, for events that are not fixes', async () => {
    const session = await newSession();
    const { dispatcher, caller } = await pair(session);
    // The burst (60 by default) and a few more than it: fewer than the socket may ignore.
    const sent = 60 + realtimeLimits.rateLimitedFramesBeforeClose / 2;
    for (let index = 0; index < sent; index += 1) caller.send('tab-focus', { focused: true });
    await caller.next(() => caller.countOf('error') > 0);
    expect(caller.of('error')[0]!.data.error).toBe('rate-limited');
    await dispatcher.next(
      (frame) => frame.event === 'is-tab-focused' && dispatcher.countOf('is-tab-focused') >= 50,
    );
    expect(caller.closeCode).toBeUndefined();
    // Closed by the page, not by the server (which would have said 1008).
    expect(await caller.close()).not.toBe(closeCodes.policyViolation);
    await dispatcher.close();
  });
});
