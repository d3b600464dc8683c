import { openSession } from '@locus/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, testRedisPrefix, type TestApi } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';
import { fixAt, TestSocket } from '../support/sockets';

let database: TestDatabase;
let redisPrefix: string;

beforeAll(async () => {
  database = await freshDatabase();
  redisPrefix = testRedisPrefix();
});

afterAll(async () => {
  await database?.drop();
});

describe('a dispatcher socket that stops reading', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({
      databaseUrl: database.url,
      redisPrefix,
      // A tiny buffer allowance and no caller rate limit, so the test can overwhelm it quickly.
      env: {
        DISPATCHER_HIGH_WATER_BYTES: '1024',
        CALLER_MAX_EVENTS_PER_SECOND: '100000',
        CALLER_EVENT_BURST: '100000',
        // The paused dispatcher answers no ping: under load the pause can outlast two beats.
        SOCKET_HEARTBEAT_MS: '0',
      },
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('gets only the latest fix per caller once it reads again (but every error), and its backlog stays bounded', async () => {
    const session = await openSession(database.db, {
      callers: [{ phoneNumber: '+12025550100' }, { phoneNumber: '+12025550101' }],
    });
    const dispatcher = await TestSocket.open(
      `${api.wsUrl}/api/v1/socket?token=${session.dispatcherToken}`,
    );
    dispatcher.send('join', { sessionId: session.sessionId });
    await dispatcher.event('joined');
    dispatcher.ws.pause(); // stop reading: the kernel buffers fill, then the server's

    const callers = await Promise.all(
      session.callers.map((caller) =>
        TestSocket.open(`${api.wsUrl}/api/v1/caller/socket?token=${caller.token}`),
      ),
    );
    const perCaller = 15_000;
    const base = Date.now() - perCaller * 1000 - 60_000;
    // News that is not a caller's latest state (here an error; chat messages and transfers
    // alike) is never conflated away: each one reaches the slow dispatcher.
    const errorsSent: string[] = [];
    for (let index = 0; index < perCaller; index += 1) {
      for (const caller of callers) caller.send('fix', fixAt(base, index));
      if (index % 1_000 === 500) {
        const message = `no fix at ${index}`;
        errorsSent.push(message);
        callers[0]!.send('sharing-error', { code: 'position-unavailable', message });
      }
    }
    await Promise.all(callers.map((caller) => caller.count('ack', perCaller)));
    const conflated = await api.app.locus.metrics.conflated.get();
    expect(conflated.values[0]?.value ?? 0).toBeGreaterThan(0);

    dispatcher.ws.resume();
    const lastCapture = new Date(fixAt(base, perCaller - 1).capturedAt!).toISOString();
    for (const caller of session.callers) {
      await dispatcher.next(
        (frame) =>
          frame.event === 'new-location-available' &&
          frame.data.callerId === caller.callerId &&
          frame.data.dateTimeCaptured === lastCapture,
      );
    }
    expect(dispatcher.of('location-sharing-error').map((frame) => frame.data.message)).toEqual(
      errorsSent,
    );
    const delivered = dispatcher.of('new-location-available');
    expect(delivered.length).toBeLessThan(2 * perCaller);
    const seqs = delivered.map((frame) => frame.data.seq!);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    await Promise.all(callers.map((caller) => caller.close()));
    await dispatcher.close();
  }, 120_000);
});

describe('an instance that shuts down', () => {
  it('tells its sockets to go elsewhere, and publishes and persists what callers sent', async () => {
    const stays = await startApi({ databaseUrl: database.url, redisPrefix });
    const goes = await startApi({ databaseUrl: database.url, redisPrefix });
    const session = await openSession(database.db, { callers: [{ phoneNumber: '+12025550102' }] });
    const dispatcher = await TestSocket.open(
      `${stays.wsUrl}/api/v1/socket?token=${session.dispatcherToken}`,
    );
    dispatcher.send('join', { sessionId: session.sessionId });
    await dispatcher.event('joined');
    const caller = await TestSocket.open(
      `${goes.wsUrl}/api/v1/caller/socket?token=${session.callers[0]!.token}`,
    );
    const base = Date.now() - 30_000;
    for (let index = 0; index < 10; index += 1) caller.send('fix', fixAt(base, index));
    await caller.count('ack', 10);

    await goes.close();
    expect(caller.closeCode).toBe(1001);
    const gone = await dispatcher.next(
      (frame) => frame.event === 'caller-connected' && frame.data.connected === false,
    );
    expect(gone.data.callerId).toBe(session.callers[0]!.callerId);
    const stored = await database.db
      .selectFrom('location_fixes')
      .select('seq')
      .where('session_id', '=', session.sessionId)
      .execute();
    expect(stored).toHaveLength(10);
    const events = await database.db
      .selectFrom('session_events')
      .select('event')
      .where('session_id', '=', session.sessionId)
      .orderBy('seq')
      .execute();
    expect(events.map((row) => row.event)).toEqual(['caller-connected', 'caller-connected']);

    await dispatcher.close();
    await stays.close();
  });
});
