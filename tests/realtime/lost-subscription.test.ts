import { openSession } from '@locus/api';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, testRedisPrefix, type TestApi } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';
import { testEnvironment } from '../support/environment';
import { fixAt, TestSocket } from '../support/sockets';

// Redis drops a subscriber connection when it restarts, fails over, or finds the client too
// slow (client-output-buffer-limit). Pub/sub does not redeliver what was published meanwhile;
// the dispatcher must still get every fix, once, in order.
let database: TestDatabase;
let apiA: TestApi;
let apiB: TestApi;
let admin: Redis;

beforeAll(async () => {
  database = await freshDatabase();
  const redisPrefix = testRedisPrefix();
  apiA = await startApi({ databaseUrl: database.url, redisPrefix });
  apiB = await startApi({ databaseUrl: database.url, redisPrefix });
  admin = new Redis(testEnvironment.redisUrl());
});

afterAll(async () => {
  admin?.disconnect();
  await apiA?.close();
  await apiB?.close();
  await database?.drop();
});

/** Kills one named connection, as Redis itself does to a slow subscriber. */
async function killConnection(name: string): Promise<void> {
  const list = (await admin.call('CLIENT', 'LIST', 'TYPE', 'pubsub')) as string;
  const line = list.split('\n').find((entry) => entry.includes(` name=${name} `));
  const id = /\bid=(\d+)/.exec(line ?? '')?.[1];
  if (!id) throw new Error(`no Redis connection named ${name}`);
  await admin.call('CLIENT', 'KILL', 'ID', id);
}

describe('a dispatcher instance that loses its Redis subscription', () => {
  it('still delivers every fix published meanwhile, exactly once and in order', async () => {
    const session = await openSession(database.db, {
      callers: [{ phoneNumber: '+12025550123' }],
    });
    const dispatcher = await TestSocket.open(
      `${apiA.wsUrl}/api/v1/socket?token=${session.dispatcherToken}`,
    );
    dispatcher.send('join', { sessionId: session.sessionId });
    await dispatcher.event('joined');
    const caller = await TestSocket.open(
      `${apiB.wsUrl}/api/v1/caller/socket?token=${session.callers[0]!.token}`,
    );
    const base = Date.now() - 60_000;
    const send = async (index: number): Promise<void> => {
      const fix = fixAt(base, index);
      caller.send('fix', fix);
      await caller.next((f) => f.event === 'ack' && f.data.capturedAt === fix.capturedAt);
    };

    for (let index = 0; index < 3; index += 1) await send(index);
    await dispatcher.count('new-location-available', 3);

    await killConnection(`locus-api-${apiA.app.locus.instanceId}-subscriber`);
    // Published while instance A is reconnecting: no subscriber of A hears these.
    for (let index = 3; index < 10; index += 1) await send(index);

    const fixes = await dispatcher.count('new-location-available', 10);
    const captured = fixes.map((frame) => frame.data.dateTimeCaptured);
    expect(captured).toEqual(
      Array.from({ length: 10 }, (_, index) =>
        new Date(fixAt(base, index).capturedAt!).toISOString(),
      ),
    );

    // Nothing is delivered twice: one more fix makes exactly eleven.
    await send(10);
    await dispatcher.count('new-location-available', 11);
    const seqs = dispatcher.frames
      .filter((frame) => frame.event === 'new-location-available')
      .map((frame) => frame.data.seq as number);
    expect(seqs).toHaveLength(11);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(11);

    // And instance A survived losing the connection.
    const health = await fetch(`${apiA.url}/api/v1/health`);
    expect(health.status).toBe(200);
    dispatcher.ws.close();
    caller.ws.close();
  });
});
