import { openSession } from '@locus/api';
import { closeCodes } from '@locus/contract';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  codeIn,
  outbox,
  signIn,
  startAuthStack,
  waitForEmails,
  type AuthStack,
} from '../auth/support';
import { startApi, type TestApi } from '../support/api';
import { testEnvironment } from '../support/environment';
import { fixAt, TestSocket } from '../support/sockets';
import {
  callerSocket,
  dispatcherEmail,
  linkTokenIn,
  otherTeamEmail,
  outboxSms,
  startStream,
  unknownNumber,
  type ConnectionRequest,
} from '../tracking/support';

// The probe's finding: the dispatcher socket tokens start-stream issues kept streaming a
// caller's location for 12 hours after sign-out. Instance A (with the worker) answers REST;
// the dispatcher's socket is on instance B. Both share Postgres and Redis.
let stack: AuthStack;
let apiB: TestApi;

beforeAll(async () => {
  stack = await startAuthStack();
  apiB = await startApi({ databaseUrl: stack.database.url, redisPrefix: stack.redisPrefix });
});

afterAll(async () => {
  await apiB?.close();
  await stack?.close();
});

const dispatcherUrl = (request: ConnectionRequest) =>
  `${apiB.wsUrl}/api/v1/socket?token=${request.token}`;

async function joinOnB(request: ConnectionRequest): Promise<TestSocket> {
  const socket = await TestSocket.open(dispatcherUrl(request));
  socket.send('join', { sessionId: request.uuid });
  await socket.event('joined');
  return socket;
}

/** A session with its caller's page sharing (on A) and the dispatcher's console on B, live. */
async function liveSession(authToken: string, phoneNumber: string) {
  const request = await startStream(stack.api, authToken, phoneNumber);
  const dispatcher = await joinOnB(request);
  const before = (await outboxSms(stack.api, phoneNumber)).length;
  const texted = await call(stack.api, 'POST', '/api/v1/location/request-text-message-location', {
    token: authToken,
    body: { connectionRequestUuid: request.uuid, language: 'en' },
  });
  expect(texted.status).toBe(200);
  const texts = await outboxSms(stack.api, phoneNumber);
  expect(texts.length).toBeGreaterThan(before);
  const caller = await callerSocket(stack.api, linkTokenIn(texts[0]!.body));
  const base = Date.now() - 60_000;
  let sent = 0;
  const sendFix = async () => {
    const fix = { ...fixAt(base, sent), n: sent + 1 };
    sent += 1;
    caller.send('fix', fix);
    await caller.next((frame) => frame.event === 'ack' && frame.data.n === fix.n);
  };
  await sendFix();
  await dispatcher.event('new-location-available');
  return { request, dispatcher, caller, sendFix };
}

/** Resolves with the close code, or fails if the socket is still open after `ms`. */
function closedWithin(socket: TestSocket, ms: number): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const tooLate = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`socket still open after ${ms} ms`)), ms);
  });
  return Promise.race([socket.closed(), tooLate]).finally(() => clearTimeout(timer));
}

/** The old token opens no socket: a `join` asking for the whole history replays nothing. */
async function expectRefused(request: ConnectionRequest): Promise<void> {
  const again = await TestSocket.open(dispatcherUrl(request));
  again.send('join', { sessionId: request.uuid, lastSeq: 0 });
  expect((await again.event('error')).data.error).toBe('invalid-token');
  expect(await again.closed()).toBe(closeCodes.invalidToken);
  expect(again.frames.map((frame) => frame.event)).toEqual(['error']);
}

/** After the close, a fix the caller sends still goes through, and the closed console gets none. */
async function expectNoFurtherFix(
  live: Awaited<ReturnType<typeof liveSession>>,
  fixesBefore: number,
): Promise<void> {
  await live.sendFix();
  expect(live.dispatcher.of('new-location-available')).toHaveLength(fixesBefore);
}

describe('signing out', () => {
  it('closes the dispatcher sockets of that sign-in on every instance within a second, and their tokens no longer open one', async () => {
    const authToken = await signIn(stack.api, dispatcherEmail);
    const live = await liveSession(authToken, unknownNumber);
    // A second session of the same user, on its own socket: sign-out ends them all.
    const second = await liveSession(authToken, '+12025550164');
    // Another user's console is none of this sign-out's business.
    const bystander = await liveSession(await signIn(stack.api, otherTeamEmail), '+12025550167');
    const fixesBefore = live.dispatcher.countOf('new-location-available');

    const signedOut = await call(stack.api, 'POST', '/api/v1/auth/sign-out', {
      token: authToken,
      body: {},
    });
    expect(signedOut.status).toBeLessThan(300);
    expect(await closedWithin(live.dispatcher, 1_000)).toBe(closeCodes.invalidToken);
    expect(await closedWithin(second.dispatcher, 1_000)).toBe(closeCodes.invalidToken);
    expect(live.dispatcher.of('error').at(-1)!.data).toMatchObject({
      error: 'invalid-token',
      message: expect.stringMatching(/signed out/i),
    });

    await expectNoFurtherFix(live, fixesBefore);
    // The old token opens nothing, on either instance.
    await expectRefused(live.request);
    const onA = await TestSocket.open(
      `${stack.api.wsUrl}/api/v1/socket?token=${live.request.token}`,
    );
    expect(await onA.closed()).toBe(closeCodes.invalidToken);
    // Nor does the REST rejoin hand out a fresh token to the signed-out session.
    const rejoin = await call(stack.api, 'GET', '/api/v1/location/active-session', {
      token: authToken,
    });
    expect(rejoin.status).toBe(401);

    await bystander.sendFix();
    await bystander.dispatcher.count('new-location-available', 2);
    expect(bystander.dispatcher.closeCode).toBeUndefined();

    // The caller's page is not the user's: it keeps sharing, and a new sign-in rejoins.
    expect(live.caller.closeCode).toBeUndefined();
    for (const socket of [live.caller, second.caller, bystander.caller, bystander.dispatcher])
      await socket.close();
  });
});

/** The auth session id of the sign-in holding `token` (as the profile's list names it). */
async function sessionIdOf(token: string): Promise<string> {
  const listed = await call<{ id: string; current: boolean }[]>(
    stack.api,
    'GET',
    '/api/v1/auth/sessions',
    { token },
  );
  const current = listed.body.find((session) => session.current);
  if (!current) throw new Error('no current session listed');
  return current.id;
}

/** The console keeps its socket: a fix the caller sends still reaches it. */
async function expectStillLive(live: Awaited<ReturnType<typeof liveSession>>): Promise<void> {
  const before = live.dispatcher.countOf('new-location-available');
  await live.sendFix();
  const outcome = await Promise.race([
    live.dispatcher.count('new-location-available', before + 1).then(() => 'received'),
    live.dispatcher.closed().then((code) => `closed with ${code}`),
  ]);
  expect(outcome).toBe('received');
  expect(live.dispatcher.closeCode).toBeUndefined();
}

async function closeAll(...lives: Awaited<ReturnType<typeof liveSession>>[]): Promise<void> {
  for (const live of lives) {
    await live.caller.close();
    if (live.dispatcher.closeCode === undefined) await live.dispatcher.close();
  }
}

// One dispatcher signed in on two consoles: what ends one console's sign-in ends its sockets,
// and the other console's live map keeps going.
describe('one user signed in on two consoles', () => {
  it("signing out of console B closes B's socket within a second; console A keeps receiving fixes", async () => {
    const consoleA = await signIn(stack.api, dispatcherEmail);
    const consoleB = await signIn(stack.api, dispatcherEmail);
    const onA = await liveSession(consoleA, '+12025550170');
    const onB = await liveSession(consoleB, '+12025550171');

    const signedOut = await call(stack.api, 'POST', '/api/v1/auth/sign-out', {
      token: consoleB,
      body: {},
    });
    expect(signedOut.status).toBeLessThan(300);
    expect(await closedWithin(onB.dispatcher, 1_000)).toBe(closeCodes.invalidToken);
    expect(onB.dispatcher.of('error').at(-1)!.data.message).toMatch(/signed out/i);
    await expectRefused(onB.request);

    await expectStillLive(onA);
    // A's token still opens a socket, and A can still rejoin.
    const again = await joinOnB(onA.request);
    expect(again.closeCode).toBeUndefined();
    await again.close();
    const rejoin = await call(stack.api, 'GET', '/api/v1/location/active-session', {
      token: consoleA,
    });
    expect(rejoin.status).toBe(200);
    await closeAll(onA, onB);
  });

  it('"sign out other sessions" on console A closes B\'s socket, not A\'s own', async () => {
    const consoleA = await signIn(stack.api, dispatcherEmail);
    const consoleB = await signIn(stack.api, dispatcherEmail);
    const onA = await liveSession(consoleA, '+12025550172');
    const onB = await liveSession(consoleB, '+12025550173');

    const signedOut = await call(stack.api, 'POST', '/api/v1/auth/sessions/sign-out-others', {
      token: consoleA,
    });
    expect(signedOut.status).toBe(200);
    expect(await closedWithin(onB.dispatcher, 1_000)).toBe(closeCodes.invalidToken);
    expect(onB.dispatcher.of('error').at(-1)!.data.message).toMatch(/sessions were signed out/i);
    await expectRefused(onB.request);

    await expectStillLive(onA);
    await closeAll(onA, onB);
  });

  it("an idle expiry on the server closes that console's socket within a second, not the other's", async () => {
    const consoleA = await signIn(stack.api, dispatcherEmail);
    const consoleB = await signIn(stack.api, dispatcherEmail);
    const onA = await liveSession(consoleA, '+12025550174');
    const onB = await liveSession(consoleB, '+12025550175');
    // B was left alone for 32 minutes (instead of waiting half an hour).
    await stack.database.db
      .updateTable('auth_sessions')
      .set({ last_active_at: sql<Date>`now() - interval '32 minutes'` })
      .where('id', '=', await sessionIdOf(consoleB))
      .execute();

    const expired = await call(stack.api, 'GET', '/api/v1/auth/current-user', { token: consoleB });
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({ error: 'session-expired' });
    expect(await closedWithin(onB.dispatcher, 1_000)).toBe(closeCodes.invalidToken);
    expect(onB.dispatcher.of('error').at(-1)!.data.message).toMatch(/inactivity/i);
    await expectRefused(onB.request);

    await expectStillLive(onA);
    await closeAll(onA, onB);
  });

  it('a start-stream whose sign-in was signed out meanwhile is refused and leaves no token', async () => {
    const token = await signIn(stack.api, dispatcherEmail);
    const me = await call<{ id: string }>(stack.api, 'GET', '/api/v1/auth/current-user', {
      token,
    });
    const authSessionId = await sessionIdOf(token);
    // The request authenticated; the sign-out commits before its token is written.
    await call(stack.api, 'POST', '/api/v1/auth/sign-out', { token, body: {} });
    const phoneNumber = '+12025550176';
    await expect(
      openSession(stack.database.db, {
        createdBy: me.body.id,
        authSessionId,
        callers: [{ phoneNumber }],
        withCallerTokens: false,
      }),
    ).rejects.toMatchObject({ status: 401 });
    const left = await stack.database.db
      .selectFrom('session_callers')
      .select('id')
      .where('phone_number', '=', phoneNumber)
      .execute();
    expect(left).toEqual([]);
  });
});

describe('a password reset', () => {
  it("closes the user's dispatcher sockets on every instance within a second, and their tokens no longer open one", async () => {
    const email = 'dispatcher2@demo-county.test';
    const authToken = await signIn(stack.api, email);
    const live = await liveSession(authToken, '+12025550165');
    const fixesBefore = live.dispatcher.countOf('new-location-available');

    const mailsBefore = (await outbox(stack.api, email)).length;
    await call(stack.api, 'POST', '/api/v1/auth/forgot-password', { body: { email } });
    const [mail] = await waitForEmails(stack.api, email, mailsBefore + 1);
    const reset = await call(stack.api, 'POST', '/api/v1/auth/update-password', {
      body: { resetCode: codeIn(mail!, 'reset-code').code, password: 'Quartz-lantern-41-meadow' },
    });
    expect(reset.status).toBe(200);
    expect(await closedWithin(live.dispatcher, 1_000)).toBe(closeCodes.invalidToken);
    expect(live.dispatcher.of('error').at(-1)!.data.message).toMatch(/password/i);

    await expectNoFurtherFix(live, fixesBefore);
    await expectRefused(live.request);
    const rejoin = await call(stack.api, 'GET', '/api/v1/location/active-session', {
      token: authToken,
    });
    expect(rejoin.status).toBe(401);
    await live.caller.close();
  });
});

describe('an instance whose Redis subscription was down when a revocation was announced', () => {
  it("checks its dispatcher sockets' tokens again once it is back, and closes the revoked ones", async () => {
    const session = await openSession(stack.database.db, {
      callers: [{ phoneNumber: '+12025550168' }],
    });
    const request = { uuid: session.sessionId, token: session.dispatcherToken, id: '' };
    const dispatcher = await joinOnB(request);
    // Revoked in Postgres with the announcement lost: pub/sub delivers at most once.
    await stack.database.db
      .updateTable('connection_tokens')
      .set({ revoked_at: new Date() })
      .where('session_id', '=', session.sessionId)
      .where('kind', '=', 'dispatcher')
      .execute();
    const admin = new Redis(testEnvironment.redisUrl());
    try {
      // As Redis itself drops a subscriber (a restart, a failover, a slow client).
      const name = `locus-api-${apiB.app.locus.instanceId}-subscriber`;
      const list = (await admin.call('CLIENT', 'LIST', 'TYPE', 'pubsub')) as string;
      const line = list.split('\n').find((entry) => entry.includes(` name=${name} `));
      const id = /\bid=(\d+)/.exec(line ?? '')?.[1];
      if (!id) throw new Error(`no Redis connection named ${name}`);
      await admin.call('CLIENT', 'KILL', 'ID', id);
    } finally {
      admin.disconnect();
    }
    expect(await dispatcher.closed()).toBe(closeCodes.invalidToken);
  });
});
