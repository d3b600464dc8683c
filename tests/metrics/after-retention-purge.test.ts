import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeTeamHistory } from '../../services/worker/src/jobs/maintenance/retention-purge';
import { call, signIn, startAuthStack, type AuthStack } from '../auth/support';
import { idsOf, insertSession } from './fixtures';

/**
 * Issue 13: the metrics of a year ago must not change when the retention purge deletes that
 * year's fixes, lookups and texts (90 days after each session ended; the sessions and callers
 * stay). What the metrics read of them is kept on the session and the caller.
 */
let stack: AuthStack;
let admin: string;
let owner: string;
let teamId: string;

const at = (iso: string, plusMs = 0) => new Date(Date.parse(iso) + plusMs);
const days = '2025-03-03/2025-03-04';
const calls = [
  'location/get-ct-totals',
  'location/get-usage',
  'location/get-languages',
  'location/get-link-funnel',
  'location/get-user-search-totals',
  'location/get-chat-totals',
];

beforeAll(async () => {
  stack = await startAuthStack({ worker: false });
  const db = stack.database.db;
  const ids = await idsOf(db);
  teamId = ids.team('Demo County 911');
  const dana = ids.user('dispatcher@demo-county.test');
  await db.deleteFrom('tracking_sessions').execute();
  const s1 = at('2025-03-03T15:00:00Z');
  // Found by the lookup; the caller was texted too, opened the link and shared.
  await insertSession(db, {
    teamId,
    userId: dana,
    createdAt: s1,
    endedAt: at('2025-03-03T15:20:00Z'),
    lookup: { requestedAt: s1, answeredAt: at(s1.toISOString(), 3000), status: 'found' },
    callers: [
      {
        language: 'es',
        textSentAt: at(s1.toISOString(), 1000),
        linkOpenedAt: at(s1.toISOString(), 20_000),
        promptShownAt: at(s1.toISOString(), 21_000),
        sharedAt: at(s1.toISOString(), 25_000),
        fixes: [[at(s1.toISOString(), 26_000), 9]],
      },
    ],
  });
  // The lookup failed; two texts (a resent link), never opened.
  const s2 = at('2025-03-04T18:00:00Z');
  await insertSession(db, {
    teamId,
    userId: dana,
    createdAt: s2,
    endedAt: at('2025-03-04T18:30:00Z'),
    lookup: { requestedAt: s2, status: 'failed' },
    callers: [
      {
        language: 'zh',
        textSentAt: at(s2.toISOString(), 2000),
        textStatus: 'undelivered',
        moreTexts: [{ sentAt: at(s2.toISOString(), 60_000), status: 'delivered' }],
      },
    ],
  });
  // A caller texted back a position, without the page.
  const s3 = at('2025-03-04T19:00:00Z');
  await insertSession(db, {
    teamId,
    userId: dana,
    createdAt: s3,
    endedAt: at('2025-03-04T19:10:00Z'),
    callers: [{ language: 'fr', textSentAt: s3, fixes: [[at(s3.toISOString(), 90_000), 400]] }],
    // A chat, which the purge deletes too (issue 15): its counts are kept on the session.
    chat: {
      openedAt: at(s3.toISOString(), 30_000),
      messages: [
        { sender: 'dispatcher', translated: true },
        { sender: 'caller', translated: true },
        { sender: 'caller' },
      ],
    },
  });
  admin = await signIn(stack.api, 'teamadmin@demo-county.test');
  owner = await signIn(stack.api, 'owner@locus.test');
});

afterAll(async () => {
  await stack?.close();
});

async function answers(): Promise<unknown[]> {
  const team = await Promise.all(
    calls.map(async (name) => {
      const answer = await call(stack.api, 'GET', `/api/v1/${name}/${teamId}/${days}`, {
        token: admin,
      });
      expect(answer.status).toBe(200);
      return answer.body;
    }),
  );
  const platform = await call(stack.api, 'GET', `/api/v1/platform/metrics/${days}`, {
    token: owner,
  });
  expect(platform.status).toBe(200);
  return [...team, platform.body];
}

async function rowsOf(
  table: 'location_fixes' | 'location_lookups' | 'sms_messages' | 'chat_messages',
) {
  const row = await stack.database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('metrics after the retention purge', () => {
  it('answer the same numbers once the fixes, lookups, texts and chat are deleted', async () => {
    const before = await answers();
    const totals = before[0] as { totals: { textsSent: number; located: number } };
    expect(totals.totals).toMatchObject({ sessions: 3, textsSent: 4, located: 2 });
    const usage = before[1] as { usage: Record<string, unknown> };
    expect(usage.usage).toMatchObject({ lookupsRequested: 2, lookupsAnswered: 1, linksSent: 3 });
    const funnel = before[3] as { funnel: { total: Record<string, number> } };
    expect(funnel.funnel.total).toEqual({
      textsSent: 3,
      // The zh caller's first text was undelivered; the link resent to them was delivered.
      delivered: 3,
      linkOpened: 1,
      promptShown: 1,
      shared: 2,
      denied: 0,
      neverAnswered: 0,
    });
    const chat = before[5] as { chat: Record<string, number> };
    expect(chat.chat).toEqual({
      sessionsWithChat: 1,
      messages: 3,
      fromCaller: 2,
      fromDispatcher: 1,
      translated: 2,
    });

    // What retention.purge does with the default policy (tests/worker/retention-purge.test.ts).
    const purged = await purgeTeamHistory(stack.database.db, {
      teamId,
      retentionDays: 90,
      cutoff: new Date(Date.now() - 90 * 86_400_000),
    });
    expect(purged.sessions).toBeGreaterThan(0);
    expect([
      await rowsOf('location_fixes'),
      await rowsOf('location_lookups'),
      await rowsOf('sms_messages'),
      await rowsOf('chat_messages'),
    ]).toEqual([0, 0, 0, 0]);

    expect(await answers()).toEqual(before);
  });
});
