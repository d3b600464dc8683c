import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { walkingCaller } from '../../services/api/src/modules/practice/scripts';
import { call, signIn, startAuthStack, type AuthStack } from '../auth/support';
import { idsOf } from '../metrics/fixtures';
import { dispatcherEmail, joinSession, outboxSms } from '../tracking/support';

/**
 * Issue 14, practice mode: a practice session goes through the dashboard's flow (start, lookup,
 * text) against a scripted caller that the API plays over its own caller socket. Nothing is
 * texted (no `sms_messages` row, nothing in the outbox), the provider is never asked, and the
 * team's metrics do not move. Real Postgres, Redis and sockets; the script at a fast pace.
 */
let stack: AuthStack;
let dispatcher: string;
let admin: string;
let owner: string;
let teamId: string;
let dispatcherId: string;

const practiceNumber = '+12025550163';
const realNumber = '+12025550164';
const paceMs = 150;

beforeAll(async () => {
  // No worker: a practice session must need none (no lookup job, no SMS job).
  stack = await startAuthStack({ worker: false, env: { PRACTICE_PACE_MS: String(paceMs) } });
  const ids = await idsOf(stack.database.db);
  teamId = ids.team('Demo County 911');
  dispatcherId = ids.user(dispatcherEmail);
  [dispatcher, admin, owner] = await Promise.all([
    signIn(stack.api, dispatcherEmail),
    signIn(stack.api, 'teamadmin@demo-county.test'),
    signIn(stack.api, 'owner@locus.test'),
  ]);
});
afterAll(() => stack?.close());

const post = (path: string, body: unknown = {}) =>
  call(stack.api, 'POST', path, { token: dispatcher, body });

/** Two days either side of today (UTC), so the team's own time zone cannot matter. */
const isoDay = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const days = () => `${isoDay(-2)}/${isoDay(2)}`;

/** Every metrics call that could count a session, a caller, a text, a fix or a chat. */
async function metrics(): Promise<Record<string, unknown>> {
  const team = [
    'get-ct-totals',
    'get-usage',
    'get-daily-totals',
    'get-user-search-totals',
    'get-case-durations',
    'get-case-time-interval',
    'get-languages',
    'get-chat-totals',
    'get-historical-searches',
    'get-time-to-locate',
    'get-link-funnel',
  ].map((name) => ({ name, path: `/api/v1/location/${name}/${teamId}/${days()}`, token: admin }));
  const user = ['get-user-total-usage', 'get-user-statistics', 'get-user-languages'].map(
    (name) => ({ name, path: `/api/v1/location/${name}/${dispatcherId}/${days()}`, token: admin }),
  );
  const other = [
    {
      name: 'uncertainty',
      path: `/api/v1/target-location/get-uncertainty-radius-totals/${teamId}/${days()}`,
      token: admin,
    },
    { name: 'platform', path: `/api/v1/platform/metrics/${days()}`, token: owner },
  ];
  const answers = await Promise.all(
    [...team, ...user, ...other].map(async ({ name, path, token }) => {
      const answer = await call(stack.api, 'GET', path, { token });
      expect(answer.status, `${name} answered ${answer.status}`).toBe(200);
      return [name, answer.body] as const;
    }),
  );
  return Object.fromEntries(answers);
}

async function count(
  table: 'sms_messages' | 'location_lookups' | 'location_fixes' | 'audit_log',
  where: { column: 'session_id' | 'subject'; value: string },
): Promise<number> {
  const row = await stack.database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where(where.column as never, '=', where.value as never)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('practice mode', () => {
  it('plays a scripted caller through the real pipeline, texts nobody and counts nothing', async () => {
    const before = await metrics();

    const started = await post('/api/v1/location/start-stream', {
      phoneNumber: practiceNumber,
      practice: true,
    });
    expect(started.status).toBe(200);
    const request = started.body as { uuid: string; token: string; id: string };
    const row = await stack.database.db
      .selectFrom('tracking_sessions')
      .select(['practice', 'team_id', 'dispatcher_id'])
      .where('id', '=', request.uuid)
      .executeTakeFirstOrThrow();
    // No team: nothing team-scoped (metrics, team admins, transfers, exports) sees it.
    expect(row).toEqual({ practice: true, team_id: null, dispatcher_id: dispatcherId });
    const socket = await joinSession(stack.api, request);

    // The lookup answers "no location" without asking the provider: the text is offered.
    const lookup = await post('/api/v1/location/request-location', {
      connectionRequestUuid: request.uuid,
      language: 'en',
    });
    expect(lookup.status).toBe(422);
    expect(lookup.body).toMatchObject({ error: 'lookup-no-location' });
    expect(await count('location_lookups', { column: 'session_id', value: request.uuid })).toBe(0);

    const text = await post('/api/v1/location/request-text-message-location', {
      connectionRequestUuid: request.uuid,
      language: 'en',
    });
    expect(text.status).toBe(200);

    // The scripted caller: connects, refuses the permission, then allows it and walks.
    await socket.next(
      (frame) => frame.event === 'caller-connected' && frame.data.connected === true,
    );
    const refused = await socket.event('location-sharing-error');
    expect(refused.data).toMatchObject({ callerId: request.id, code: 'permission-denied' });
    const fixes = await socket.count('new-location-available', walkingCaller.route.length);
    expect(
      fixes.map((fix) => [fix.data.latitude, fix.data.longitude, fix.data.capturedFromSource]),
    ).toEqual(walkingCaller.route.map(([lat, lon]) => [lat, lon, 'TEXT_MESSAGE']));
    // The walk came after the refusal (the dispatcher sees events in seq order).
    expect(refused.data.seq!).toBeLessThan(fixes[0]!.data.seq!);
    const device = socket.of('caller-device').map((frame) => frame.data.permission);
    expect(device).toEqual(['prompt', 'denied', 'granted']);

    // Goes stale, then stops sharing: the last word is sharing off, with no fix after the walk.
    const sharing = await socket.count('is-sharing-location', 4);
    expect(sharing.map((frame) => frame.data.sharing)).toEqual([true, false, true, false]);
    expect(sharing[3]!.data.seq!).toBeGreaterThan(fixes.at(-1)!.data.seq!);
    expect(socket.countOf('new-location-available')).toBe(walkingCaller.route.length);

    // The chat: once opened, the caller answers in Spanish.
    const opened = await post(`/api/v1/location/chat-initiated/${request.uuid}`);
    expect(opened.status).toBe(200);
    const reply = await socket.next(
      (frame) => frame.event === 'chat-message' && frame.data.from === 'caller',
    );
    expect(reply.data).toMatchObject({
      callerId: request.id,
      language: 'es',
      text: walkingCaller.chatReplies[0],
    });
    // A message from the dispatcher gets the next line.
    socket.send('chat', {
      callerId: request.id,
      clientId: crypto.randomUUID(),
      text: 'Are you hurt?',
    });
    const second = await socket.next(
      (frame) =>
        frame.event === 'chat-message' &&
        frame.data.from === 'caller' &&
        frame.data.text === walkingCaller.chatReplies[1],
    );
    expect(second.data.language).toBe('es');

    // Nothing texted, nothing sent: no row, nothing in the outbox; no locate on the audit trail.
    expect(await count('sms_messages', { column: 'session_id', value: request.uuid })).toBe(0);
    expect(await outboxSms(stack.api, practiceNumber)).toEqual([]);
    expect(await count('audit_log', { column: 'subject', value: practiceNumber })).toBe(0);
    // The fixes themselves were stored like any caller's.
    expect(await count('location_fixes', { column: 'session_id', value: request.uuid })).toBe(
      walkingCaller.route.length,
    );

    // A reload rejoins it, and is told it is practice.
    const active = await call<{ session: { uuid: string; practice?: boolean } | null }>(
      stack.api,
      'GET',
      '/api/v1/location/active-session',
      { token: dispatcher },
    );
    expect(active.body.session).toMatchObject({ uuid: request.uuid, practice: true });

    // The routes that would text someone else refuse a practice session.
    const more = await post('/api/v1/location/request-text-message-additional-locations', {
      connectionRequestUuid: request.uuid,
      newNumbers: [realNumber],
      language: 'en',
    });
    expect(more.status).toBe(409);
    const ask = await post('/api/v1/location/ask-location-by-text', {
      connectionRequestUuid: request.uuid,
    });
    expect(ask.status).toBe(409);
    expect(await count('sms_messages', { column: 'session_id', value: request.uuid })).toBe(0);

    const ended = await post(`/api/v1/location/set-date-time-completed/${request.uuid}`);
    expect(ended.status).toBe(200);
    expect(await socket.closed()).toBe(4410);
    // The scripted caller is gone with its session.
    await expect
      .poll(async () => {
        const caller = await stack.database.db
          .selectFrom('session_callers')
          .select(sql<boolean>`coalesce(connected_until > now(), false)`.as('connected'))
          .where('id', '=', request.id)
          .executeTakeFirstOrThrow();
        return caller.connected;
      })
      .toBe(false);

    // Not one metric moved.
    expect(await metrics()).toEqual(before);

    // …whereas a real session does count (the comparison above can fail).
    const real = await post('/api/v1/location/start-stream', { phoneNumber: realNumber });
    expect(real.status).toBe(200);
    const after = await metrics();
    const sessionsOf = (answers: Record<string, unknown>) =>
      (answers['get-ct-totals'] as { totals: { sessions: number } }).totals.sessions;
    expect(sessionsOf(after)).toBe(sessionsOf(before) + 1);
    await post(`/api/v1/location/set-date-time-completed/${(real.body as { uuid: string }).uuid}`);
  });

  it('starts a real session unless practice is asked for', async () => {
    const started = await post('/api/v1/location/start-stream', {
      phoneNumber: realNumber,
      practice: false,
    });
    expect(started.status).toBe(200);
    const uuid = (started.body as { uuid: string }).uuid;
    const row = await stack.database.db
      .selectFrom('tracking_sessions')
      .select(['practice', 'team_id'])
      .where('id', '=', uuid)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ practice: false, team_id: teamId });
    await post(`/api/v1/location/set-date-time-completed/${uuid}`);
  });
});
