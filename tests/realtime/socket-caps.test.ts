import { openSession, type OpenedSession } from '@locus/api';
import { closeCodes, realtimeLimits } from '@locus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, testRedisPrefix, type TestApi } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';
import { fixAt, TestSocket } from '../support/sockets';

// Two instances sharing Postgres and Redis: the cap on sockets per token holds across them.
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

const newSession = () => openSession(database.db, { callers: [{ phoneNumber: '+12025550177' }] });
const callerUrl = (api: TestApi, session: OpenedSession) =>
  `${api.wsUrl}/api/v1/caller/socket?token=${session.callers[0]!.token}`;
const dispatcherUrl = (api: TestApi, session: OpenedSession) =>
  `${api.wsUrl}/api/v1/socket?token=${session.dispatcherToken}`;

async function joinAsDispatcher(api: TestApi, session: OpenedSession): Promise<TestSocket> {
  const dispatcher = await TestSocket.open(dispatcherUrl(api, session));
  dispatcher.send('join', { sessionId: session.sessionId });
  await dispatcher.event('joined');
  return dispatcher;
}

/** Opens sockets one after another, alternating instances, as a reconnecting page would. */
async function openInTurn(count: number, url: (api: TestApi) => string): Promise<TestSocket[]> {
  const sockets: TestSocket[] = [];
  for (let index = 0; index < count; index += 1) {
    sockets.push(await TestSocket.open(url(index % 2 === 0 ? apiA : apiB)));
  }
  return sockets;
}

describe('sockets per token', () => {
  it('a caller link holds at most a few sockets on all instances: the oldest gives way to a new one, which carries fixes', async () => {
    const session = await newSession();
    const dispatcher = await joinAsDispatcher(apiA, session);
    const cap = realtimeLimits.maxSocketsPerToken;
    const sockets = await openInTurn(cap, (api) => callerUrl(api, session));
    const [oldest] = sockets;
    const newest = await TestSocket.open(callerUrl(apiB, session));

    expect(await oldest!.closed()).toBe(closeCodes.superseded);
    // The others are untouched: each still has its fix stored.
    const base = Date.now() - 60_000;
    for (const [index, socket] of [...sockets.slice(1), newest].entries()) {
      const fix = { ...fixAt(base, index), n: 1 };
      socket.send('fix', fix);
      const ack = await socket.next((frame) => frame.event === 'ack');
      expect(ack.data.outcome).toBe('stored');
      expect(socket.closeCode).toBeUndefined();
    }
    await dispatcher.count('new-location-available', cap);

    // One more: again the oldest open one goes, never the newcomer.
    const another = await TestSocket.open(callerUrl(apiA, session));
    expect(await sockets[1]!.closed()).toBe(closeCodes.superseded);
    expect(another.closeCode).toBeUndefined();

    for (const socket of [sockets[2]!, newest, another]) await socket.close();
    await dispatcher.close();
  });

  it('a socket that closed costs no open one its place when a page reconnects', async () => {
    const session = await newSession();
    const cap = realtimeLimits.maxSocketsPerToken;
    const sockets = await openInTurn(cap, (api) => callerUrl(api, session));
    // Whether or not its instance has taken it off the list yet, it is the oldest there.
    await sockets[0]!.terminate();
    const replacement = await TestSocket.open(callerUrl(apiA, session));
    const base = Date.now() - 60_000;
    replacement.send('fix', { ...fixAt(base, 0), n: 1 });
    expect((await replacement.next((frame) => frame.event === 'ack')).data.outcome).toBe('stored');
    for (const socket of sockets.slice(1)) expect(socket.closeCode).toBeUndefined();
    for (const socket of [...sockets.slice(1), replacement]) await socket.close();
  });

  it("a second tab of the link closing does not tell the dispatcher the caller's page is gone", async () => {
    const session = await newSession();
    const dispatcher = await joinAsDispatcher(apiA, session);
    const connectedFrames = () =>
      dispatcher.of('caller-connected').map((frame) => frame.data.connected as boolean);
    const first = await TestSocket.open(callerUrl(apiA, session));
    const second = await TestSocket.open(callerUrl(apiA, session));
    await dispatcher.count('caller-connected', 2);

    // The second tab closes; the first goes on. A fix from it, published after the close was
    // handled, is the point by which a "disconnected" from that close would have arrived.
    await second.close();
    first.send('fix', { ...fixAt(Date.now() - 60_000, 0), n: 1 });
    await dispatcher.event('new-location-available');
    expect(connectedFrames()).toEqual([true, true]);

    // The last tab closing says so.
    await first.close();
    await dispatcher.next((frame) => frame.event === 'caller-connected' && !frame.data.connected);
    expect(connectedFrames()).toEqual([true, true, false]);
    await dispatcher.close();
  });

  it('a dispatcher token holds at most a few sockets too', async () => {
    const session = await newSession();
    const cap = realtimeLimits.maxSocketsPerToken;
    const consoles: TestSocket[] = [];
    for (let index = 0; index < cap; index += 1)
      consoles.push(await joinAsDispatcher(index % 2 === 0 ? apiA : apiB, session));
    const newest = await joinAsDispatcher(apiB, session);
    expect(await consoles[0]!.closed()).toBe(closeCodes.superseded);

    const caller = await TestSocket.open(callerUrl(apiA, session));
    caller.send('fix', { ...fixAt(Date.now() - 60_000, 0), n: 1 });
    await newest.event('new-location-available');
    for (const socket of consoles.slice(1)) await socket.event('new-location-available');
    for (const socket of [...consoles.slice(1), newest, caller]) await socket.close();
  });
});

describe('a socket that keeps flooding after being told to slow down', () => {
  it('is closed (1008) once it has ignored a number of rate-limited answers; the fixes it sent before are kept', async () => {
    const session = await newSession();
    const dispatcher = await joinAsDispatcher(apiA, session);
    const caller = await TestSocket.open(callerUrl(apiB, session));
    caller.send('fix', { ...fixAt(Date.now() - 60_000, 0), n: 1 });
    await caller.next((frame) => frame.event === 'ack');

    for (let index = 0; index < 500; index += 1) caller.send('tab-focus', { focused: true });
    expect(await caller.closed()).toBe(closeCodes.policyViolation);
    const errors = caller.of('error').map((frame) => frame.data.error);
    expect(errors.length).toBe(realtimeLimits.rateLimitedFramesBeforeClose + 1);
    expect(new Set(errors)).toEqual(new Set(['rate-limited']));
    // What it sent within its allowance was published; nothing after it was cut off. The
    // "disconnected" event is published after the last frame it handled.
    await dispatcher.next(
      (frame) => frame.event === 'caller-connected' && frame.data.connected === false,
    );
    expect(dispatcher.countOf('is-tab-focused')).toBeLessThan(
      500 - realtimeLimits.rateLimitedFramesBeforeClose - 1,
    );
    expect(dispatcher.countOf('is-tab-focused')).toBeGreaterThan(0);
    expect(dispatcher.of('new-location-available')).toHaveLength(1);
    await dispatcher.close();
  });

  it('counts garbage frames too', async () => {
    const session = await newSession();
    const caller = await TestSocket.open(callerUrl(apiA, session));
    for (let index = 0; index < 500; index += 1) caller.sendRaw('not json');
    expect(await caller.closed()).toBe(closeCodes.policyViolation);
    expect(caller.of('error').at(-1)!.data.error).toBe('rate-limited');
  });

  it('a dispatcher socket sending frames it has no use for is closed (1008)', async () => {
    const session = await newSession();
    const dispatcher = await joinAsDispatcher(apiA, session);
    for (let index = 0; index < 100; index += 1) dispatcher.send('fix', {});
    expect(await dispatcher.closed()).toBe(closeCodes.policyViolation);
    expect(dispatcher.of('error')).toHaveLength(
      realtimeLimits.dispatcherRefusedFramesBeforeClose + 1,
    );
  });
});
