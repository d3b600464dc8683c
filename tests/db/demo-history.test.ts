import {
  demoHistoryDays,
  demoNewDispatchers,
  generateHistory,
  localDate,
  localDay,
  seedDemo,
  type HistoryPlan,
} from '@locus/db';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/database';

let database: TestDatabase;
let seededAt: number;

beforeAll(async () => {
  database = await freshDatabase();
  seededAt = Date.now();
  await seedDemo(database.db, 'development', { history: true });
});

afterAll(async () => {
  await database?.drop();
});

const count = async (query: string): Promise<number> => {
  const { rows } = await sql<{ n: number }>`${sql.raw(`select (${query})::int as n`)}`.execute(
    database.db,
  );
  return rows[0]!.n;
};

describe('the demo history (issue 13)', () => {
  it('is not there unless asked for: the tests seed without it', async () => {
    const plain = await freshDatabase();
    try {
      const report = await seedDemo(plain.db, 'development');
      expect(report.historySessions).toBe(0);
      const { rows } = await sql<{ n: number }>`
        select ((select count(*) from tracking_sessions) + (select count(*) from audit_log))::int as n
      `.execute(plain.db);
      expect(rows[0]!.n).toBe(0);
    } finally {
      await plain.drop();
    }
  });

  it("gives every demo team 90 days that end before today began in the team's zone, every session over", async () => {
    const teams = await database.db
      .selectFrom('tracking_sessions as s')
      .innerJoin('teams as t', 't.id', 's.team_id')
      .select((eb) => [
        't.team_name',
        't.time_zone',
        eb.fn.countAll<string>().as('sessions'),
        eb.fn.min('s.created_at').as('first'),
        eb.fn.max('s.ended_at').as('lastEnd'),
        sql<number>`count(*) filter (where s.status <> 'ended' or s.lifecycle <> 'ended'
          or s.ended_at is null or s.ended_at < s.created_at)::int`.as('notOver'),
      ])
      .groupBy(['t.team_name', 't.time_zone'])
      .orderBy('t.team_name')
      .execute();
    expect(teams.map((team) => team.team_name)).toEqual([
      'Demo County 911',
      'Locus',
      'Neighbouring County',
    ]);
    for (const team of teams) {
      const today = localDate(team.time_zone, seededAt);
      const startOfToday = localDay(team.time_zone, today).start;
      expect(team.notOver, team.team_name).toBe(0);
      expect(team.lastEnd!.getTime(), team.team_name).toBeLessThan(startOfToday);
      // The first day is 90 days back (an hour more when daylight saving time ended between).
      const daysBack = (startOfToday - team.first!.getTime()) / 86_400_000;
      expect(daysBack, team.team_name).toBeLessThanOrEqual(demoHistoryDays + 1 / 24);
      expect(daysBack, team.team_name).toBeGreaterThan(demoHistoryDays - 7);
    }
    const demoCounty = teams.find((team) => team.team_name === 'Demo County 911')!;
    expect(Number(demoCounty.sessions)).toBeGreaterThan(2_000);
    // Sign-ins are history too: the latest of them before today.
    expect(
      await count(`select count(*) from audit_log where at >= now() - interval '1 hour'`),
    ).toBe(0);
    expect(await count(`select count(*) from audit_log where action = 'sign-in'`)).toBeGreaterThan(
      500,
    );
    expect(
      await count(`select count(*) from audit_log where action = 'sign-in.failed'`),
    ).toBeGreaterThan(5);
  });

  it('is by confirmed members of the team, never by the new dispatchers whose tour must still show', async () => {
    expect(
      await count(`
        select count(*) from tracking_sessions s
        where not exists (select 1 from team_members m where m.team_id = s.team_id and m.user_id = s.created_by)
           or not exists (select 1 from team_members m where m.team_id = s.team_id and m.user_id = s.dispatcher_id)`),
    ).toBe(0);
    expect(
      await count(`
        select count(*) from tracking_sessions s join users u on u.id = s.created_by
        where u.email_confirmed_at is null
           or u.email in (${demoNewDispatchers.map((email) => `'${email}'`).join(', ')})
           or s.created_at < u.created_at - interval '1 minute' and u.email not in (
             'owner@locus.test', 'teamadmin@demo-county.test', 'dispatcher@demo-county.test',
             'dispatcher2@demo-county.test', 'teamadmin@neighbour-county.test',
             'dispatcher@neighbour-county.test')`),
    ).toBe(0);
  });

  it('has what every metric reads: both sources, the four languages, each step of the link funnel, chats and transfers', async () => {
    const { rows } = await sql<Record<string, number>>`
      select
        (select count(*) from tracking_sessions where first_fix_source = 'lookup')::int as lookup,
        (select count(*) from tracking_sessions where first_fix_source = 'link')::int as link,
        (select count(*) from tracking_sessions where first_fix_at is null)::int as "notLocated",
        (select count(distinct language) from session_callers)::int as languages,
        (select count(*) from sms_messages where status = 'delivered')::int as delivered,
        (select count(*) from sms_messages where status in ('undelivered', 'failed'))::int as "notDelivered",
        (select count(*) from session_callers c where exists (
          select 1 from sms_messages m where m.caller_id = c.id and m.status = 'delivered')
          and c.link_opened_at is null)::int as "neverOpened",
        (select count(*) from session_callers where denied_at is not null)::int as denied,
        (select count(*) from session_callers where shared_at is not null)::int as shared,
        (select count(*) from session_callers where link_opened_at is not null
          and shared_at is null and denied_at is null)::int as "neverAnswered",
        (select count(*) from tracking_sessions where chat_initiated_at is not null)::int as chats,
        (select count(*) from chat_messages where translation_status = 'translated')::int as translated,
        (select count(*) from case_transfers where status = 'accepted')::int as transfers,
        (select count(*) from location_lookups where status = 'not-found')::int as "lookupNotFound"
    `.execute(database.db);
    for (const [measure, value] of Object.entries(rows[0]!)) {
      expect(value, measure).toBeGreaterThan(measure === 'languages' ? 3 : 10);
    }
    // An automatic lookup answers in seconds; a link takes tens of seconds to minutes.
    const { rows: speed } = await sql<{ source: string; p50: number }>`
      select first_fix_source as source,
        percentile_cont(0.5) within group (order by extract(epoch from first_fix_at - created_at))::float8 as p50
      from tracking_sessions where first_fix_at is not null group by 1 order by 1
    `.execute(database.db);
    expect(speed[0]!.source).toBe('link');
    expect(speed[0]!.p50).toBeGreaterThan(20);
    expect(speed[0]!.p50).toBeLessThan(180);
    expect(speed[1]!.source).toBe('lookup');
    expect(speed[1]!.p50).toBeLessThan(10);
  });

  it("keeps each session's recorded columns true to its rows: first fix, best fix, the funnel's order, the chat's opening", async () => {
    expect(
      await count(`
        select count(*) from tracking_sessions s
        left join lateral (
          select min(received_at) as first_at, min(uncertainty_radius_m) as best,
            (array_agg(uncertainty_radius_m order by received_at, seq))[1] as first_radius,
            (array_agg(source order by received_at, seq))[1] as first_source
          from location_fixes f where f.session_id = s.id
        ) f on true
        where s.first_fix_at is distinct from f.first_at
           or s.best_uncertainty_m is distinct from f.best
           or s.first_fix_uncertainty_m is distinct from f.first_radius
           or s.first_fix_source is distinct from
              case f.first_source when 'RAPID_SOS' then 'lookup' when 'TEXT_MESSAGE' then 'link' end`),
    ).toBe(0);
    expect(
      await count(`
        select count(*) from session_callers
        where (prompt_shown_at is not null and (link_opened_at is null or prompt_shown_at < link_opened_at))
           or ((shared_at is not null or denied_at is not null) and prompt_shown_at is null)
           or (shared_at is not null and denied_at is not null)`),
    ).toBe(0);
    expect(
      await count(`
        select count(*) from location_fixes f join tracking_sessions s on s.id = f.session_id
        where f.received_at < s.created_at or f.received_at > s.ended_at`),
    ).toBe(0);
    expect(
      await count(`
        select count(*) from chat_messages m join tracking_sessions s on s.id = m.session_id
        where s.chat_initiated_at is null or m.sent_at < s.chat_initiated_at or m.sent_at > s.ended_at`),
    ).toBe(0);
    // Fixes and chat messages share each session's sequence.
    expect(
      await count(`
        select count(*) from location_fixes f join chat_messages m
          on m.session_id = f.session_id and m.seq = f.seq`),
    ).toBe(0);
  });

  it('is busier in the daytime and on weekdays, in the team’s zone', async () => {
    const { rows } = await sql<{
      night: number;
      afternoon: number;
      sunday: number;
      wednesday: number;
    }>`
      select
        count(*) filter (where extract(hour from s.created_at at time zone t.time_zone) between 2 and 5)::int as night,
        count(*) filter (where extract(hour from s.created_at at time zone t.time_zone) between 14 and 17)::int as afternoon,
        count(*) filter (where extract(dow from s.created_at at time zone t.time_zone) = 0)::int as sunday,
        count(*) filter (where extract(dow from s.created_at at time zone t.time_zone) = 3)::int as wednesday
      from tracking_sessions s join teams t on t.id = s.team_id
      where t.team_name = 'Demo County 911'
    `.execute(database.db);
    expect(rows[0]!.afternoon).toBeGreaterThan(rows[0]!.night * 3);
    expect(rows[0]!.wednesday).toBeGreaterThan(rows[0]!.sunday * 1.2);
  });

  it('is added once: seeding again adds nothing', async () => {
    const before = await count('select count(*) from tracking_sessions');
    const report = await seedDemo(database.db, 'development', { history: true });
    expect(report.historySessions).toBe(0);
    expect(await count('select count(*) from tracking_sessions')).toBe(before);
  });
});

describe('the history generator', () => {
  const plan: HistoryPlan = {
    seed: 'test',
    team: {
      id: '00000000-0000-4000-8000-000000000001',
      name: 'Test County',
      timeZone: 'America/Chicago',
      members: [
        {
          userId: '00000000-0000-4000-8000-000000000002',
          email: 'a@test.test',
          firstName: 'A',
          lastName: 'One',
          since: null,
          weight: 1,
          shift: 'day',
        },
        {
          userId: '00000000-0000-4000-8000-000000000003',
          email: 'b@test.test',
          firstName: 'B',
          lastName: 'Two',
          since: null,
          weight: 1,
          shift: 'night',
        },
      ],
      centre: [41.5, -88],
      areaCodes: ['815'],
      lookup: true,
      network: '198.51.100',
    },
    firstDay: '2026-10-25',
    // Across the end of daylight saving time (2026-11-01 in Chicago).
    lastDay: '2026-11-07',
    sessions: 300,
    fixesPerCaller: [1, 2],
    notAfter: Date.parse('2026-11-08T06:00:00Z'),
    batchSize: 100,
  };

  it('gives the same rows, ids included, for the same plan, and exactly the sessions asked for', () => {
    const first = [...generateHistory(plan)];
    const second = [...generateHistory(plan)];
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
    expect(first.reduce((sum, batch) => sum + batch.sessions.length, 0)).toBe(300);
    const other = [...generateHistory({ ...plan, seed: 'other' })];
    expect(other[0]!.sessions[0]!.id).not.toBe(first[0]!.sessions[0]!.id);
  });
});
