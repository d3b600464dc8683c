import { closeCodes } from '@locus/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, signIn, startAuthStack, type AuthStack } from '../auth/support';
import { startApi, type TestApi } from '../support/api';
import { fixAt, type ReceivedFrame } from '../support/sockets';
import { callerSocket, linkTokenIn, outboxSms, startStream } from '../tracking/support';
import {
  colleagueEmail,
  confirm,
  dispatcherSocket,
  join,
  joinStream,
  offer,
  offererEmail,
  openConsole,
  transferFrame,
  untilOnline,
} from './support';

// Integration across two API instances sharing Postgres and Redis: the caller streams fixes on
// instance B while the case moves from Dana (console and socket on A) to Devon (on B).
let stack: AuthStack;
let apiB: TestApi;

beforeAll(async () => {
  stack = await startAuthStack();
  apiB = await startApi({
    databaseUrl: stack.database.url,
    redisPrefix: stack.redisPrefix,
    env: { AUTH_RATE_LIMIT_MAX: '10000' },
  });
});

afterAll(async () => {
  await apiB?.close();
  await stack?.close();
});

const totalFixes = 60;
const transferAfter = 15;
/** Fixes sent while the offer is made and accepted; the rest follow once Devon has joined. */
const duringTransfer = 40;

it('hands a live case over between instances: the colleague gets every fix exactly once, in order', async () => {
  const dana = await signIn(stack.api, offererEmail);
  const devon = await signIn(apiB, colleagueEmail);
  const devonId = (
    await stack.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', colleagueEmail)
      .executeTakeFirstOrThrow()
  ).id;
  const phone = '+12025550111';
  const request = await startStream(stack.api, dana, phone);
  const danaSocket = await join(stack.api, request);
  const texted = await call(stack.api, 'POST', '/api/v1/location/request-text-message-location', {
    token: dana,
    body: { connectionRequestUuid: request.uuid, language: 'en' },
  });
  expect(texted.status).toBe(200);
  const caller = await callerSocket(
    apiB,
    linkTokenIn((await outboxSms(stack.api, phone))[0]!.body),
  );
  const devonConsole = await openConsole(apiB, devon);
  await untilOnline(stack.api, dana, request.uuid, devonId);

  const base = Date.now() - 70_000;
  let sent = 0;
  const sendFix = async () => {
    const fix = { ...fixAt(base, sent), n: sent + 1 };
    sent += 1;
    caller.send('fix', fix);
    await caller.next((frame) => frame.event === 'ack' && frame.data.n === fix.n);
  };
  for (let i = 0; i < transferAfter; i += 1) await sendFix();

  // The caller keeps streaming while the case moves.
  const streaming = (async () => {
    while (sent < duringTransfer) await sendFix();
  })();

  const offered = await offer(stack.api, dana, request.uuid, devonId);
  expect(offered.status).toBe(201);
  const transfer = offered.body;
  await transferFrame(devonConsole, transfer.transferUuid, 'offered');
  const joined = await joinStream(apiB, devon, transfer);
  expect(joined.status).toBe(200);
  const accepted = await confirm(apiB, devon, transfer, joined.body.token);
  expect(accepted.status).toBe(200);

  // Dana's socket on A: the event, then 4412, nothing after.
  const event = await transferFrame(danaSocket, transfer.transferUuid, 'accepted');
  expect(await danaSocket.closed()).toBe(closeCodes.transferred);
  expect(danaSocket.frames.at(-1)).toBe(event);

  // Devon joins on B without lastSeq, while fixes still arrive.
  const devonSocket = await join(apiB, { uuid: request.uuid, token: accepted.body.session.token });
  await streaming;
  // And every later fix, live.
  while (sent < totalFixes) await sendFix();
  const fixes = await devonSocket.count('new-location-available', totalFixes);

  const sequenced = devonSocket.frames.filter(
    (frame): frame is ReceivedFrame & { data: { seq: number } } =>
      typeof frame.data.seq === 'number',
  );
  const seqs = sequenced.map((frame) => frame.data.seq);
  // Contiguous from the first event: nothing missing, nothing twice, in order.
  expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, index) => index + 1));
  const captured = fixes.map((frame) => frame.data.dateTimeCaptured as string);
  expect(new Set(captured).size).toBe(totalFixes);
  expect(captured).toEqual(
    Array.from({ length: totalFixes }, (_, index) =>
      new Date(fixAt(base, index).capturedAt!).toISOString(),
    ),
  );
  expect(devonSocket.of('case-transfer').map((frame) => frame.data.status)).toEqual([
    'offered',
    'accepted',
  ]);
  expect(devonSocket.closeCode).toBeUndefined();

  // Dana cannot rejoin: neither her old token nor a rejoin hands her the session.
  const again = await dispatcherSocket(stack.api, request.token);
  expect(await again.closed()).toBe(closeCodes.invalidToken);
  const active = await call<{ session: unknown }>(
    stack.api,
    'GET',
    '/api/v1/location/active-session',
    { token: dana },
  );
  expect(active.body.session).toBeNull();
  // Devon's rejoin does.
  const devonActive = await call<{ session: { uuid: string } | null }>(
    apiB,
    'GET',
    '/api/v1/location/active-session',
    { token: devon },
  );
  expect(devonActive.body.session?.uuid).toBe(request.uuid);

  await devonSocket.close();
  await caller.close();
  await devonConsole.close();
});
