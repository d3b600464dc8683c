import {
  applyWatchEvent,
  maxNumbersPerRequest,
  newPhone,
  phoneStatus,
  grownRadius,
  type GeoJsonPolygon,
  type WatchAlert,
  type WatchEvent,
  type WatchSettings,
  type WatchedPhone,
} from '@locus/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, startAuthStack, type AuthStack } from '../auth/support';
import { TestSocket } from '../support/sockets';
import { callerSocket, linkTokenIn, outboxSms } from '../tracking/support';

/**
 * Issue 14: a watch is a tracking session of kind `overwatch`, started in batches over the
 * location pipeline; the screen's analysis (`@locus/contract` overwatch-watch) reads what the
 * dispatcher socket delivers. Everything here goes over real HTTP and real websockets.
 */

let stack: AuthStack;
let teamAdmin: string;

const teamAdminEmail = 'teamadmin@demo-county.test';
/** Simulator numbers (README): 0100–0149 are found by the automatic lookup. */
const found = ['+12025550100', '+12025550101'];

interface Started {
  uuid: string;
  token: string | null;
  callers: { id: string; phoneNumber: string; status: string }[];
  invalid: string[];
  untextable: { phoneNumber: string }[];
}

const start = (token: string, body: Record<string, unknown>) =>
  call<Started>(stack.api, 'POST', '/api/v1/location/start-overwatch-stream', { token, body });

/** Ends a watch: an admin runs one at a time. */
const end = (token: string, uuid: string) =>
  call(stack.api, 'POST', `/api/v1/location/set-date-time-completed/${uuid}`, { token, body: {} });

/** A group row for the team admin's team, written directly: the groups API has its own tests. */
async function insertGroup(name: string, numbers: string[], team = 'Demo County 911') {
  const db = stack.database.db;
  const row = await sql<{ id: string }>`
    insert into overwatch_groups (team_id, name, language)
    values ((select id from teams where team_name = ${team}), ${name}, 'es') returning id`.execute(
    db,
  );
  const id = row.rows[0]!.id;
  for (const [position, number] of numbers.entries())
    await sql`insert into overwatch_group_members (group_id, phone_number, position)
      values (${id}, ${number}, ${position})`.execute(db);
  return id;
}

const outboundTexts = async (numbers: string[]) =>
  (
    await sql<{ phone_number: string; n: number }>`
      select c.phone_number, count(m.id)::int as n
      from session_callers c left join sms_messages m on m.caller_id = c.id and m.direction = 'outbound'
      where c.phone_number = any(${numbers}) group by c.phone_number`.execute(stack.database.db)
  ).rows;

beforeAll(async () => {
  stack = await startAuthStack();
  teamAdmin = await signIn(stack.api, teamAdminEmail);
});
afterAll(() => stack?.close());

describe('starting a watch', () => {
  it('locates a group of 60 in two batches: found numbers by lookup, every other number texted once', async () => {
    const unknown = Array.from({ length: 57 }, (_, i) => `+1202555${String(2000 + i)}`);
    const optedOut = '+12025552999';
    await sql`insert into sms_opt_outs (phone_number) values (${optedOut})`.execute(
      stack.database.db,
    );
    const numbers = [...found, optedOut, ...unknown];
    expect(numbers).toHaveLength(60);
    const groupId = await insertGroup('Flood volunteers', numbers);

    const first = await start(teamAdmin, {
      groupId,
      phoneNumbers: numbers.slice(0, maxNumbersPerRequest),
    });
    expect(first.status).toBe(200);
    expect(first.body.token).toEqual(expect.any(String));
    const second = await start(teamAdmin, {
      groupId,
      connectionRequestUuid: first.body.uuid,
      phoneNumbers: numbers.slice(maxNumbersPerRequest),
    });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ uuid: first.body.uuid, token: null });
    // A batch sent again (a retried request) adds and texts nobody.
    const again = await start(teamAdmin, {
      groupId,
      connectionRequestUuid: first.body.uuid,
      phoneNumbers: numbers.slice(maxNumbersPerRequest),
    });
    expect(again.body.callers).toEqual([]);

    const statuses = new Map(
      [...first.body.callers, ...second.body.callers].map((c) => [c.phoneNumber, c.status]),
    );
    expect(statuses.size).toBe(60);
    expect(found.map((number) => statuses.get(number))).toEqual(['located', 'located']);
    expect(statuses.get(optedOut)).toBe('opted-out');
    expect(unknown.every((number) => statuses.get(number) === 'sent')).toBe(true);

    const texts = new Map((await outboundTexts(numbers)).map((row) => [row.phone_number, row.n]));
    expect(unknown.map((number) => texts.get(number))).toEqual(unknown.map(() => 1));
    expect([...found, optedOut].map((number) => texts.get(number))).toEqual([0, 0, 0]);
    // In the group's language.
    expect((await outboxSms(stack.api, unknown[0]!))[0]!.body).toMatch(/ubicación/i);
    await end(teamAdmin, first.body.uuid);
  });

  it('refuses more than 50 numbers in one request and texts nobody', async () => {
    const numbers = Array.from({ length: 51 }, (_, i) => `+1202555${String(3000 + i)}`);
    const answer = await start(teamAdmin, { phoneNumbers: numbers });
    expect(answer.status).toBe(400);
    expect(await outboundTexts(numbers)).toEqual([]);
  });

  it('is for admins of premiere teams only; another team’s group is 404', async () => {
    const neighbourAdmin = await signIn(stack.api, 'teamadmin@neighbour-county.test');
    const basic = await start(neighbourAdmin, { phoneNumbers: ['+12025553100'] });
    expect(basic.status).toBe(403);
    expect(basic.body).toMatchObject({ error: 'forbidden' });
    const dispatcher = await signIn(stack.api, 'dispatcher@demo-county.test');
    expect((await start(dispatcher, { phoneNumbers: ['+12025553101'] })).status).toBe(403);
    // The platform owner's team has the premiere level too; Demo County's admin is not on it.
    const neighbours = await insertGroup('Not yours', ['+12025553102'], 'Locus');
    const other = await start(teamAdmin, { groupId: neighbours, phoneNumbers: ['+12025553102'] });
    expect(other.status).toBe(404);
    expect(await outboundTexts(['+12025553100', '+12025553101', '+12025553102'])).toEqual([]);
  });

  it('reopens the running watch after a reload; the dashboard never picks it up', async () => {
    const started = await start(teamAdmin, { phoneNumbers: ['+12025553200'] });
    const watch = await call<{ watch: { uuid: string; token: string; callers: unknown[] } }>(
      stack.api,
      'GET',
      '/api/v1/overwatch/active-watch',
      { token: teamAdmin },
    );
    expect(watch.body.watch).toMatchObject({
      uuid: started.body.uuid,
      callers: [{ phoneNumber: '+12025553200' }],
    });
    expect(watch.body.watch.token).not.toBe(started.body.token);
    // A second start (a stale screen, another tab) would text the group again: refused.
    const second = await start(teamAdmin, { phoneNumbers: ['+12025553201'] });
    expect(second.status).toBe(409);
    expect(await outboundTexts(['+12025553201'])).toEqual([]);
    const dashboard = await call<{ session: unknown }>(
      stack.api,
      'GET',
      '/api/v1/location/active-session',
      { token: teamAdmin },
    );
    expect(dashboard.body.session).toBeNull();
    await end(teamAdmin, started.body.uuid);
  });
});

describe('what the Overwatch screen makes of a watch', () => {
  // A square of about 1.7 × 2.2 km around (39, -90).
  const levee: GeoJsonPolygon = {
    type: 'Polygon',
    coordinates: [
      [
        [-90.01, 38.99],
        [-89.99, 38.99],
        [-89.99, 39.01],
        [-90.01, 39.01],
        [-90.01, 38.99],
      ],
    ],
  };
  const settings: WatchSettings = {
    staleAfterMs: 90_000,
    speedMps: 1.5,
    maxSpeedMps: 12,
    geofences: [{ id: 'levee', name: 'Levee breach', polygon: levee }],
  };

  const watchEvents = [
    'new-location-available',
    'caller-connected',
    'is-sharing-location',
    'location-sharing-error',
  ];

  /** Feeds what the dispatcher socket delivered, in seq order, to the screen's analysis. */
  function analyse(socket: TestSocket, callerId: string) {
    let phone: WatchedPhone = newPhone(callerId);
    const alerts: WatchAlert[] = [];
    for (const frame of socket.frames) {
      if (frame.data.callerId !== callerId || !watchEvents.includes(frame.event)) continue;
      const applied = applyWatchEvent(phone, frame as unknown as WatchEvent, settings);
      phone = applied.phone;
      alerts.push(...applied.alerts);
    }
    return { phone, alerts };
  }

  it('raises one alert entering the geofence and one leaving it, flags an impossible jump, and marks the phone stale after the threshold', async () => {
    const number = '+12025553300';
    const started = await start(teamAdmin, { phoneNumbers: [number] });
    const callerId = started.body.callers[0]!.id;
    const dispatcher = await TestSocket.open(
      `${stack.api.wsUrl}/api/v1/socket?token=${started.body.token}`,
    );
    dispatcher.send('join', { sessionId: started.body.uuid });
    await dispatcher.event('joined');

    const caller = await callerSocket(
      stack.api,
      linkTokenIn((await outboxSms(stack.api, number))[0]!.body),
    );
    caller.send('sharing', { sharing: true });
    // Walking east along latitude 39 at about 1.4 m/s, a fix every 30 s: outside, through the
    // square (x from -90.01 to -89.99), and out again; then a fix 20 km away 30 s later.
    const base = Date.now() - 60 * 60_000;
    const walk = Array.from({ length: 81 }, (_, i) => ({
      latitude: 39,
      longitude: -90.015 + i * 0.0005,
      accuracy: 10,
      capturedAt: base + i * 30_000,
    }));
    const jump = {
      latitude: 39.18,
      longitude: -89.975,
      accuracy: 10,
      capturedAt: base + 81 * 30_000,
    };
    const fixes = [...walk, jump];
    for (let i = 0; i < fixes.length; i += 25)
      caller.send('fixes', { fixes: fixes.slice(i, i + 25) });
    await dispatcher.count('new-location-available', fixes.length);

    const { phone, alerts } = analyse(dispatcher, callerId);
    expect(alerts.map((alert) => `${alert.kind}: ${alert.message}`)).toEqual([
      'geofence-entered: Entered Levee breach',
      'geofence-left: Left Levee breach',
      'impossible-jump: Impossible jump: 20.0 km in 30 s',
    ]);
    expect(phone.fixes.filter((fix) => fix.impossibleJump)).toHaveLength(1);

    // Stale once the newest fix is older than the group's threshold, and its circle grows.
    const newest = phone.fixes.at(-1)!;
    expect(phoneStatus(phone, newest.capturedAt + 89_000, settings)).toBe('sharing');
    expect(phoneStatus(phone, newest.capturedAt + 91_000, settings)).toBe('stale');
    expect(grownRadius(newest, newest.capturedAt + 600_000, settings)).toBe(910);

    await caller.close();
    await dispatcher.close();
    await end(teamAdmin, started.body.uuid);
  });
});

describe('a batch beyond the text limits', () => {
  let limited: AuthStack;
  beforeAll(async () => {
    limited = await startAuthStack({ env: { SMS_RATE_LIMIT_PER_USER: '3' } });
  });
  afterAll(() => limited?.close());

  it('is refused whole (429 with Retry-After) and leaves nobody in the watch, so a retry within the allowance texts them', async () => {
    const admin = await signIn(limited.api, teamAdminEmail);
    const post = (body: Record<string, unknown>) =>
      call<Started>(limited.api, 'POST', '/api/v1/location/start-overwatch-stream', {
        token: admin,
        body,
      });
    const first = await post({ phoneNumbers: ['+12025554000', '+12025554001'] });
    expect(first.status).toBe(200);
    const refused = await post({
      connectionRequestUuid: first.body.uuid,
      phoneNumbers: ['+12025554002', '+12025554003'],
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const callers = await sql<{ phone_number: string }>`
      select phone_number from session_callers where session_id = ${first.body.uuid}
      order by phone_number`.execute(limited.database.db);
    expect(callers.rows.map((row) => row.phone_number)).toEqual(['+12025554000', '+12025554001']);
    // One text is left in the allowance: the retry of one of them reaches it.
    const retried = await post({
      connectionRequestUuid: first.body.uuid,
      phoneNumbers: ['+12025554002'],
    });
    expect(retried.status).toBe(200);
    expect(retried.body.callers).toMatchObject([{ phoneNumber: '+12025554002', status: 'sent' }]);
  });
});
