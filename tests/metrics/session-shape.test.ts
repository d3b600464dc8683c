import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, startAuthStack, type AuthStack } from '../auth/support';
import { idsOf, insertSession } from './fixtures';

/**
 * The shape of a team's cases: how long they lasted, when they came in, in which languages the
 * callers were texted, and the chat. Demo County is in America/Chicago (UTC-5 in October), and
 * the day under test is Thursday 2026-10-01 there: 2026-10-01T05:00Z to 2026-10-02T05:00Z.
 */
let stack: AuthStack;
let token: string;
let teamId: string;
let dispatcher: string;

const at = (iso: string) => new Date(iso);
const plus = (date: Date, ms: number) => new Date(date.getTime() + ms);
const minute = 60_000;
const chicago = { timeZone: 'America/Chicago' };

/** All 168 cells, zeros but for the ones given as `weekday/hour: sessions`. */
function cells(counted: Record<string, number>) {
  return Array.from({ length: 168 }, (_, cell) => {
    const weekday = Math.floor(cell / 24);
    const hour = cell % 24;
    return { weekday, hour, sessions: counted[`${weekday}/${hour}`] ?? 0 };
  });
}

function buckets(sessions: number[]) {
  const bounds: [number, number | null][] = [
    [0, minute],
    [minute, 5 * minute],
    [5 * minute, 15 * minute],
    [15 * minute, 30 * minute],
    [30 * minute, 60 * minute],
    [60 * minute, null],
  ];
  return bounds.map(([fromMs, toMs], index) => ({ fromMs, toMs, sessions: sessions[index] }));
}

const get = async (path: string) => {
  const answer = await call(stack.api, 'GET', path, { token });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
};

beforeAll(async () => {
  stack = await startAuthStack({ worker: false });
  const db = stack.database.db;
  const ids = await idsOf(db);
  teamId = ids.team('Demo County 911');
  const neighbour = ids.team('Neighbouring County');
  dispatcher = ids.user('dispatcher@demo-county.test');
  const dispatcher2 = ids.user('dispatcher2@demo-county.test');
  // Only the rows below count, whatever history the demo seed adds.
  await db.deleteFrom('tracking_sessions').where('team_id', 'in', [teamId, neighbour]).execute();

  // S1, Thursday 09:00 in Chicago: 30 s, texted in English, shared and fixed; a chat.
  const s1 = at('2026-10-01T14:00:00Z');
  await insertSession(db, {
    teamId,
    userId: dispatcher,
    createdAt: s1,
    endedAt: plus(s1, 30_000),
    callers: [
      {
        language: 'en',
        textSentAt: s1,
        sharedAt: plus(s1, 8000),
        fixes: [[plus(s1, 9000), 20]],
      },
    ],
    chat: {
      openedAt: plus(s1, 10_000),
      messages: [
        { sender: 'caller', translated: true },
        { sender: 'dispatcher' },
        { sender: 'dispatcher', translationStatus: 'catalogue' },
      ],
    },
  });
  // S7, Thursday 09:20: 10 min, located by the lookup; the caller texted in Chinese never shared.
  const s7 = at('2026-10-01T14:20:00Z');
  await insertSession(db, {
    teamId,
    userId: dispatcher,
    createdAt: s7,
    endedAt: plus(s7, 10 * minute),
    lookup: { requestedAt: s7, answeredAt: plus(s7, 4000), status: 'found', uncertaintyM: 40 },
    callers: [{ language: 'zh', textSentAt: s7 }],
  });
  // S2 (the other dispatcher), Thursday 10:10: 4 min; three callers: Spanish located by a
  // texted-back fix only, French denied, Chinese never texted. A chat without messages.
  const s2 = at('2026-10-01T15:10:00Z');
  await insertSession(db, {
    teamId,
    userId: dispatcher2,
    createdAt: s2,
    endedAt: plus(s2, 4 * minute),
    callers: [
      { language: 'es', textSentAt: s2, fixes: [[plus(s2, 30_000), 15]] },
      { language: 'fr', textSentAt: s2, deniedAt: plus(s2, 20_000) },
      { language: 'zh' },
    ],
    chat: { openedAt: plus(s2, 60_000), messages: [] },
  });
  // S6, Thursday 11:00, still open: the English text failed, no share.
  await insertSession(db, {
    teamId,
    userId: dispatcher2,
    createdAt: at('2026-10-01T16:00:00Z'),
    callers: [{ language: 'en', textSentAt: at('2026-10-01T16:00:00Z'), textStatus: 'failed' }],
  });
  // S5, Thursday 15:00: 2 h 30; never texted (only an inbound text from the caller).
  const s5 = at('2026-10-01T20:00:00Z');
  const s5Id = await insertSession(db, {
    teamId,
    userId: dispatcher2,
    createdAt: s5,
    endedAt: at('2026-10-01T22:30:00Z'),
    callers: [{ language: 'en' }],
  });
  const s5Caller = await db
    .selectFrom('session_callers')
    .select(['id', 'phone_number'])
    .where('session_id', '=', s5Id)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('sms_messages')
    .values({
      session_id: s5Id,
      caller_id: s5Caller.id,
      phone_number: s5Caller.phone_number,
      direction: 'inbound',
      body: 'where are you',
      status: 'received',
      created_at: plus(s5, minute),
    })
    .execute();
  // S3, 2026-10-02T04:30Z = Thursday 23:30 in Chicago, ended Friday 00:10 there (40 min):
  // started on the 1st, ended on the 2nd. Spanish, shared without a fix; a chat.
  const s3 = at('2026-10-02T04:30:00Z');
  await insertSession(db, {
    teamId,
    userId: dispatcher,
    createdAt: s3,
    endedAt: at('2026-10-02T05:10:00Z'),
    callers: [{ language: 'es', textSentAt: s3, sharedAt: plus(s3, 5000) }],
    chat: {
      openedAt: plus(s3, 60_000),
      messages: [{ sender: 'dispatcher' }, { sender: 'caller' }],
    },
  });
  // S4, 2026-10-01T04:50Z = Wednesday 23:50 in Chicago, ended Thursday 00:20 there (30 min):
  // started on the 30th (not counted on the 1st), ended on the 1st (its duration is).
  const s4 = at('2026-10-01T04:50:00Z');
  await insertSession(db, {
    teamId,
    userId: dispatcher,
    createdAt: s4,
    endedAt: at('2026-10-01T05:20:00Z'),
    callers: [
      { language: 'en', textSentAt: s4, sharedAt: plus(s4, 5000), fixes: [[plus(s4, 6000), 9]] },
    ],
    chat: { openedAt: plus(s4, 1000), messages: [{ sender: 'caller', translated: true }] },
  });
  // Another team's session, by the same dispatcher: never counted for Demo County.
  const other = at('2026-10-01T15:00:00Z');
  await insertSession(db, {
    teamId: neighbour,
    userId: dispatcher,
    createdAt: other,
    endedAt: plus(other, 2 * minute),
    callers: [
      { language: 'fr', textSentAt: other, sharedAt: plus(other, 5000), fixes: [[other, 5]] },
    ],
    chat: { openedAt: other, messages: [{ sender: 'caller', translated: true }] },
  });

  token = await signIn(stack.api, 'teamadmin@demo-county.test');
});

afterAll(async () => {
  await stack?.close();
});

const day1 = { from: '2026-10-01', to: '2026-10-01', ...chicago };
const day2 = { from: '2026-10-02', to: '2026-10-02', ...chicago };
const empty = { from: '2026-06-01', to: '2026-06-30', ...chicago };
const noDurations = {
  ended: 0,
  p50Ms: null,
  p90Ms: null,
  averageMs: null,
  buckets: buckets([0, 0, 0, 0, 0, 0]),
};
const noLanguages = ['en', 'es', 'fr', 'zh'].map((language) => ({
  language,
  callers: 0,
  located: 0,
}));

describe('get-case-durations', () => {
  it('measures the sessions that ended on the day, in the team’s zone', async () => {
    // Ended on the 1st in Chicago: S1 30 s, S2 4 min, S7 10 min, S4 30 min, S5 2 h 30.
    // p90 = 30 min + 0.6 × (150 min − 30 min); S3 ended on the 2nd there.
    expect(
      await get(`/api/v1/location/get-case-durations/${teamId}/2026-10-01/2026-10-01`),
    ).toEqual({
      ...day1,
      durations: {
        ended: 5,
        p50Ms: 600_000,
        p90Ms: 6_120_000,
        averageMs: 2_334_000,
        buckets: buckets([1, 1, 1, 0, 1, 1]),
      },
    });
  });

  it('counts the session that ended after local midnight on the next day', async () => {
    expect(
      await get(`/api/v1/location/get-case-durations/${teamId}/2026-10-02/2026-10-02`),
    ).toEqual({
      ...day2,
      durations: {
        ended: 1,
        p50Ms: 2_400_000,
        p90Ms: 2_400_000,
        averageMs: 2_400_000,
        buckets: buckets([0, 0, 0, 0, 1, 0]),
      },
    });
  });

  it('answers a range without sessions with zeros and nulls', async () => {
    expect(
      await get(`/api/v1/location/get-case-durations/${teamId}/2026-06-01/2026-06-30`),
    ).toEqual({ ...empty, durations: noDurations });
  });
});

describe('get-case-time-interval', () => {
  it('places each session in its local weekday and hour (Thursday = 4), all 168 cells', async () => {
    // S3 at 04:30Z on the 2nd is Thursday 23:30 in Chicago; S4 (Wednesday 23:50) is outside.
    expect(
      await get(`/api/v1/location/get-case-time-interval/${teamId}/2026-10-01/2026-10-01`),
    ).toEqual({ ...day1, cells: cells({ '4/9': 2, '4/10': 1, '4/11': 1, '4/15': 1, '4/23': 1 }) });
  });

  it('has no session on Friday the 2nd, in Chicago', async () => {
    expect(
      await get(`/api/v1/location/get-case-time-interval/${teamId}/2026-10-02/2026-10-02`),
    ).toEqual({ ...day2, cells: cells({}) });
  });

  it('answers a range without sessions with 168 zero cells', async () => {
    expect(
      await get(`/api/v1/location/get-case-time-interval/${teamId}/2026-06-01/2026-06-30`),
    ).toEqual({ ...empty, cells: cells({}) });
  });

  it('counts a wider range once per session', async () => {
    expect(
      await get(`/api/v1/location/get-case-time-interval/${teamId}/2026-09-30/2026-10-02`),
    ).toEqual({
      from: '2026-09-30',
      to: '2026-10-02',
      ...chicago,
      cells: cells({ '3/23': 1, '4/9': 2, '4/10': 1, '4/11': 1, '4/15': 1, '4/23': 1 }),
    });
  });
});

describe('get-languages', () => {
  it('counts the texted callers per language and those who shared or were fixed', async () => {
    // en: S1 (shared) and S6 (failed text, nothing); es: S2 (fix only) and S3 (shared, no fix);
    // fr: S2 (denied); zh: S7 (texted, nothing). S2's Chinese caller and S5 were never texted.
    expect(await get(`/api/v1/location/get-languages/${teamId}/2026-10-01/2026-10-01`)).toEqual({
      ...day1,
      languages: [
        { language: 'en', callers: 2, located: 1 },
        { language: 'es', callers: 2, located: 2 },
        { language: 'fr', callers: 1, located: 0 },
        { language: 'zh', callers: 1, located: 0 },
      ],
    });
  });

  it('leaves out the session that started on the previous local day', async () => {
    expect(await get(`/api/v1/location/get-languages/${teamId}/2026-09-30/2026-09-30`)).toEqual({
      from: '2026-09-30',
      to: '2026-09-30',
      ...chicago,
      languages: [
        { language: 'en', callers: 1, located: 1 },
        { language: 'es', callers: 0, located: 0 },
        { language: 'fr', callers: 0, located: 0 },
        { language: 'zh', callers: 0, located: 0 },
      ],
    });
  });

  it('lists every language with zeros for a range without sessions', async () => {
    expect(await get(`/api/v1/location/get-languages/${teamId}/2026-06-01/2026-06-30`)).toEqual({
      ...empty,
      languages: noLanguages,
    });
  });
});

describe('get-chat-totals', () => {
  it('counts the sessions with a chat and their messages by side', async () => {
    // S1: caller (translated), dispatcher, dispatcher (catalogue); S2: none; S3: one each.
    expect(await get(`/api/v1/location/get-chat-totals/${teamId}/2026-10-01/2026-10-01`)).toEqual({
      ...day1,
      chat: { sessionsWithChat: 3, messages: 5, fromCaller: 2, fromDispatcher: 3, translated: 2 },
    });
  });

  it('counts S4 on Wednesday the 30th, where it started in Chicago', async () => {
    expect(await get(`/api/v1/location/get-chat-totals/${teamId}/2026-09-30/2026-09-30`)).toEqual({
      from: '2026-09-30',
      to: '2026-09-30',
      ...chicago,
      chat: { sessionsWithChat: 1, messages: 1, fromCaller: 1, fromDispatcher: 0, translated: 1 },
    });
  });

  it('answers a range without sessions with zeros', async () => {
    expect(await get(`/api/v1/location/get-chat-totals/${teamId}/2026-06-01/2026-06-30`)).toEqual({
      ...empty,
      chat: { sessionsWithChat: 0, messages: 0, fromCaller: 0, fromDispatcher: 0, translated: 0 },
    });
  });
});

describe('one user: the sessions they started', () => {
  it('get-user-languages', async () => {
    // S1 (en, shared), S3 (es, shared), S7 (zh); not S4 (the 30th) nor the other team's.
    expect(
      await get(`/api/v1/location/get-user-languages/${dispatcher}/2026-10-01/2026-10-01`),
    ).toEqual({
      ...day1,
      languages: [
        { language: 'en', callers: 1, located: 1 },
        { language: 'es', callers: 1, located: 1 },
        { language: 'fr', callers: 0, located: 0 },
        { language: 'zh', callers: 1, located: 0 },
      ],
    });
    expect(
      await get(`/api/v1/location/get-user-languages/${dispatcher}/2026-06-01/2026-06-30`),
    ).toEqual({ ...empty, languages: noLanguages });
  });

  it('get-user-calendar-totals', async () => {
    expect(
      await get(`/api/v1/location/get-user-calendar-totals/${dispatcher}/2026-10-01/2026-10-01`),
    ).toEqual({ ...day1, cells: cells({ '4/9': 2, '4/23': 1 }) });
    expect(
      await get(`/api/v1/location/get-user-calendar-totals/${dispatcher}/2026-06-01/2026-06-30`),
    ).toEqual({ ...empty, cells: cells({}) });
  });

  it('get-user-statistics', async () => {
    // Started on the 1st: S1 (fixed after 9 s), S7 (lookup after 4 s), S3 (shared, no fix).
    // Ended on the 1st: S1 30 s, S7 10 min, S4 30 min.
    expect(
      await get(`/api/v1/location/get-user-statistics/${dispatcher}/2026-10-01/2026-10-01`),
    ).toEqual({
      ...day1,
      statistics: {
        totals: { sessions: 3, numbers: 3, located: 2, textsSent: 3, transfers: 0, chats: 2 },
        timeToLocateP50Ms: 6500,
        timeToLocateP90Ms: 8500,
        averageCaseMs: 810_000,
        busiest: { weekday: 4, hour: 9, sessions: 2 },
      },
    });
    expect(
      await get(`/api/v1/location/get-user-statistics/${dispatcher}/2026-06-01/2026-06-30`),
    ).toEqual({
      ...empty,
      statistics: {
        totals: { sessions: 0, numbers: 0, located: 0, textsSent: 0, transfers: 0, chats: 0 },
        timeToLocateP50Ms: null,
        timeToLocateP90Ms: null,
        averageCaseMs: null,
        busiest: null,
      },
    });
  });
});
