import { openSession, type OpenedSession } from '@locus/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, testRedisPrefix, type TestApi } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';
import { TestSocket } from '../support/sockets';

/**
 * The server's pings (SOCKET_HEARTBEAT_MS, short here): a socket that stops answering, as a
 * phone whose network went away without a word, is closed, and its caller stops counting as
 * connected; one that answers stays, however long it is quiet.
 */
const heartbeatMs = 1_000;
let database: TestDatabase;
let api: TestApi;

beforeAll(async () => {
  database = await freshDatabase();
  api = await startApi({
    databaseUrl: database.url,
    redisPrefix: testRedisPrefix(),
    env: { SOCKET_HEARTBEAT_MS: String(heartbeatMs) },
  });
});

afterAll(async () => {
  await api?.close();
  await database?.drop();
});

const newSession = () => openSession(database.db, { callers: [{ phoneNumber: '+12025550166' }] });
const callerUrl = (session: OpenedSession) =>
  `${api.wsUrl}/api/v1/caller/socket?token=${session.callers[0]!.token}`;

async function joinAsDispatcher(session: OpenedSession): Promise<TestSocket> {
  const dispatcher = await TestSocket.open(
    `${api.wsUrl}/api/v1/socket?token=${session.dispatcherToken}`,
  );
  dispatcher.send('join', { sessionId: session.sessionId });
  await dispatcher.event('joined');
  return dispatcher;
}

describe('socket heartbeat', () => {
  it('closes a socket that stops answering pings, and keeps one that answers', async () => {
    const session = await newSession();
    const dispatcher = await joinAsDispatcher(session);
    const silent = await TestSocket.open(callerUrl(session), undefined, { silent: true });
    const answering = await TestSocket.open(callerUrl(session));

    // Cut off by the server (1006: terminated, no close handshake) at the beat after its first
    // unanswered ping; the answering one has been pinged and answered beat after beat since.
    expect(await silent.closed()).toBe(1006);
    await answering.pinged(answering.pingsReceived + 3);
    expect(answering.closeCode).toBeUndefined();
    expect(dispatcher.closeCode).toBeUndefined();
    await answering.close();
    await dispatcher.close();
  });

  it("tells the dispatcher the caller's page is gone once a half-open socket beside it is cut off", async () => {
    const session = await newSession();
    const dispatcher = await joinAsDispatcher(session);
    const connected = () =>
      dispatcher.of('caller-connected').map((frame) => frame.data.connected as boolean);
    // The phone's first socket lost its network unseen; the page reconnected on a second one.
    // (Opened in this order so that the half-open one, cut off first, is never the only one.)
    const reconnected = await TestSocket.open(callerUrl(session));
    const halfOpen = await TestSocket.open(callerUrl(session), undefined, { silent: true });
    await dispatcher.count('caller-connected', 2);

    // The page closes. Its old socket still looks open, so nothing is said yet; once the
    // heartbeat cuts it off, the dispatcher hears that the caller is gone, once.
    await reconnected.close();
    await halfOpen.closed();
    await dispatcher.next((frame) => frame.event === 'caller-connected' && !frame.data.connected);
    expect(connected()).toEqual([true, true, false]);
    await dispatcher.close();
  });
});
