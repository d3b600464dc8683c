import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, startAuthStack, type AuthStack } from '../auth/support';
import { idsOf, insertSession } from './fixtures';

/**
 * The session totals (issue 13): get-ct-totals, get-usage, get-daily-totals, get-monthly-totals,
 * get-user-search-totals, get-historical-searches and the user calls built on the same queries,
 * over known sessions of Demo County 911 (America/Chicago, UTC-5 in October 2026).
 */
let stack: AuthStack;
let admin: string;
let teamId: string;
let neighbourTeamId: string;
let dana: string; // dispatcher@demo-county.test, "Dana Dispatcher"
let devon: string; // dispatcher2@demo-county.test, "Devon Dispatcher"
const sessions: Record<string, string> = {};

const at = (iso: string, plusMs = 0) => new Date(Date.parse(iso) + plusMs);
const chicago = { timeZone: 'America/Chicago' };
const get = async (path: string, token = admin) => call(stack.api, 'GET', path, { token });

beforeAll(async () => {
  stack = await startAuthStack({ worker: false });
  const db = stack.database.db;
  const ids = await idsOf(db);
  teamId = ids.team('Demo County 911');
  neighbourTeamId = ids.team('Neighbouring County');
  dana = ids.user('dispatcher@demo-county.test');
  devon = ids.user('dispatcher2@demo-county.test');
  // Only the sessions below: the seed's demo history would blur the exact numbers.
  await db.deleteFrom('tracking_sessions').execute();

  // 2026-10-01 10:00 in Chicago. Found by the lookup after 4 s (before the caller's fix at 9 s),
  // with a chat, then handed to Devon (so Devon is its dispatcher).
  const s1 = at('2026-10-01T15:00:00Z');
  sessions.s1 = await insertSession(db, {
    teamId,
    userId: dana,
    createdAt: s1,
    endedAt: at('2026-10-01T15:10:00Z'),
    lookup: { requestedAt: s1, answeredAt: at(s1.toISOString(), 4000), status: 'found' },
    callers: [
      {
        phoneNumber: '+12025550101',
        language: 'es',
        textSentAt: at(s1.toISOString(), 1000),
        linkOpenedAt: at(s1.toISOString(), 5000),
        sharedAt: at(s1.toISOString(), 8000),
        fixes: [[at(s1.toISOString(), 9000), 12]],
      },
    ],
    chat: { openedAt: s1, messages: [{ sender: 'caller' }, { sender: 'dispatcher' }] },
    transferredTo: devon,
  });
  // 04:30Z on 2026-10-02 is 23:30 on 2026-10-01 in Chicago. Two numbers, located by the link
  // after 20 s; a third text is still queued (never sent, so not counted).
  const s2 = at('2026-10-02T04:30:00Z');
  sessions.s2 = await insertSession(db, {
    teamId,
    userId: dana,
    createdAt: s2,
    callers: [
      {
        phoneNumber: '+12025550143',
        textSentAt: s2,
        fixes: [[at(s2.toISOString(), 20_000), 40]],
      },
      { phoneNumber: '+12025550144', textSentAt: s2, textStatus: 'undelivered' },
    ],
  });
  const queuedFor = await db
    .selectFrom('session_callers')
    .select(['id', 'phone_number'])
    .where('session_id', '=', sessions.s2)
    .where('phone_number', '=', '+12025550144')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('sms_messages')
    .values({
      session_id: sessions.s2,
      caller_id: queuedFor.id,
      phone_number: queuedFor.phone_number,
      direction: 'outbound',
      body: 'Reminder',
      status: 'queued',
      language: 'en',
      created_at: at(s2.toISOString(), 60_000),
    })
    .execute();
  // 00:30 on 2026-10-02 in Chicago: the lookup found nothing, the texted caller never answered.
  const s3 = at('2026-10-02T05:30:00Z');
  sessions.s3 = await insertSession(db, {
    teamId,
    userId: devon,
    createdAt: s3,
    lookup: { requestedAt: s3, answeredAt: at(s3.toISOString(), 3000), status: 'not-found' },
    callers: [{ phoneNumber: '+441632960999', textSentAt: s3 }],
  });
  // 2026-10-03 07:00 in Chicago: the lookup timed out, the link located the caller after 60 s.
  const s4 = at('2026-10-03T12:00:00Z');
  sessions.s4 = await insertSession(db, {
    teamId,
    userId: dana,
    createdAt: s4,
    endedAt: at('2026-10-03T12:30:00Z'),
    lookup: { requestedAt: s4, answeredAt: at(s4.toISOString(), 30_000), status: 'timed-out' },
    callers: [
      {
        phoneNumber: '+12025550104',
        textSentAt: s4,
        fixes: [[at(s4.toISOString(), 60_000), 100]],
      },
    ],
  });
  // 2026-10-03 15:00 in Chicago: found by the lookup after 2 s, no text.
  const s5 = at('2026-10-03T20:00:00Z');
  sessions.s5 = await insertSession(db, {
    teamId,
    userId: devon,
    createdAt: s5,
    lookup: { requestedAt: s5, answeredAt: at(s5.toISOString(), 2000), status: 'found' },
    callers: [{ phoneNumber: '+12025550105' }],
  });

  // Just outside 2026-10-01..03 in Chicago: 23:59 on 09-30 and 00:00 on 10-04.
  await insertSession(db, { teamId, userId: dana, createdAt: at('2026-10-01T04:59:00Z') });
  await insertSession(db, {
    teamId,
    userId: dana,
    createdAt: at('2026-10-04T05:00:00Z'),
    callers: [{ fixes: [[at('2026-10-04T05:00:05Z'), 20]] }],
  });
  // 23:30 on 2026-10-31 in Chicago (still CDT): October there, November in UTC.
  await insertSession(db, { teamId, userId: devon, createdAt: at('2026-11-01T04:30:00Z') });
  await insertSession(db, { teamId, userId: devon, createdAt: at('2026-11-02T12:00:00Z') });
  // Before the monthly range's first day.
  await insertSession(db, { teamId, userId: dana, createdAt: at('2026-09-10T12:00:00Z') });
  // Another team's session, in the range.
  await insertSession(db, {
    teamId: neighbourTeamId,
    userId: ids.user('dispatcher@neighbour-county.test'),
    createdAt: at('2026-10-02T15:00:00Z'),
  });

  admin = await signIn(stack.api, 'teamadmin@demo-county.test');
});

afterAll(async () => {
  await stack?.close();
});

const range = { from: '2026-10-01', to: '2026-10-03', ...chicago };
const empty = { from: '2025-01-01', to: '2025-01-07', ...chicago };
const zeroTotals = { sessions: 0, numbers: 0, located: 0, textsSent: 0, transfers: 0, chats: 0 };

describe('get-ct-totals and get-user-total-usage', () => {
  it('counts the team’s sessions of the range in its time zone', async () => {
    const answer = await get(`/api/v1/location/get-ct-totals/${teamId}/2026-10-01/2026-10-03`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      ...range,
      totals: { sessions: 5, numbers: 6, located: 4, textsSent: 5, transfers: 1, chats: 1 },
    });
  });

  it('counts one user’s sessions', async () => {
    const answer = await get(`/api/v1/location/get-user-total-usage/${dana}/2026-10-01/2026-10-03`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      ...range,
      totals: { sessions: 3, numbers: 4, located: 3, textsSent: 4, transfers: 1, chats: 1 },
    });
    const other = await get(`/api/v1/location/get-user-total-usage/${devon}/2026-10-01/2026-10-03`);
    expect(other.body).toEqual({
      ...range,
      totals: { sessions: 2, numbers: 2, located: 1, textsSent: 1, transfers: 0, chats: 0 },
    });
  });

  it('answers zeros for a range without sessions', async () => {
    const team = await get(`/api/v1/location/get-ct-totals/${teamId}/2025-01-01/2025-01-07`);
    expect(team.status).toBe(200);
    expect(team.body).toEqual({ ...empty, totals: zeroTotals });
    const user = await get(`/api/v1/location/get-user-total-usage/${dana}/2025-01-01/2025-01-07`);
    expect(user.status).toBe(200);
    expect(user.body).toEqual({ ...empty, totals: zeroTotals });
  });

  it('cuts one day in Chicago: 23:30 local on 10-01 is 04:30Z on 10-02', async () => {
    const first = await get(`/api/v1/location/get-ct-totals/${teamId}/2026-10-01/2026-10-01`);
    expect(first.body).toEqual({
      from: '2026-10-01',
      to: '2026-10-01',
      ...chicago,
      totals: { sessions: 2, numbers: 3, located: 2, textsSent: 3, transfers: 1, chats: 1 },
    });
  });

  it('counts the caller of a session started at the very first instant of the range', async () => {
    // 05:00Z on 10-04 is 00:00 in Chicago; its caller was written at that same instant.
    const answer = await get(`/api/v1/location/get-ct-totals/${teamId}/2026-10-04/2026-10-04`);
    expect(answer.body).toEqual({
      from: '2026-10-04',
      to: '2026-10-04',
      ...chicago,
      totals: { sessions: 1, numbers: 1, located: 1, textsSent: 0, transfers: 0, chats: 0 },
    });
  });
});

describe('get-usage', () => {
  it('splits located sessions by source and counts lookups and links', async () => {
    const answer = await get(`/api/v1/location/get-usage/${teamId}/2026-10-01/2026-10-03`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      ...range,
      usage: {
        lookupsRequested: 4,
        lookupsAnswered: 3,
        linksSent: 4,
        bySource: [
          { source: 'lookup', located: 2 },
          { source: 'link', located: 2 },
        ],
        notLocated: 1,
      },
    });
  });

  it('answers zeros for a range without sessions', async () => {
    const answer = await get(`/api/v1/location/get-usage/${teamId}/2025-01-01/2025-01-07`);
    expect(answer.body).toEqual({
      ...empty,
      usage: {
        lookupsRequested: 0,
        lookupsAnswered: 0,
        linksSent: 0,
        bySource: [
          { source: 'lookup', located: 0 },
          { source: 'link', located: 0 },
        ],
        notLocated: 0,
      },
    });
  });
});

describe('get-daily-totals and get-user-daily-totals', () => {
  it('lists every day of the range, cut in Chicago', async () => {
    const answer = await get(`/api/v1/location/get-daily-totals/${teamId}/2026-09-30/2026-10-04`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      from: '2026-09-30',
      to: '2026-10-04',
      ...chicago,
      days: [
        { day: '2026-09-30', sessions: 1, located: 0 },
        { day: '2026-10-01', sessions: 2, located: 2 },
        { day: '2026-10-02', sessions: 1, located: 0 },
        { day: '2026-10-03', sessions: 2, located: 2 },
        { day: '2026-10-04', sessions: 1, located: 1 },
      ],
    });
  });

  it('lists one user’s days, zeros included', async () => {
    const answer = await get(
      `/api/v1/location/get-user-daily-totals/${dana}/2026-10-01/2026-10-03`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      ...range,
      days: [
        { day: '2026-10-01', sessions: 2, located: 2 },
        { day: '2026-10-02', sessions: 0, located: 0 },
        { day: '2026-10-03', sessions: 1, located: 1 },
      ],
    });
  });

  it('lists zero days for a range without sessions', async () => {
    const zeros = ['01', '02', '03', '04', '05', '06', '07'].map((d) => ({
      day: `2025-01-${d}`,
      sessions: 0,
      located: 0,
    }));
    const team = await get(`/api/v1/location/get-daily-totals/${teamId}/2025-01-01/2025-01-07`);
    expect(team.body).toEqual({ ...empty, days: zeros });
    const user = await get(`/api/v1/location/get-user-daily-totals/${devon}/2025-01-01/2025-01-07`);
    expect(user.body).toEqual({ ...empty, days: zeros });
  });
});

describe('get-monthly-totals', () => {
  it('lists every month the range touches, cut in Chicago, partial months included', async () => {
    const answer = await get(`/api/v1/location/get-monthly-totals/${teamId}/2026-09-15/2026-12-10`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      from: '2026-09-15',
      to: '2026-12-10',
      ...chicago,
      months: [
        // 2026-09-10 is before the range; 04:59Z on 10-01 is 09-30 in Chicago.
        { month: '2026-09', sessions: 1, located: 0 },
        // s1–s5, 10-04 00:00, and 04:30Z on 11-01 (10-31 in Chicago).
        { month: '2026-10', sessions: 7, located: 5 },
        { month: '2026-11', sessions: 1, located: 0 },
        { month: '2026-12', sessions: 0, located: 0 },
      ],
    });
  });

  it('lists zero months for a range without sessions', async () => {
    const answer = await get(`/api/v1/location/get-monthly-totals/${teamId}/2025-01-01/2025-01-07`);
    expect(answer.body).toEqual({
      ...empty,
      months: [{ month: '2025-01', sessions: 0, located: 0 }],
    });
  });
});

describe('get-user-search-totals', () => {
  it('lists each user who started sessions, most sessions first, with the median time', async () => {
    const answer = await get(
      `/api/v1/location/get-user-search-totals/${teamId}/2026-10-01/2026-10-03`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      ...range,
      users: [
        // 4 s, 20 s, 60 s.
        {
          userId: dana,
          name: 'Dana Dispatcher',
          sessions: 3,
          located: 3,
          timeToLocateP50Ms: 20_000,
        },
        // 2 s; s3 was never located.
        {
          userId: devon,
          name: 'Devon Dispatcher',
          sessions: 2,
          located: 1,
          timeToLocateP50Ms: 2000,
        },
      ],
    });
  });

  it('interpolates the median and gives null when no session was located', async () => {
    // 2026-10-01..04: Dana adds the 5 s session of 10-04 (4, 5, 20, 60 s: median 12.5 s).
    const answer = await get(
      `/api/v1/location/get-user-search-totals/${teamId}/2026-09-30/2026-10-04`,
    );
    expect(answer.body).toEqual({
      from: '2026-09-30',
      to: '2026-10-04',
      ...chicago,
      users: [
        {
          userId: dana,
          name: 'Dana Dispatcher',
          sessions: 5,
          located: 4,
          timeToLocateP50Ms: 12_500,
        },
        {
          userId: devon,
          name: 'Devon Dispatcher',
          sessions: 2,
          located: 1,
          timeToLocateP50Ms: 2000,
        },
      ],
    });
    const october31 = await get(
      `/api/v1/location/get-user-search-totals/${teamId}/2026-10-31/2026-10-31`,
    );
    expect(october31.body).toEqual({
      from: '2026-10-31',
      to: '2026-10-31',
      ...chicago,
      users: [
        {
          userId: devon,
          name: 'Devon Dispatcher',
          sessions: 1,
          located: 0,
          timeToLocateP50Ms: null,
        },
      ],
    });
  });

  it('lists nobody for a range without sessions', async () => {
    const answer = await get(
      `/api/v1/location/get-user-search-totals/${teamId}/2025-01-01/2025-01-07`,
    );
    expect(answer.body).toEqual({ ...empty, users: [] });
  });
});

describe('get-historical-searches', () => {
  it('lists the range’s sessions newest first, numbers masked', async () => {
    const answer = await get(
      `/api/v1/location/get-historical-searches/${teamId}/2026-10-01/2026-10-03`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      ...range,
      truncated: false,
      searches: [
        {
          sessionId: sessions.s5,
          startedAt: '2026-10-03T20:00:00.000Z',
          endedAt: null,
          dispatcherName: 'Devon Dispatcher',
          numbers: ['•••••••0105'],
          located: true,
          source: 'lookup',
          timeToLocateMs: 2000,
        },
        {
          sessionId: sessions.s4,
          startedAt: '2026-10-03T12:00:00.000Z',
          endedAt: '2026-10-03T12:30:00.000Z',
          dispatcherName: 'Dana Dispatcher',
          numbers: ['•••••••0104'],
          located: true,
          source: 'link',
          timeToLocateMs: 60_000,
        },
        {
          sessionId: sessions.s3,
          startedAt: '2026-10-02T05:30:00.000Z',
          endedAt: null,
          dispatcherName: 'Devon Dispatcher',
          numbers: ['••••••••0999'],
          located: false,
          source: null,
          timeToLocateMs: null,
        },
        {
          sessionId: sessions.s2,
          startedAt: '2026-10-02T04:30:00.000Z',
          endedAt: null,
          dispatcherName: 'Dana Dispatcher',
          numbers: ['•••••••0143', '•••••••0144'],
          located: true,
          source: 'link',
          timeToLocateMs: 20_000,
        },
        {
          sessionId: sessions.s1,
          startedAt: '2026-10-01T15:00:00.000Z',
          endedAt: '2026-10-01T15:10:00.000Z',
          // Handed to Devon: the current dispatcher.
          dispatcherName: 'Devon Dispatcher',
          numbers: ['•••••••0101'],
          located: true,
          source: 'lookup',
          timeToLocateMs: 4000,
        },
      ],
    });
  });

  it('lists nothing for a range without sessions', async () => {
    const answer = await get(
      `/api/v1/location/get-historical-searches/${teamId}/2025-01-01/2025-01-07`,
    );
    expect(answer.body).toEqual({ ...empty, searches: [], truncated: false });
  });

  it('answers at most 500 rows, newest first, and says when there were more', async () => {
    const db = stack.database.db;
    // 500 sessions on 2025-06-10 (Chicago), one a minute from 13:00Z, and one on 2025-06-11.
    const first = Date.parse('2025-06-10T13:00:00Z');
    await db
      .insertInto('tracking_sessions')
      .values(
        Array.from({ length: 500 }, (_, index) => ({
          team_id: teamId,
          created_by: dana,
          dispatcher_id: dana,
          created_at: new Date(first + index * 60_000),
        })),
      )
      .execute();
    const exactly = await get(
      `/api/v1/location/get-historical-searches/${teamId}/2025-06-10/2025-06-10`,
    );
    const full = exactly.body as { searches: { startedAt: string }[]; truncated: boolean };
    expect(full.truncated).toBe(false);
    expect(full.searches).toHaveLength(500);
    expect(full.searches[0]!.startedAt).toBe(new Date(first + 499 * 60_000).toISOString());
    expect(full.searches[499]!.startedAt).toBe(new Date(first).toISOString());

    const newest = await insertSession(db, {
      teamId,
      userId: devon,
      createdAt: at('2025-06-11T15:00:00Z'),
    });
    const more = await get(
      `/api/v1/location/get-historical-searches/${teamId}/2025-06-10/2025-06-11`,
    );
    const cut = more.body as {
      searches: { sessionId: string; startedAt: string }[];
      truncated: boolean;
    };
    expect(cut.truncated).toBe(true);
    expect(cut.searches).toHaveLength(500);
    expect(cut.searches[0]!.sessionId).toBe(newest);
    // The oldest session is the one left off.
    expect(cut.searches[499]!.startedAt).toBe(new Date(first + 60_000).toISOString());
  });
});

describe('access and bad input', () => {
  const teamCalls = [
    'get-ct-totals',
    'get-usage',
    'get-daily-totals',
    'get-monthly-totals',
    'get-user-search-totals',
    'get-historical-searches',
  ];
  const userCalls = ['get-user-total-usage', 'get-user-daily-totals'];
  const period = '2026-10-01/2026-10-03';

  it('the basic team’s admin: 403 on their own team, 404 on Demo County', async () => {
    const nadia = await signIn(stack.api, 'teamadmin@neighbour-county.test');
    const ids = await idsOf(stack.database.db);
    const nico = ids.user('dispatcher@neighbour-county.test');
    for (const name of teamCalls) {
      const own = await get(`/api/v1/location/${name}/${neighbourTeamId}/${period}`, nadia);
      expect([name, own.status, own.body]).toEqual([
        name,
        403,
        {
          error: 'forbidden',
          message: 'Metrics are part of the enterprise level. Ask Locus to upgrade your team.',
        },
      ]);
      const other = await get(`/api/v1/location/${name}/${teamId}/${period}`, nadia);
      expect([name, other.status, other.body]).toEqual([
        name,
        404,
        { error: 'not-found', message: 'No such team.' },
      ]);
    }
    for (const name of userCalls) {
      const own = await get(`/api/v1/location/${name}/${nico}/${period}`, nadia);
      expect([name, own.status]).toEqual([name, 403]);
      const other = await get(`/api/v1/location/${name}/${dana}/${period}`, nadia);
      expect([name, other.status, other.body]).toEqual([
        name,
        404,
        { error: 'not-found', message: 'No such user.' },
      ]);
    }
  });

  it('a Demo County dispatcher: 403', async () => {
    const token = await signIn(stack.api, 'dispatcher@demo-county.test');
    for (const name of teamCalls) {
      const answer = await get(`/api/v1/location/${name}/${teamId}/${period}`, token);
      expect([name, answer.status, answer.body]).toEqual([
        name,
        403,
        { error: 'forbidden', message: 'Only team admins can see metrics.' },
      ]);
    }
    for (const name of userCalls) {
      for (const userId of [dana, devon]) {
        const answer = await get(`/api/v1/location/${name}/${userId}/${period}`, token);
        expect([name, answer.status]).toEqual([name, 403]);
      }
    }
  });

  it('the platform admin reads Demo County', async () => {
    const owner = await signIn(stack.api, 'owner@locus.test');
    const totals = await get(`/api/v1/location/get-ct-totals/${teamId}/${period}`, owner);
    expect(totals.status).toBe(200);
    expect(totals.body).toEqual({
      ...range,
      totals: { sessions: 5, numbers: 6, located: 4, textsSent: 5, transfers: 1, chats: 1 },
    });
    const daily = await get(`/api/v1/location/get-user-daily-totals/${devon}/${period}`, owner);
    expect(daily.status).toBe(200);
    expect(daily.body).toEqual({
      ...range,
      days: [
        { day: '2026-10-01', sessions: 0, located: 0 },
        { day: '2026-10-02', sessions: 1, located: 0 },
        { day: '2026-10-03', sessions: 1, located: 1 },
      ],
    });
    for (const name of teamCalls) {
      const answer = await get(`/api/v1/location/${name}/${teamId}/${period}`, owner);
      expect([name, answer.status]).toEqual([name, 200]);
    }
  });

  it('a range over 2 years, an end before the start, a non-date: 400 naming the field', async () => {
    const cases: [string, string, string, { path: string; message: string }[]][] = [
      // 2024-01-01..2025-12-31 is 731 days (2024 is a leap year); one more is too long.
      [
        '2024-01-01',
        '2026-01-01',
        'to',
        [{ path: 'to', message: 'The range must not be longer than 2 years' }],
      ],
      ['2026-10-03', '2026-10-01', 'to', [{ path: 'to', message: 'Must not be before from' }]],
      [
        'yesterday',
        '2026-10-01',
        'from',
        [
          { path: 'from', message: 'Must be an ISO date, YYYY-MM-DD' },
          { path: 'from', message: 'Must be a date that exists' },
        ],
      ],
      [
        '2026-02-30',
        '2026-10-01',
        'from',
        [{ path: 'from', message: 'Must be a date that exists' }],
      ],
    ];
    for (const [from, to, field, issues] of cases) {
      for (const name of teamCalls) {
        const answer = await get(`/api/v1/location/${name}/${teamId}/${from}/${to}`);
        expect([name, field, answer.status, answer.body]).toEqual([
          name,
          field,
          400,
          { error: 'validation-failed', message: 'The path is not valid.', issues },
        ]);
      }
      for (const name of userCalls) {
        const answer = await get(`/api/v1/location/${name}/${dana}/${from}/${to}`);
        expect([name, field, answer.status, answer.body]).toEqual([
          name,
          field,
          400,
          { error: 'validation-failed', message: 'The path is not valid.', issues },
        ]);
      }
    }
    // Exactly two years (731 days) is allowed.
    const longest = await get(`/api/v1/location/get-ct-totals/${teamId}/2024-01-01/2025-12-31`);
    expect(longest.status).toBe(200);
  });
});
