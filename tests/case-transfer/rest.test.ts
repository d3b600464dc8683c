import { closeCodes, type CaseTransfer } from '@locus/contract';
import { stepCaseTransfer, type PersistedCaseTransfer } from '@locus/machines/case-transfer';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, startAuthStack, type AuthStack } from '../auth/support';
import { startApi, type TestApi } from '../support/api';
import { testEnvironment } from '../support/environment';
import type { TestSocket } from '../support/sockets';
import { startStream, type ConnectionRequest } from '../tracking/support';
import {
  checkTransfer,
  colleagueEmail,
  confirm,
  dispatcherSocket,
  join,
  joinStream,
  mark,
  offer,
  offererEmail,
  openConsole,
  otherTeamEmail,
  phonePath,
  teamAdminEmail,
  transferFrame,
  until,
  untilOnline,
} from './support';

// The REST side of a case transfer (SPEC.md §4, §7): Dana offers her running session to Devon
// (same team). Instance A runs with the default 60 s offer; instance B with a short one, for
// the expiry cases. Both share Postgres and Redis.
let stack: AuthStack;
let shortTtl: TestApi;
let dana: string;
let devon: string;
let terry: string;
let neighbour: string;
const ids: Record<string, string> = {};
let devonConsole: TestSocket;
let danaConsole: TestSocket;

beforeAll(async () => {
  stack = await startAuthStack({ worker: false });
  shortTtl = await startApi({
    databaseUrl: stack.database.url,
    redisPrefix: stack.redisPrefix,
    env: { AUTH_RATE_LIMIT_MAX: '10000', CASE_TRANSFER_OFFER_TTL_MS: '1500' },
  });
  dana = await signIn(stack.api, offererEmail);
  devon = await signIn(stack.api, colleagueEmail);
  terry = await signIn(stack.api, teamAdminEmail);
  neighbour = await signIn(stack.api, otherTeamEmail);
  const users = await stack.database.db.selectFrom('users').select(['id', 'email']).execute();
  for (const user of users) ids[user.email] = user.id;
  devonConsole = await openConsole(stack.api, devon);
  danaConsole = await openConsole(stack.api, dana);
});

afterAll(async () => {
  await shortTtl?.close();
  await stack?.close();
});

let nextNumber = 0;
/** A new running session of Dana's, her console socket joined, Devon shown online. */
async function danasSession(): Promise<{
  request: ConnectionRequest;
  phone: string;
  socket: TestSocket;
}> {
  nextNumber += 1;
  const phone = `+1202555${String(100 + nextNumber).padStart(4, '0')}`;
  const request = await startStream(stack.api, dana, phone);
  const socket = await join(stack.api, request);
  await untilOnline(stack.api, dana, request.uuid, ids[colleagueEmail]!);
  return { request, phone, socket };
}

async function offerToDevon(request: ConnectionRequest, api = stack.api): Promise<CaseTransfer> {
  const answer = await offer(api, dana, request.uuid, ids[colleagueEmail]!);
  expect(answer.status).toBe(201);
  expect(answer.body.status).toBe('offered');
  return answer.body;
}

async function stored(transferUuid: string) {
  return stack.database.db
    .selectFrom('case_transfers')
    .select(['status', 'machine_snapshot', 'decided_at'])
    .where('id', '=', transferUuid)
    .executeTakeFirstOrThrow();
}

/** Every transfer of a session, oldest first, as stored. */
async function transfersOf(sessionId: string) {
  return stack.database.db
    .selectFrom('case_transfers')
    .select(['id', 'status', 'machine_snapshot', 'decided_at', 'from_user_id', 'to_user_id'])
    .where('session_id', '=', sessionId)
    .orderBy('offered_at')
    .execute();
}

/** The session's case-transfer audit rows, in the order they were written. */
async function transferAudit(sessionId: string) {
  return stack.database.db
    .selectFrom('audit_log')
    .select(['action', 'actor_user_id', 'detail'])
    .where('subject', '=', sessionId)
    .where('action', 'like', 'case-transfer.%')
    .orderBy('id')
    .execute();
}

async function dispatcherOf(sessionId: string): Promise<string | null> {
  const row = await stack.database.db
    .selectFrom('tracking_sessions')
    .select('dispatcher_id')
    .where('id', '=', sessionId)
    .executeTakeFirstOrThrow();
  return row.dispatcher_id;
}

describe('offer, join-stream, confirm', () => {
  it('moves the case to the colleague, who gets its whole history, and ends the first dispatcher’s view', async () => {
    const { request, phone, socket } = await danasSession();
    const candidates = await call<{ candidates: { id: string; online: boolean }[] }>(
      stack.api,
      'GET',
      `/api/v1/location/transfer-candidates/${request.uuid}`,
      { token: dana },
    );
    expect(candidates.status).toBe(200);
    expect(candidates.body.candidates.map((c) => c.id)).not.toContain(ids[offererEmail]);
    expect(candidates.body.candidates.find((c) => c.id === ids[teamAdminEmail])?.online).toBe(
      false,
    );

    const transfer = await offerToDevon(request);
    expect(transfer).toMatchObject({
      sessionUuid: request.uuid,
      phoneNumber: phone,
      from: { id: ids[offererEmail] },
      to: { id: ids[colleagueEmail] },
      decidedAt: null,
    });
    // Told within a second on both consoles, and in the session's log.
    await transferFrame(devonConsole, transfer.transferUuid, 'offered');
    await transferFrame(danaConsole, transfer.transferUuid, 'offered');
    const logged = await transferFrame(socket, transfer.transferUuid, 'offered');
    expect(logged.data.seq).toBeGreaterThan(0);

    const pending = await checkTransfer(stack.api, dana, request.uuid, phone);
    expect(pending.body).toMatchObject({ pending: 1, transfer: { status: 'offered' } });
    const offers = await call<{ offers: CaseTransfer[] }>(
      stack.api,
      'GET',
      '/api/v1/location/transfer-offers',
      { token: devon },
    );
    expect(offers.body.offers.map((o) => o.transferUuid)).toContain(transfer.transferUuid);

    // A second offer while one is pending.
    const second = await offer(stack.api, dana, request.uuid, ids[colleagueEmail]!);
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({
      error: 'conflict',
      message: 'A transfer of this case is already pending.',
    });
    expect((await transfersOf(request.uuid)).map((row) => row.id)).toEqual([transfer.transferUuid]);

    // Only the colleague the offer names gets a token, and it opens nothing before confirmation.
    expect((await joinStream(stack.api, dana, transfer)).status).toBe(404);
    const joined = await joinStream(stack.api, devon, transfer);
    expect(joined.status).toBe(200);
    const early = await dispatcherSocket(stack.api, joined.body.token);
    expect(await early.closed()).toBe(closeCodes.invalidToken);
    expect(early.of('error')[0]?.data.error).toBe('invalid-token');

    // Someone else of the team cannot take it, even with the token: the case stays.
    const stolen = await confirm(stack.api, terry, transfer, joined.body.token);
    expect(stolen.status).toBe(409);
    // A token that is not the one join-stream gave.
    const wrong = await confirm(stack.api, devon, transfer, 'x'.repeat(43));
    expect(wrong.status).toBe(409);
    expect((await stored(transfer.transferUuid)).status).toBe('offered');
    expect(await dispatcherOf(request.uuid)).toBe(ids[offererEmail]);

    const accepted = await confirm(stack.api, devon, transfer, joined.body.token);
    expect(accepted.status).toBe(200);
    expect(accepted.body.transfer).toMatchObject({ status: 'accepted' });
    expect(accepted.body.session).toMatchObject({ uuid: request.uuid, token: joined.body.token });
    expect(await dispatcherOf(request.uuid)).toBe(ids[colleagueEmail]);

    // Dana's socket: the event, then 4412; her token no longer opens the session.
    const event = await transferFrame(socket, transfer.transferUuid, 'accepted');
    expect(await socket.closed()).toBe(closeCodes.transferred);
    expect(socket.frames.at(-1)).toBe(event);
    const rejoin = await dispatcherSocket(stack.api, request.token);
    expect(await rejoin.closed()).toBe(closeCodes.invalidToken);
    const active = await call<{ session: unknown }>(
      stack.api,
      'GET',
      '/api/v1/location/active-session',
      { token: dana },
    );
    expect(active.body.session).toBeNull();
    await transferFrame(devonConsole, transfer.transferUuid, 'accepted');
    await transferFrame(danaConsole, transfer.transferUuid, 'accepted');

    // Devon's socket: the whole log, the offer and its acceptance included.
    const devonSocket = await join(stack.api, { uuid: request.uuid, token: joined.body.token });
    const statuses = devonSocket.of('case-transfer').map((frame) => frame.data.status);
    expect(statuses).toEqual(['offered', 'accepted']);

    // The routes for the colleague who took it, and not for the one who gave it.
    const fresh = await call<{ status: string; token: string | null }>(
      stack.api,
      'GET',
      `/api/v1/location/check-case-transfer/${transfer.transferUuid}/${phonePath(phone)}`,
      { token: devon },
    );
    expect(fresh.body.status).toBe('accepted');
    expect(fresh.body.token).toEqual(expect.any(String));
    const forDana = await call<{ token: string | null }>(
      stack.api,
      'GET',
      `/api/v1/location/check-case-transfer/${transfer.transferUuid}/${phonePath(phone)}`,
      { token: dana },
    );
    expect(forDana.body.token).toBeNull();
    const latest = (token: string) =>
      call(
        stack.api,
        'GET',
        `/api/v1/location/emit-latest-location/${transfer.transferUuid}/${phonePath(phone)}`,
        { token },
      );
    expect((await latest(devon)).status).toBe(200);
    expect((await latest(dana)).status).toBe(404);

    // Accepting again: the machine is in `accepted` and nothing is pending.
    expect((await confirm(stack.api, devon, transfer, joined.body.token)).status).toBe(409);

    const audit = await stack.database.db
      .selectFrom('audit_log')
      .select(['action', 'actor_user_id'])
      .where('subject', '=', request.uuid)
      .where('action', 'like', 'case-transfer.%')
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      { action: 'case-transfer.offered', actor_user_id: ids[offererEmail] },
      { action: 'case-transfer.accepted', actor_user_id: ids[colleagueEmail] },
    ]);
    await devonSocket.close();
  });
});

describe('the machine decides', () => {
  it('refuses an ACCEPT by the offerer with 409, exactly as the machine does, and changes nothing', async () => {
    const { request, phone, socket } = await danasSession();
    const transfer = await offerToDevon(request);
    // The token join-stream gave Devon: the very one a legitimate accept sends, so the token
    // check has nothing to object to and only the machine can refuse Dana.
    const joined = await joinStream(stack.api, devon, transfer);
    expect(joined.status).toBe(200);
    const before = await stored(transfer.transferUuid);
    // What the machine says about this event on the stored snapshot.
    const verdict = stepCaseTransfer(before.machine_snapshot as PersistedCaseTransfer, {
      type: 'ACCEPT',
      by: ids[offererEmail]!,
      at: Date.now(),
    });
    expect(verdict).toMatchObject({ taken: false, state: 'offered' });
    const answer = await confirm(stack.api, dana, transfer, joined.body.token);
    expect(answer.status).toBe(409);
    // The machine's refusal (service.ts `refused`), not the token check's.
    expect(answer.body).toMatchObject({
      error: 'conflict',
      message: 'This transfer cannot be accepted by you; nothing changed.',
    });
    expect(await stored(transfer.transferUuid)).toEqual(before);
    expect(await dispatcherOf(request.uuid)).toBe(ids[offererEmail]);
    expect((await transferAudit(request.uuid)).map((row) => row.action)).toEqual([
      'case-transfer.offered',
    ]);
    // Dana's socket for the session still works: nothing closed it.
    expect(socket.closeCode).toBeUndefined();
    const pending = await checkTransfer(stack.api, dana, request.uuid, phone);
    expect(pending.body).toMatchObject({ pending: 1, transfer: { status: 'offered' } });
    // The token was the right one: Devon's accept with it goes through.
    const accepted = await confirm(stack.api, devon, transfer, joined.body.token);
    expect(accepted.status).toBe(200);
    expect(await dispatcherOf(request.uuid)).toBe(ids[colleagueEmail]);
    expect(await socket.closed()).toBe(closeCodes.transferred);
  });

  it('denies: the case stays, both consoles are told, and a DENY after that is refused', async () => {
    const { request, phone, socket } = await danasSession();
    const transfer = await offerToDevon(request);
    const denied = await mark(stack.api, devon, transfer);
    expect(denied.status).toBe(200);
    expect(denied.body).toMatchObject({ status: 'denied', decidedAt: expect.any(String) });
    await transferFrame(danaConsole, transfer.transferUuid, 'denied');
    await transferFrame(devonConsole, transfer.transferUuid, 'denied');
    await transferFrame(socket, transfer.transferUuid, 'denied');
    expect((await mark(stack.api, devon, transfer)).status).toBe(409);
    expect((await joinStream(stack.api, devon, transfer)).status).toBe(409);
    expect(await dispatcherOf(request.uuid)).toBe(ids[offererEmail]);
    const check = await checkTransfer(stack.api, devon, request.uuid, phone);
    expect(check.body).toMatchObject({ pending: 0, transfer: { status: 'denied' } });
    // The deny is on the record, by Devon, once: the refused second DENY wrote nothing.
    const transferDetail = {
      sessionId: request.uuid,
      transferId: transfer.transferUuid,
      fromUserId: ids[offererEmail],
      toUserId: ids[colleagueEmail],
    };
    expect(await transferAudit(request.uuid)).toEqual([
      {
        action: 'case-transfer.offered',
        actor_user_id: ids[offererEmail],
        detail: transferDetail,
      },
      {
        action: 'case-transfer.denied',
        actor_user_id: ids[colleagueEmail],
        detail: transferDetail,
      },
    ]);
    expect(socket.closeCode).toBeUndefined();
    await socket.close();
  });

  it('cancels: a DENY after CANCEL is 409 and the stored machine state stays cancelled', async () => {
    const { request, socket } = await danasSession();
    const transfer = await offerToDevon(request);
    const cancelled = await mark(stack.api, dana, transfer);
    expect(cancelled.body.status).toBe('cancelled');
    await transferFrame(devonConsole, transfer.transferUuid, 'cancelled');
    const after = await stored(transfer.transferUuid);
    expect(
      stepCaseTransfer(after.machine_snapshot as PersistedCaseTransfer, {
        type: 'DENY',
        by: ids[colleagueEmail]!,
        at: Date.now(),
      }).taken,
    ).toBe(false);
    expect((await mark(stack.api, devon, transfer)).status).toBe(409);
    expect(await stored(transfer.transferUuid)).toEqual(after);
    // A new offer may follow a finished one.
    const again = await offerToDevon(request);
    expect((await mark(stack.api, dana, again)).status).toBe(200);
    const audit = await stack.database.db
      .selectFrom('audit_log')
      .select('action')
      .where('subject', '=', request.uuid)
      .where('action', 'like', 'case-transfer.%')
      .execute();
    expect(audit.map((row) => row.action).sort()).toEqual([
      'case-transfer.cancelled',
      'case-transfer.cancelled',
      'case-transfer.offered',
      'case-transfer.offered',
    ]);
    await socket.close();
  });

  it('expires an unanswered offer on its own; accepting it then is 409 and the case stays', async () => {
    const { request, socket } = await danasSession();
    const transfer = await offerToDevon(request, shortTtl);
    const joined = await joinStream(stack.api, devon, transfer);
    expect(joined.status).toBe(200);
    // Nobody asks: the sweeper expires it and both consoles and the log are told.
    await transferFrame(devonConsole, transfer.transferUuid, 'expired');
    await transferFrame(danaConsole, transfer.transferUuid, 'expired');
    await transferFrame(socket, transfer.transferUuid, 'expired');
    const late = await confirm(stack.api, devon, transfer, joined.body.token);
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({
      error: 'conflict',
      message: 'No transfer of this case is pending; nothing changed.',
    });
    expect(await dispatcherOf(request.uuid)).toBe(ids[offererEmail]);
    const row = await stored(transfer.transferUuid);
    expect(row.status).toBe('expired');
    expect(row.decided_at?.toISOString()).toBe(transfer.expiresAt);
    const audit = await stack.database.db
      .selectFrom('audit_log')
      .select(['action', 'actor_user_id'])
      .where('subject', '=', request.uuid)
      .where('action', '=', 'case-transfer.expired')
      .execute();
    expect(audit).toEqual([{ action: 'case-transfer.expired', actor_user_id: null }]);
    expect(socket.closeCode).toBeUndefined();
    await socket.close();
  });
});

describe('races', () => {
  // An accept and a cancel (or a deny) of the same offer at once: the offer's row lock lets one
  // decide; the other is 409. What is stored, and who has the case, match the one that won.
  for (const decider of ['cancel', 'deny'] as const) {
    it(`lets exactly one of accept and ${decider} win, every time`, async () => {
      let current = await danasSession();
      for (let round = 0; round < 10; round += 1) {
        const transfer = await offerToDevon(current.request);
        const joined = await joinStream(stack.api, devon, transfer);
        expect(joined.status).toBe(200);
        const [accepted, decided] = await Promise.all([
          confirm(stack.api, devon, transfer, joined.body.token),
          mark(stack.api, decider === 'cancel' ? dana : devon, transfer),
        ]);
        expect([accepted.status, decided.status].sort()).toEqual([200, 409]);
        const row = await stored(transfer.transferUuid);
        if (accepted.status === 200) {
          expect(row.status).toBe('accepted');
          expect(accepted.body.transfer.status).toBe('accepted');
          expect(await dispatcherOf(current.request.uuid)).toBe(ids[colleagueEmail]);
          // Dana no longer has the case: she cannot offer it again.
          const again = await offer(stack.api, dana, current.request.uuid, ids[teamAdminEmail]!);
          expect(again.status).toBe(404);
          await current.socket.close();
          current = await danasSession();
        } else {
          expect(row.status).toBe(decider === 'cancel' ? 'cancelled' : 'denied');
          expect(decided.body.status).toBe(row.status);
          expect(await dispatcherOf(current.request.uuid)).toBe(ids[offererEmail]);
        }
      }
      await current.socket.close();
    });
  }
});

describe('access', () => {
  it('answers 404 to another team, 409 for an offline colleague', async () => {
    const { request, phone, socket } = await danasSession();
    expect((await offer(stack.api, neighbour, request.uuid, ids[colleagueEmail]!)).status).toBe(
      404,
    );
    expect((await checkTransfer(stack.api, neighbour, request.uuid, phone)).status).toBe(404);
    const candidates = await call(
      stack.api,
      'GET',
      `/api/v1/location/transfer-candidates/${request.uuid}`,
      { token: neighbour },
    );
    expect(candidates.status).toBe(404);
    // A colleague of another team, offered by Dana.
    expect((await offer(stack.api, dana, request.uuid, ids[otherTeamEmail]!)).status).toBe(404);
    // Terry has no console open.
    const offline = await offer(stack.api, dana, request.uuid, ids[teamAdminEmail]!);
    expect(offline.status).toBe(409);
    // Someone not running the session cannot offer it.
    expect((await offer(stack.api, devon, request.uuid, ids[teamAdminEmail]!)).status).toBe(404);
    // The wrong number for the session.
    expect((await checkTransfer(stack.api, dana, request.uuid, '+12025550999')).status).toBe(404);
    await socket.close();
  });

  it('refuses, with 409 and a clear message, an offer to a colleague who has not confirmed their e-mail or is not online, and changes nothing', async () => {
    const { request, phone, socket } = await danasSession();
    // Maya is on Dana's (active) team but never followed her invitation link (seed).
    const maya = ids['maya.patel@demo-county.test']!;
    const unconfirmed = await stack.database.db
      .selectFrom('users')
      .select('email_confirmed_at')
      .where('id', '=', maya)
      .executeTakeFirstOrThrow();
    expect(unconfirmed.email_confirmed_at).toBeNull();
    // Online, as an instance holding a console of hers would say: only her e-mail is missing.
    const redis = new Redis(testEnvironment.redisUrl());
    const presence = `${stack.redisPrefix}console-presence:{${maya}}`;
    // Presence is fresh for 10 s only: it is renewed before each offer, as a live console would.
    const markMayaOnline = () => redis.zadd(presence, Date.now(), 'instance-x');
    try {
      await markMayaOnline();
      const nothingChanged = async () => {
        expect(await transfersOf(request.uuid)).toEqual([]);
        expect(await transferAudit(request.uuid)).toEqual([]);
        expect(await dispatcherOf(request.uuid)).toBe(ids[offererEmail]);
        const check = await checkTransfer(stack.api, dana, request.uuid, phone);
        expect(check.body).toEqual({ pending: 0, transfer: null });
      };
      const toMaya = await offer(stack.api, dana, request.uuid, maya);
      expect(toMaya.status).toBe(409);
      expect(toMaya.body).toEqual({
        error: 'conflict',
        message: 'This colleague has not confirmed their email address.',
      });
      await nothingChanged();
      // Not someone Dana is offered to pick, either.
      const candidates = await call<{ candidates: { id: string }[] }>(
        stack.api,
        'GET',
        `/api/v1/location/transfer-candidates/${request.uuid}`,
        { token: dana },
      );
      expect(candidates.body.candidates.map((c) => c.id)).not.toContain(maya);

      // Terry is confirmed but has no console open anywhere: not active now.
      const toTerry = await offer(stack.api, dana, request.uuid, ids[teamAdminEmail]!);
      expect(toTerry.status).toBe(409);
      expect(toTerry.body).toEqual({ error: 'conflict', message: 'This colleague is not online.' });
      await nothingChanged();
      expect(socket.of('case-transfer')).toEqual([]);

      // The confirmation was the only thing missing: once Maya confirms, the same offer is taken.
      await stack.database.db
        .updateTable('users')
        .set({ email_confirmed_at: new Date() })
        .where('id', '=', maya)
        .execute();
      await markMayaOnline();
      const taken = await offer(stack.api, dana, request.uuid, maya);
      expect(taken.status).toBe(201);
      expect((await mark(stack.api, dana, taken.body)).body.status).toBe('cancelled');
    } finally {
      await stack.database.db
        .updateTable('users')
        .set({ email_confirmed_at: null })
        .where('id', '=', maya)
        .execute();
      await redis.del(presence);
      await redis.quit();
    }
    await socket.close();
  });

  it("answers another team's dispatcher 404 on every transfer route of this team's session, and changes nothing", async () => {
    const { request, phone, socket } = await danasSession();
    const transfer = await offerToDevon(request);
    const joined = await joinStream(stack.api, devon, transfer);
    expect(joined.status).toBe(200);
    const before = await stored(transfer.transferUuid);
    const auditBefore = await transferAudit(request.uuid);
    const tokens = () =>
      stack.database.db
        .selectFrom('connection_tokens')
        .select(['token_hash', 'user_id', 'revoked_at'])
        .where('session_id', '=', request.uuid)
        .orderBy('token_hash')
        .execute();
    const tokensBefore = await tokens();

    const expectNotFound = (answer: { status: number; body: unknown }) => {
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ error: 'not-found' });
    };
    // join-stream, confirmation (even with the token join-stream gave Devon), deny/cancel,
    // check-case-transfer and emit-latest-location, as the neighbouring county's dispatcher.
    expectNotFound(await joinStream(stack.api, neighbour, transfer));
    expectNotFound(await confirm(stack.api, neighbour, transfer, joined.body.token));
    expectNotFound(await mark(stack.api, neighbour, transfer));
    expectNotFound(
      await call(
        stack.api,
        'GET',
        `/api/v1/location/check-case-transfer/${transfer.transferUuid}/${phonePath(phone)}`,
        { token: neighbour },
      ),
    );
    expectNotFound(
      await call(
        stack.api,
        'GET',
        `/api/v1/location/emit-latest-location/${transfer.transferUuid}/${phonePath(phone)}`,
        { token: neighbour },
      ),
    );

    expect(await stored(transfer.transferUuid)).toEqual(before);
    expect(await transferAudit(request.uuid)).toEqual(auditBefore);
    expect(await dispatcherOf(request.uuid)).toBe(ids[offererEmail]);
    // No socket token was issued to the neighbour, and none of Dana's was revoked.
    expect(await tokens()).toEqual(tokensBefore);
    expect(socket.closeCode).toBeUndefined();
    // The offer is intact: Devon still accepts it with the token he was given.
    const accepted = await confirm(stack.api, devon, transfer, joined.body.token);
    expect(accepted.status).toBe(200);
    expect(await socket.closed()).toBe(closeCodes.transferred);
  });

  it('counts a colleague online only while some instance keeps saying so', async () => {
    const { request, socket } = await danasSession();
    const terryId = ids[teamAdminEmail]!;
    const online = async () => {
      const answer = await call<{ candidates: { id: string; online: boolean }[] }>(
        stack.api,
        'GET',
        `/api/v1/location/transfer-candidates/${request.uuid}`,
        { token: dana },
      );
      return answer.body.candidates.find((c) => c.id === terryId)!.online;
    };
    // An instance that died with Terry's console on it: its member was last refreshed a minute ago.
    const redis = new Redis(testEnvironment.redisUrl());
    const key = `${stack.redisPrefix}console-presence:{${terryId}}`;
    await redis.zadd(key, Date.now() - 60_000, 'dead-instance');
    expect(await online()).toBe(false);
    expect((await offer(stack.api, dana, request.uuid, terryId)).status).toBe(409);
    // A console Terry opens now counts, and stops counting once it closes.
    const terryConsole = await openConsole(shortTtl, terry);
    await until(online);
    await terryConsole.close();
    await until(async () => !(await online()));
    await redis.quit();
    await socket.close();
  });
});
