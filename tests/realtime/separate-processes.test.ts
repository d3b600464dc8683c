import { openSession } from '@locus/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRedisPrefix } from '../support/api';
import { startApiProcess, type ApiProcess } from '../support/api-process';
import { freshDatabase, type TestDatabase } from '../support/database';
import { fixAt, TestSocket } from '../support/sockets';

let database: TestDatabase;
let processA: ApiProcess;
let processB: ApiProcess;

beforeAll(async () => {
  database = await freshDatabase();
  const redisPrefix = testRedisPrefix();
  [processA, processB] = await Promise.all([
    startApiProcess({ databaseUrl: database.url, redisPrefix }),
    startApiProcess({ databaseUrl: database.url, redisPrefix }),
  ]);
}, 60_000);

afterAll(async () => {
  await processA?.stop();
  await processB?.stop();
  await database?.drop();
});

describe('two API processes sharing Postgres and Redis', () => {
  it('carry a caller on B to a dispatcher on A in order, replay a reconnect exactly once, and persist every fix', async () => {
    const session = await openSession(database.db, { callers: [{ phoneNumber: '+12025550111' }] });
    const dispatcher = await TestSocket.open(
      `${processA.wsUrl}/api/v1/socket?token=${session.dispatcherToken}`,
    );
    dispatcher.send('join', { sessionId: session.sessionId });
    await dispatcher.event('joined');
    const caller = await TestSocket.open(
      `${processB.wsUrl}/api/v1/caller/socket?token=${session.callers[0]!.token}`,
    );
    const base = Date.now() - 100_000;
    const send = async (from: number, to: number) => {
      for (let index = from; index < to; index += 1) caller.send('fix', fixAt(base, index));
      await caller.count('ack', to);
    };

    await send(0, 10);
    const live = await dispatcher.count('new-location-available', 10);
    const lastSeq = live.at(-1)!.data.seq!;
    await dispatcher.terminate();
    await send(10, 25);

    const again = await TestSocket.open(
      `${processA.wsUrl}/api/v1/socket?token=${session.dispatcherToken}`,
    );
    again.send('join', { sessionId: session.sessionId, lastSeq });
    expect((await again.event('joined')).data.replayed).toBe(15);
    await send(25, 30);
    const rest = await again.count('new-location-available', 20);
    const captured = [...live, ...rest].map((frame) => frame.data.dateTimeCaptured);
    expect(captured).toEqual(
      Array.from({ length: 30 }, (_, index) =>
        new Date(fixAt(base, index).capturedAt!).toISOString(),
      ),
    );
    expect(new Set(rest.map((frame) => frame.data.seq)).size).toBe(20);

    // A graceful stop of B persists everything it accepted before it exits.
    expect(await processB.stop()).toBe(0);
    const stored = await database.db
      .selectFrom('location_fixes')
      .select('seq')
      .where('session_id', '=', session.sessionId)
      .execute();
    expect(stored).toHaveLength(30);
    await again.close();
  });
});
