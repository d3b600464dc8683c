import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  linkFunnel,
  timeToLocate,
  uncertaintyTotals,
} from '../../services/api/src/modules/metrics/own-measures-repo';
import { call, signIn, startAuthStack, type AuthStack } from '../auth/support';
import { fixAt } from '../support/sockets';
import {
  callerSocket,
  dispatcherEmail,
  joinSession,
  linkTokenIn,
  outboxSms,
  startStream,
  unknownNumber,
} from '../tracking/support';
import { idsOf, insertSession } from './fixtures';

type TimeToLocate = Awaited<ReturnType<typeof timeToLocate>>;
type LinkFunnel = Awaited<ReturnType<typeof linkFunnel>>;
type UncertaintyTotals = Awaited<ReturnType<typeof uncertaintyTotals>>;

// Issue 13, Locus's own measures: time to locate, the link funnel and accuracy, over known rows.
// The history is in 2025 so that no demo history (relative to today) falls in these ranges.
// Demo County 911 is in America/Chicago: UTC-5 in October 2025 (daylight time).
let stack: AuthStack;
let admin: string;
let teamId: string;
let dispatcher2: string;

const timeZone = 'America/Chicago';
const at = (iso: string, plusMs = 0) => new Date(Date.parse(iso) + plusMs);

beforeAll(async () => {
  // The worker sends the end-to-end check's text (to the outbox); the fixtures need none.
  stack = await startAuthStack();
  admin = await signIn(stack.api, 'teamadmin@demo-county.test');
  const db = stack.database.db;
  const ids = await idsOf(db);
  teamId = ids.team('Demo County 911');
  const d1 = ids.user(dispatcherEmail);
  dispatcher2 = ids.user('dispatcher2@demo-county.test');
  const d2 = dispatcher2;
  const lookup = (createdAt: string, afterMs: number, uncertaintyM: number) => ({
    requestedAt: at(createdAt),
    answeredAt: at(createdAt, afterMs),
    status: 'found',
    uncertaintyM,
  });
  const sessions: Parameters<typeof insertSession>[1][] = [
    // Sep 30, 23:59 in Chicago: the day before the range.
    {
      teamId,
      userId: d1,
      createdAt: at('2025-10-01T04:59:00Z'),
      lookup: lookup('2025-10-01T04:59:00Z', 2000, 5),
    },
    // S1, Oct 1: the lookup, 4 s, 25 m.
    {
      teamId,
      userId: d1,
      createdAt: at('2025-10-01T15:00:00Z'),
      lookup: lookup('2025-10-01T15:00:00Z', 4000, 25),
    },
    // S2, Oct 1: the lookup first (6 s, 80 m), then the caller's link sharper (12 m).
    {
      teamId,
      userId: d1,
      createdAt: at('2025-10-01T16:00:00Z'),
      endedAt: at('2025-10-01T16:10:00Z'),
      lookup: lookup('2025-10-01T16:00:00Z', 6000, 80),
      callers: [
        {
          language: 'es',
          textSentAt: at('2025-10-01T16:00:00Z', 1000),
          linkOpenedAt: at('2025-10-01T16:00:00Z', 10_000),
          promptShownAt: at('2025-10-01T16:00:00Z', 11_000),
          sharedAt: at('2025-10-01T16:00:00Z', 12_000),
          fixes: [[at('2025-10-01T16:00:00Z', 20_000), 12]],
        },
      ],
    },
    // S3: 04:30Z on Oct 2 is 23:30 on Oct 1 in Chicago. The link, 45 s, 8 m.
    {
      teamId,
      userId: d2,
      createdAt: at('2025-10-02T04:30:00Z'),
      callers: [
        {
          language: 'en',
          textSentAt: at('2025-10-02T04:30:00Z', 500),
          linkOpenedAt: at('2025-10-02T04:30:00Z', 5000),
          promptShownAt: at('2025-10-02T04:30:00Z', 6000),
          sharedAt: at('2025-10-02T04:30:00Z', 7000),
          fixes: [[at('2025-10-02T04:30:00Z', 45_000), 8]],
        },
      ],
    },
    // S4, Oct 2: the link, 30 s; no sharing frame, its fixes count as sharing.
    {
      teamId,
      userId: d1,
      createdAt: at('2025-10-02T14:00:00Z'),
      callers: [
        {
          language: 'zh',
          textSentAt: at('2025-10-02T14:00:00Z', 1000),
          linkOpenedAt: at('2025-10-02T14:00:00Z', 8000),
          promptShownAt: at('2025-10-02T14:00:00Z', 9000),
          fixes: [
            [at('2025-10-02T14:00:00Z', 30_000), 600],
            [at('2025-10-02T14:00:00Z', 40_000), 150],
          ],
        },
      ],
    },
    // S5, Oct 2: a denial.
    {
      teamId,
      userId: d1,
      createdAt: at('2025-10-02T15:00:00Z'),
      callers: [
        {
          language: 'es',
          textSentAt: at('2025-10-02T15:00:00Z', 1000),
          linkOpenedAt: at('2025-10-02T15:00:00Z', 9000),
          promptShownAt: at('2025-10-02T15:00:00Z', 10_000),
          deniedAt: at('2025-10-02T15:00:00Z', 20_000),
        },
      ],
    },
    // S6, Oct 2: opened the link, never answered (the prompt never even showed).
    {
      teamId,
      userId: d2,
      createdAt: at('2025-10-02T16:00:00Z'),
      callers: [
        {
          language: 'en',
          textSentAt: at('2025-10-02T16:00:00Z', 1000),
          linkOpenedAt: at('2025-10-02T16:00:00Z', 60_000),
        },
      ],
    },
    // S7, Oct 2: the text failed; the lookup found nothing.
    {
      teamId,
      userId: d1,
      createdAt: at('2025-10-02T17:00:00Z'),
      lookup: {
        requestedAt: at('2025-10-02T17:00:00Z'),
        answeredAt: at('2025-10-02T17:00:00Z', 3000),
        status: 'not-found',
      },
      callers: [
        { language: 'fr', textSentAt: at('2025-10-02T17:00:00Z', 1000), textStatus: 'failed' },
      ],
    },
    // S8: 05:30Z on Oct 3 is 00:30 on Oct 3 in Chicago, after the range.
    {
      teamId,
      userId: d1,
      createdAt: at('2025-10-03T05:30:00Z'),
      lookup: lookup('2025-10-03T05:30:00Z', 1000, 3),
      callers: [{ language: 'en', textSentAt: at('2025-10-03T05:30:00Z', 100) }],
    },
    // S9: started Sep 30, ended Oct 1; its text went out on Oct 1 (counted then), never opened.
    {
      teamId,
      userId: d1,
      createdAt: at('2025-09-30T20:00:00Z'),
      endedAt: at('2025-10-01T16:00:00Z'),
      callers: [{ language: 'en', textSentAt: at('2025-10-01T14:00:00Z') }],
    },
    // S10: started Sep 29 and never ended; texted on Oct 2 (the provider reported no delivery),
    // shared without a fix arriving.
    {
      teamId,
      userId: d2,
      createdAt: at('2025-09-29T12:00:00Z'),
      callers: [
        {
          language: 'fr',
          textSentAt: at('2025-10-02T12:00:00Z'),
          textStatus: 'sent',
          linkOpenedAt: at('2025-10-02T12:10:00Z'),
          promptShownAt: at('2025-10-02T12:10:05Z'),
          sharedAt: at('2025-10-02T12:11:00Z'),
        },
      ],
    },
    // S11, Oct 2: the first text failed, the resent one was delivered. The link, 190 s, 10 m.
    {
      teamId,
      userId: d1,
      createdAt: at('2025-10-02T18:00:00Z'),
      callers: [
        {
          language: 'en',
          textSentAt: at('2025-10-02T18:00:00Z', 1000),
          textStatus: 'failed',
          moreTexts: [{ sentAt: at('2025-10-02T18:00:00Z', 120_000), status: 'delivered' }],
          linkOpenedAt: at('2025-10-02T18:00:00Z', 180_000),
          promptShownAt: at('2025-10-02T18:00:00Z', 181_000),
          sharedAt: at('2025-10-02T18:00:00Z', 182_000),
          fixes: [[at('2025-10-02T18:00:00Z', 190_000), 10]],
        },
      ],
    },
    // S12: first texted on Sep 30, resent on Oct 1: counted on Sep 30, so not in the range.
    {
      teamId,
      userId: d1,
      createdAt: at('2025-09-30T22:00:00Z'),
      endedAt: at('2025-10-01T16:00:00Z'),
      callers: [
        {
          language: 'es',
          textSentAt: at('2025-09-30T22:00:10Z'),
          textStatus: 'failed',
          moreTexts: [{ sentAt: at('2025-10-01T15:00:00Z'), status: 'delivered' }],
          linkOpenedAt: at('2025-10-01T15:01:00Z'),
        },
      ],
    },
    // S13, S14, Oct 2: lookups of 2,501 and 2,500 ms (a median of 2,500.5 rounds to 2,501).
    {
      teamId,
      userId: d2,
      createdAt: at('2025-10-02T19:00:00Z'),
      lookup: lookup('2025-10-02T19:00:00Z', 2501, 40.25),
    },
    {
      teamId,
      userId: d2,
      createdAt: at('2025-10-02T20:00:00Z'),
      lookup: lookup('2025-10-02T20:00:00Z', 2500, 1000),
    },
    // S15, Oct 2: shared, then denied: counted as shared only. No fix arrived.
    {
      teamId,
      userId: d1,
      createdAt: at('2025-10-02T21:00:00Z'),
      callers: [
        {
          language: 'zh',
          textSentAt: at('2025-10-02T21:00:00Z', 1000),
          linkOpenedAt: at('2025-10-02T21:00:00Z', 5000),
          promptShownAt: at('2025-10-02T21:00:00Z', 6000),
          sharedAt: at('2025-10-02T21:00:00Z', 7000),
          deniedAt: at('2025-10-02T21:00:00Z', 60_000),
        },
      ],
    },
    // Another team's session in the range counts nowhere here.
    {
      teamId: ids.team('Neighbouring County'),
      userId: ids.user('dispatcher@neighbour-county.test'),
      createdAt: at('2025-10-01T15:00:00Z'),
      lookup: lookup('2025-10-01T15:00:00Z', 100, 5),
      callers: [
        {
          language: 'en',
          textSentAt: at('2025-10-01T15:00:01Z'),
          linkOpenedAt: at('2025-10-01T15:00:05Z'),
          sharedAt: at('2025-10-01T15:00:06Z'),
          fixes: [[at('2025-10-01T15:00:10Z'), 4]],
        },
      ],
    },
  ];
  for (const session of sessions) await insertSession(db, session);
});

afterAll(async () => {
  await stack?.close();
});

async function get<T>(path: string): Promise<T> {
  const answer = await call<T>(stack.api, 'GET', path, { token: admin });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

const range = { from: '2025-10-01', to: '2025-10-02', timeZone };
const empty = { from: '2025-06-01', to: '2025-06-02', timeZone };
const none = { located: 0, p50Ms: null, p90Ms: null };
const noSteps = {
  textsSent: 0,
  delivered: 0,
  linkOpened: 0,
  promptShown: 0,
  shared: 0,
  denied: 0,
  neverAnswered: 0,
};
const steps = (...counts: [number, number, number, number, number, number, number]) => ({
  textsSent: counts[0],
  delivered: counts[1],
  linkOpened: counts[2],
  promptShown: counts[3],
  shared: counts[4],
  denied: counts[5],
  neverAnswered: counts[6],
});
const radii = (...sessions: number[]) =>
  [0, 10, 25, 50, 100, 250, 500, 1000].map((fromM, index, bounds) => ({
    fromM,
    toM: bounds[index + 1] ?? null,
    sessions: sessions[index]!,
  }));

describe('get-time-to-locate', () => {
  it('gives p50 and p90 per source and per day, days cut in Chicago', async () => {
    expect(
      await get(`/api/v1/location/get-time-to-locate/${teamId}/2025-10-01/2025-10-02`),
    ).toEqual({
      ...range,
      timeToLocate: {
        // 2500, 2501, 4000, 6000 (lookup); 30000, 45000, 190000 (link).
        combined: { located: 7, p50Ms: 6000, p90Ms: 103_000 },
        overall: [
          // p50 3250.5 rounds half up, to 3251.
          { source: 'lookup', located: 4, p50Ms: 3251, p90Ms: 5400 },
          { source: 'link', located: 3, p50Ms: 45_000, p90Ms: 161_000 },
        ],
        byDay: [
          { day: '2025-10-01', source: 'lookup', located: 2, p50Ms: 5000, p90Ms: 5800 },
          // The session started at 04:30Z on Oct 2, 23:30 on Oct 1 in Chicago.
          { day: '2025-10-01', source: 'link', located: 1, p50Ms: 45_000, p90Ms: 45_000 },
          { day: '2025-10-02', source: 'lookup', located: 2, p50Ms: 2501, p90Ms: 2501 },
          { day: '2025-10-02', source: 'link', located: 2, p50Ms: 110_000, p90Ms: 174_000 },
        ],
      },
    });
  });

  it('answers zeros and nulls for a range without sessions', async () => {
    expect(
      await get(`/api/v1/location/get-time-to-locate/${teamId}/2025-06-01/2025-06-02`),
    ).toEqual({
      ...empty,
      timeToLocate: {
        combined: none,
        overall: [
          { source: 'lookup', ...none },
          { source: 'link', ...none },
        ],
        byDay: [
          { day: '2025-06-01', source: 'lookup', ...none },
          { day: '2025-06-01', source: 'link', ...none },
          { day: '2025-06-02', source: 'lookup', ...none },
          { day: '2025-06-02', source: 'link', ...none },
        ],
      },
    });
  });

  it("counts only one user's sessions for the user's figures", async () => {
    const scope = { ...range, teamId, userId: dispatcher2 };
    const expected: TimeToLocate = {
      // 2500, 2501 (lookup); 45000 (link).
      combined: { located: 3, p50Ms: 2501, p90Ms: 36_500 },
      overall: [
        { source: 'lookup', located: 2, p50Ms: 2501, p90Ms: 2501 },
        { source: 'link', located: 1, p50Ms: 45_000, p90Ms: 45_000 },
      ],
      byDay: [
        { day: '2025-10-01', source: 'lookup', ...none },
        { day: '2025-10-01', source: 'link', located: 1, p50Ms: 45_000, p90Ms: 45_000 },
        { day: '2025-10-02', source: 'lookup', located: 2, p50Ms: 2501, p90Ms: 2501 },
        { day: '2025-10-02', source: 'link', ...none },
      ],
    };
    expect(await timeToLocate(stack.database.db, scope)).toEqual(expected);
  });
});

describe('get-link-funnel', () => {
  it('follows each texted caller from the first text, per day it was sent and per language', async () => {
    expect(await get(`/api/v1/location/get-link-funnel/${teamId}/2025-10-01/2025-10-02`)).toEqual({
      ...range,
      funnel: {
        // Oct 1: S2, S3 (23:30 in Chicago), S9; Oct 2: S4, S5, S6, S7, S10, S11, S15.
        total: steps(10, 8, 8, 7, 6, 1, 1),
        byDay: [
          { day: '2025-10-01', ...steps(3, 3, 2, 2, 2, 0, 0) },
          { day: '2025-10-02', ...steps(7, 5, 6, 5, 4, 1, 1) },
        ],
        byLanguage: [
          { language: 'en', ...steps(4, 4, 3, 2, 2, 0, 1) },
          { language: 'es', ...steps(2, 2, 2, 2, 1, 1, 0) },
          { language: 'fr', ...steps(2, 0, 1, 1, 1, 0, 0) },
          { language: 'zh', ...steps(2, 2, 2, 2, 2, 0, 0) },
        ],
      },
    });
  });

  it('answers zeros for every day and language of a range without texts', async () => {
    expect(await get(`/api/v1/location/get-link-funnel/${teamId}/2025-06-01/2025-06-02`)).toEqual({
      ...empty,
      funnel: {
        total: noSteps,
        byDay: [
          { day: '2025-06-01', ...noSteps },
          { day: '2025-06-02', ...noSteps },
        ],
        byLanguage: ['en', 'es', 'fr', 'zh'].map((language) => ({ language, ...noSteps })),
      },
    });
  });

  it("counts only one user's callers for the user's figures", async () => {
    const scope = { ...range, teamId, userId: dispatcher2 };
    const expected: LinkFunnel = {
      // S3 (Oct 1), S6 and S10 (started Sep 29, texted Oct 2).
      total: steps(3, 2, 3, 2, 2, 0, 1),
      byDay: [
        { day: '2025-10-01', ...steps(1, 1, 1, 1, 1, 0, 0) },
        { day: '2025-10-02', ...steps(2, 1, 2, 1, 1, 0, 1) },
      ],
      byLanguage: [
        { language: 'en', ...steps(2, 2, 2, 1, 1, 0, 1) },
        { language: 'es', ...noSteps },
        { language: 'fr', ...steps(1, 0, 1, 1, 1, 0, 0) },
        { language: 'zh', ...noSteps },
      ],
    };
    expect(await linkFunnel(stack.database.db, scope)).toEqual(expected);
  });
});

describe('target-location/get-uncertainty-radius-totals', () => {
  it('buckets the first and the best fix of each located session, with medians', async () => {
    expect(
      await get(
        `/api/v1/target-location/get-uncertainty-radius-totals/${teamId}/2025-10-01/2025-10-02`,
      ),
    ).toEqual({
      ...range,
      accuracy: {
        // First: 8, 10, 25, 40.25, 80, 600, 1000. Best: 8, 10, 12, 25, 40.25, 150, 1000.
        firstFix: radii(1, 1, 2, 1, 0, 0, 1, 1),
        bestFix: radii(1, 2, 2, 0, 1, 0, 0, 1),
        firstFixP50M: 40.3,
        bestFixP50M: 25,
      },
    });
  });

  it('answers empty buckets and no medians for a range without sessions', async () => {
    expect(
      await get(
        `/api/v1/target-location/get-uncertainty-radius-totals/${teamId}/2025-06-01/2025-06-02`,
      ),
    ).toEqual({
      ...empty,
      accuracy: {
        firstFix: radii(0, 0, 0, 0, 0, 0, 0, 0),
        bestFix: radii(0, 0, 0, 0, 0, 0, 0, 0),
        firstFixP50M: null,
        bestFixP50M: null,
      },
    });
  });

  it("counts only one user's sessions for the user's figures", async () => {
    const scope = { ...range, teamId, userId: dispatcher2 };
    const expected: UncertaintyTotals = {
      // S3 (8 m), S13 (40.25 m), S14 (1,000 m).
      firstFix: radii(1, 0, 1, 0, 0, 0, 0, 1),
      bestFix: radii(1, 0, 1, 0, 0, 0, 0, 1),
      firstFixP50M: 40.3,
      bestFixP50M: 40.3,
    };
    expect(await uncertaintyTotals(stack.database.db, scope)).toEqual(expected);
  });
});

describe('what the caller did, as recorded live', () => {
  it('counts a real locate: the link text, its page opened, the prompt shown, the fix', async () => {
    const dispatcher = await signIn(stack.api, dispatcherEmail);
    // Yesterday to tomorrow in Chicago, so that the check holds across midnight there.
    const dayIn = (ms: number) =>
      new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(Date.now() + ms));
    const days = `${teamId}/${dayIn(-86_400_000)}/${dayIn(86_400_000)}`;
    type Located = { timeToLocate: TimeToLocate };
    type Funnel = { funnel: LinkFunnel };
    const located = () => get<Located>(`/api/v1/location/get-time-to-locate/${days}`);
    const funnel = () => get<Funnel>(`/api/v1/location/get-link-funnel/${days}`);
    const [locatedBefore, funnelBefore] = await Promise.all([located(), funnel()]);

    const request = await startStream(stack.api, dispatcher, unknownNumber);
    const socket = await joinSession(stack.api, request);
    const sms = await call(stack.api, 'POST', '/api/v1/location/request-text-message-location', {
      token: dispatcher,
      body: { connectionRequestUuid: request.uuid, language: 'es' },
    });
    expect(sms.status).toBe(200);
    await socket.next((frame) => frame.event === 'sms-status' && frame.data.status === 'sent');
    const [text] = await outboxSms(stack.api, unknownNumber);
    const caller = await callerSocket(stack.api, linkTokenIn(text!.body));
    caller.send('prompt-shown', {});
    caller.send('sharing', { sharing: true });
    const capturedAt = Date.now() - 1000;
    caller.send('fix', fixAt(capturedAt, 0));
    const ack = await caller.next(
      (frame) => frame.event === 'ack' && frame.data.capturedAt === capturedAt,
    );
    expect(ack.data.outcome).toBe('stored');
    await stack.api.app.locus.writer.flush();

    const [locatedAfter, funnelAfter] = await Promise.all([located(), funnel()]);
    const session = await stack.database.db
      .selectFrom('tracking_sessions')
      .select(['created_at', 'first_fix_at', 'first_fix_source'])
      .where('id', '=', request.uuid)
      .executeTakeFirstOrThrow();
    expect(session.first_fix_source).toBe('link');
    expect(session.first_fix_at!.getTime()).toBeGreaterThan(session.created_at.getTime());

    // One more located by the link, nothing more by the lookup.
    const sourceCount = (answer: Located, source: string) =>
      answer.timeToLocate.overall.find((row) => row.source === source)!.located;
    expect(locatedAfter.timeToLocate.combined.located).toBe(
      locatedBefore.timeToLocate.combined.located + 1,
    );
    expect(sourceCount(locatedAfter, 'link')).toBe(sourceCount(locatedBefore, 'link') + 1);
    expect(sourceCount(locatedAfter, 'lookup')).toBe(sourceCount(locatedBefore, 'lookup'));
    // With no other link-located session in the range (no demo history there), its time is
    // both percentiles, to the millisecond (the database keeps microseconds, Date does not).
    if (sourceCount(locatedBefore, 'link') === 0) {
      const ms = session.first_fix_at!.getTime() - session.created_at.getTime();
      const link = locatedAfter.timeToLocate.overall.find((row) => row.source === 'link')!;
      expect(Math.abs(link.p50Ms! - ms)).toBeLessThanOrEqual(1);
      expect(link.p90Ms).toBe(link.p50Ms);
    }

    // One more caller texted in Spanish who opened the link, saw the prompt and shared. The
    // outbox reports a text sent, never delivered.
    const added = steps(1, 0, 1, 1, 1, 0, 0);
    const plus = (before: typeof added) =>
      Object.fromEntries(
        Object.entries(before).map(([key, value]) => [
          key,
          value + added[key as keyof typeof added],
        ]),
      );
    const stepsOf = ({
      textsSent,
      delivered,
      linkOpened,
      promptShown,
      shared,
      denied,
      neverAnswered,
    }: typeof added) => ({
      textsSent,
      delivered,
      linkOpened,
      promptShown,
      shared,
      denied,
      neverAnswered,
    });
    expect(funnelAfter.funnel.total).toEqual(plus(funnelBefore.funnel.total));
    const spanish = (answer: Funnel) =>
      stepsOf(answer.funnel.byLanguage.find((row) => row.language === 'es')!);
    expect(spanish(funnelAfter)).toEqual(plus(spanish(funnelBefore)));

    await caller.close();
    await socket.close();
  });
});
