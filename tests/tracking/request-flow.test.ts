import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, startAuthStack, type AuthStack } from '../auth/support';
import { testEnvironment } from '../support/environment';
import { fixAt } from '../support/sockets';
import {
  callerSocket,
  dispatcherEmail,
  foundNumber,
  joinSession,
  linkTokenIn,
  otherTeamEmail,
  outboxSms,
  startStream,
  unknownNumber,
} from './support';

let stack: AuthStack;
let dispatcher: string;
let otherTeam: string;

beforeAll(async () => {
  stack = await startAuthStack();
  dispatcher = await signIn(stack.api, dispatcherEmail);
  otherTeam = await signIn(stack.api, otherTeamEmail);
});
afterAll(() => stack?.close());

const post = (path: string, token: string, body: unknown = {}) =>
  call(stack.api, 'POST', path, { token, body });
/** The dispatcher ends tracking (SPEC.md: set-date-time-completed). */
const endTracking = (uuid: string) =>
  post(`/api/v1/location/set-date-time-completed/${uuid}`, dispatcher);

describe('a session just opened', () => {
  it('has its event counter in Redis at once, so its first fix never waits on Postgres', async () => {
    const request = await startStream(stack.api, dispatcher, foundNumber);
    const redis = new Redis(testEnvironment.redisUrl());
    try {
      // The counter is set beside the answer, not before it: it is there moments later.
      await expect
        .poll(() => redis.get(`${stack.redisPrefix}session:{${request.uuid}}:seq`))
        .toBe('0');
    } finally {
      redis.disconnect();
    }
    // And the first event takes seq 1, as it would have with the counter seeded from Postgres.
    const socket = await joinSession(stack.api, request);
    const lookup = await post('/api/v1/location/request-location', dispatcher, {
      connectionRequestUuid: request.uuid,
      language: 'en',
    });
    expect(lookup.status).toBe(200);
    const fix = await socket.event('new-location-available');
    expect(fix.data.seq).toBe(1);
    const ended = await endTracking(request.uuid);
    expect(ended.status).toBe(200);
    expect(await socket.closed()).toBe(4410);
  });
});

describe('locating a phone the provider knows', () => {
  it('puts its RAPID_SOS fix on the dispatcher socket, and texts nobody', async () => {
    const request = await startStream(stack.api, dispatcher, foundNumber);
    const socket = await joinSession(stack.api, request);
    const lookup = await post('/api/v1/location/request-location', dispatcher, {
      connectionRequestUuid: request.uuid,
      language: 'en',
    });
    expect(lookup.status).toBe(200);
    const fix = await socket.event('new-location-available');
    expect(fix.data).toMatchObject({
      sessionId: request.uuid,
      callerId: request.id,
      capturedFromSource: 'RAPID_SOS',
    });
    expect(await outboxSms(stack.api, foundNumber)).toEqual([]);
    // Browsers read text frames as strings; every frame must be text.
    expect(socket.binaryFrames).toBe(0);
    const ended = await endTracking(request.uuid);
    expect(ended.status).toBe(200);
    expect(await socket.closed()).toBe(4410);
  });
});

describe('the text-message path', () => {
  it('offers a text when the provider has no record, texts the link in the chosen language, and streams the caller', async () => {
    const request = await startStream(stack.api, dispatcher, unknownNumber);
    const socket = await joinSession(stack.api, request);
    const lookup = await post('/api/v1/location/request-location', dispatcher, {
      connectionRequestUuid: request.uuid,
      language: 'en',
    });
    expect(lookup.status).toBe(422);
    expect(lookup.body).toMatchObject({ error: 'lookup-no-location' });

    const sms = await post('/api/v1/location/request-text-message-location', dispatcher, {
      connectionRequestUuid: request.uuid,
      language: 'es',
    });
    expect(sms.status).toBe(200);
    await socket.next((frame) => frame.event === 'sms-status' && frame.data.status === 'sent');
    const [text] = await outboxSms(stack.api, unknownNumber);
    expect(text!.body).toContain('Demo County 911');
    expect(text!.body).toMatch(/ubicación/i);
    const linkToken = linkTokenIn(text!.body);

    // Reading the link twice changes nothing: a GET never consumes it.
    for (let i = 0; i < 2; i += 1) {
      const link = await call(stack.api, 'GET', `/api/v1/caller/link?token=${linkToken}`);
      expect(link.body).toEqual({
        status: 'active',
        language: 'es',
        agencyName: 'Demo County 911',
        // The demo's outbox number, where the page offers to text a position back.
        textBack: {
          number: '+15005550006',
          code: expect.stringMatching(/^[2-9A-HJ-NP-Z]{4}$/),
          afterMs: 20_000,
        },
      });
    }

    const caller = await callerSocket(stack.api, linkToken);
    await socket.next(
      (frame) => frame.event === 'caller-connected' && frame.data.connected === true,
    );
    const base = Date.now() - 5_000;
    for (let i = 0; i < 3; i += 1) caller.send('fix', fixAt(base, i));
    const fixes = await socket.count('new-location-available', 3);
    expect(fixes.map((frame) => frame.data.capturedFromSource)).toEqual([
      'TEXT_MESSAGE',
      'TEXT_MESSAGE',
      'TEXT_MESSAGE',
    ]);

    // Rejoin: the session is resumable, with a fresh token that replays the whole history.
    const active = await call<{ session: { uuid: string; token: string; phoneNumber: string } }>(
      stack.api,
      'GET',
      '/api/v1/location/active-session',
      { token: dispatcher },
    );
    expect(active.body.session).toMatchObject({ uuid: request.uuid, phoneNumber: unknownNumber });
    const resumed = await joinSession(stack.api, {
      ...request,
      token: active.body.session.token,
    });
    expect((await resumed.count('new-location-available', 3)).length).toBe(3);
    expect(socket.binaryFrames + resumed.binaryFrames).toBe(0);

    // End tracking: the caller's page is told, and the link no longer works.
    const ended = await endTracking(request.uuid);
    expect(ended.status).toBe(200);
    await caller.event('session-ended');
    expect(await caller.closed()).toBe(4410);
    expect(await resumed.closed()).toBe(4410);
    const link = await call(stack.api, 'GET', `/api/v1/caller/link?token=${linkToken}`);
    expect(link.body).toEqual({ status: 'ended', language: 'es' });
    const again = await callerSocket(stack.api, linkToken);
    expect(await again.closed()).toBe(4401);
    const none = await call<{ session: unknown }>(
      stack.api,
      'GET',
      '/api/v1/location/active-session',
      {
        token: dispatcher,
      },
    );
    expect(none.body.session).toBeNull();
    await socket.close();
  });

  it('answers an unknown link as invalid, and a link not opened in time as expired', async () => {
    const invalid = await call(stack.api, 'GET', `/api/v1/caller/link?token=${'x'.repeat(43)}`);
    expect(invalid.body).toEqual({ status: 'invalid', language: null });

    const request = await startStream(stack.api, dispatcher, '+12025550181');
    await post('/api/v1/location/request-text-message-location', dispatcher, {
      connectionRequestUuid: request.uuid,
      language: 'fr',
    });
    const linkToken = linkTokenIn((await outboxSms(stack.api, '+12025550181'))[0]!.body);
    await sql`update connection_tokens set expires_at = now() - interval '1 second'
              where session_id = ${request.uuid} and kind = 'caller'`.execute(stack.database.db);
    const link = await call(stack.api, 'GET', `/api/v1/caller/link?token=${linkToken}`);
    expect(link.body).toEqual({ status: 'expired', language: 'fr' });
    const caller = await callerSocket(stack.api, linkToken);
    expect(await caller.closed()).toBe(4401);
  });
});

describe('isolation', () => {
  it('gives a dispatcher of another team 404 for the session, over REST and over the socket', async () => {
    const request = await startStream(stack.api, dispatcher, foundNumber);
    for (const [method, path, body] of [
      ['GET', `/api/v1/location/get-latest-location/${request.uuid}`, undefined],
      ['POST', `/api/v1/location/set-date-time-completed/${request.uuid}`, {}],
      ['POST', '/api/v1/location/request-location', { connectionRequestUuid: request.uuid }],
      [
        'POST',
        '/api/v1/location/request-text-message-location',
        { connectionRequestUuid: request.uuid, language: 'en' },
      ],
    ] as const) {
      const answer = await call(stack.api, method, path, { token: otherTeam, body });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body).toMatchObject({ error: 'not-found' });
    }
    const own = await startStream(stack.api, otherTeam, unknownNumber);
    const socket = await (
      await import('../support/sockets')
    ).TestSocket.open(`${stack.api.wsUrl}/api/v1/socket?token=${own.token}`);
    socket.send('join', { sessionId: request.uuid });
    expect((await socket.event('error')).data).toMatchObject({ error: 'not-found' });
    expect(await socket.closed()).toBe(4404);
    // The session's own dispatcher and its team's admin see it; a colleague who is not an
    // admin does not.
    for (const [email, status] of [
      [dispatcherEmail, 200],
      ['teamadmin@demo-county.test', 200],
      ['dispatcher2@demo-county.test', 404],
    ] as const) {
      const token = email === dispatcherEmail ? dispatcher : await signIn(stack.api, email);
      const answer = await call(
        stack.api,
        'GET',
        `/api/v1/location/get-latest-location/${request.uuid}`,
        { token },
      );
      expect(answer.status, email).toBe(status);
    }
  });
});

describe('rejoining (SPEC.md §9: connected, or active within 60 seconds)', () => {
  it('offers a session without a connected caller for 60 seconds after its last activity, not after', async () => {
    // Only this session: the dispatcher's earlier ones are ended.
    await sql`update tracking_sessions set status = 'ended', ended_at = now()
              where created_by = (select id from users where email = ${dispatcherEmail})`.execute(
      stack.database.db,
    );
    const request = await startStream(stack.api, dispatcher, '+12025550185');
    const rejoinable = async () =>
      (
        await call<{ session: { uuid: string } | null }>(
          stack.api,
          'GET',
          '/api/v1/location/active-session',
          { token: dispatcher },
        )
      ).body.session?.uuid ?? null;
    const idleFor = (seconds: number) =>
      sql`update tracking_sessions set last_active_at = now() - make_interval(secs => ${seconds})
          where id = ${request.uuid}`.execute(stack.database.db);
    await idleFor(55);
    expect(await rejoinable()).toBe(request.uuid);
    await idleFor(61);
    expect(await rejoinable()).toBeNull();
    // A connected caller keeps it resumable however long ago the last event was: while the
    // presence lease its instance renews is running, and not once it has run out (an instance
    // that died without closing the socket renews nothing).
    const leaseFor = (seconds: number) =>
      sql`update session_callers set connected_until = now() + make_interval(secs => ${seconds})
          where session_id = ${request.uuid}`.execute(stack.database.db);
    await leaseFor(30);
    expect(await rejoinable()).toBe(request.uuid);
    await leaseFor(-1);
    expect(await rejoinable()).toBeNull();
    await leaseFor(30);
    await endTracking(request.uuid);
    expect(await rejoinable()).toBeNull();
  });
});

describe('who may locate', () => {
  it('answers verify-email for an unconfirmed address and unauthorized-domain for a domain not cleared', async () => {
    const db = stack.database.db;
    await sql`update users set email_confirmed_at = null where email = ${dispatcherEmail}`.execute(
      db,
    );
    const unconfirmed = await post('/api/v1/location/start-stream', dispatcher, {
      phoneNumber: foundNumber,
    });
    expect(unconfirmed.status).toBe(403);
    expect(unconfirmed.body).toMatchObject({ error: 'verify-email' });
    await sql`update users set email_confirmed_at = now() where email = ${dispatcherEmail}`.execute(
      db,
    );

    await sql`delete from cleared_email_domains where domain = 'demo-county.test'`.execute(db);
    const uncleared = await post('/api/v1/location/start-stream', dispatcher, {
      phoneNumber: foundNumber,
    });
    expect(uncleared.status).toBe(403);
    expect(uncleared.body).toMatchObject({ error: 'unauthorized-domain' });
    await sql`insert into cleared_email_domains (domain) values ('demo-county.test')`.execute(db);
  });

  it('refuses an invalid number with validation-failed and opens nothing', async () => {
    const before = await sql<{
      n: number;
    }>`select count(*)::int as n from tracking_sessions`.execute(stack.database.db);
    const answer = await post('/api/v1/location/start-stream', dispatcher, {
      phoneNumber: '+1555',
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'validation-failed' });
    const after = await sql<{
      n: number;
    }>`select count(*)::int as n from tracking_sessions`.execute(stack.database.db);
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });
});
