import {
  LocateSource,
  metricsLimits,
  type CaseTotals,
  type DailyTotal,
  type HistoricalSearch,
  type MonthlyTotal,
  type Usage,
  type UserSearchTotal,
} from '@locus/contract';
import type { DB, Database } from '@locus/db';
import { sql, type Expression, type QueryCreator } from 'kysely';
import type { z } from 'zod';
import { daysOf, inPeriod, monthsOf, periodStart } from './period';
import type { MetricsScope } from './scope';

/**
 * The scope's sessions. The team and the user come first so that the indexes of
 * `2026-11-28T17-01_metrics-sessions` (team, [creator,] created_at) serve every query here.
 *
 * The rows that hang off a session (callers, texts, lookups, transfers) are found from it, with
 * one more bound: each is written after its session started (its time is the now() of a later
 * transaction than the session's), so rows written before the range began cannot belong to it.
 * That bound lets an index on the row's own time skip the older history; without it, counting a
 * recent month would read every caller and text ever written.
 */
function scopedSessions(qb: QueryCreator<DB>, scope: MetricsScope) {
  let query = qb
    .selectFrom('tracking_sessions as s')
    .where('s.team_id', '=', scope.teamId)
    .where(inPeriod('s.created_at', scope));
  if (scope.userId !== undefined) query = query.where('s.created_by', '=', scope.userId);
  return query;
}

// Postgres counts in bigint, which pg hands over as a string.
const int = (value: Expression<unknown>) => sql<number>`(${value})::int`;

/** `end - start` in whole milliseconds (double precision, which pg hands over as a number). */
const millisBetween = (start: string, end: string) =>
  sql<number>`round(extract(epoch from ${sql.ref(end)} - ${sql.ref(start)}) * 1000)::float8`;

/**
 * Texts and lookups are read from the counts the session keeps (migration metrics-counters): the
 * retention purge deletes the rows themselves after 90 days. A text counts once handed to the
 * provider: one refused before that never reached the caller.
 */
export async function caseTotals(db: Database, scope: MetricsScope): Promise<CaseTotals> {
  const row = await db
    .with('scoped', (qb) =>
      scopedSessions(qb, scope).select([
        's.id',
        's.first_fix_at',
        's.chat_initiated_at',
        's.texts_sent',
      ]),
    )
    .selectFrom('scoped')
    .select((eb) => [
      int(eb.fn.countAll()).as('sessions'),
      int(eb.fn.countAll().filterWhere('scoped.first_fix_at', 'is not', null)).as('located'),
      int(eb.fn.countAll().filterWhere('scoped.chat_initiated_at', 'is not', null)).as('chats'),
      int(sql`coalesce(sum(scoped.texts_sent), 0)`).as('textsSent'),
      eb
        .selectFrom('session_callers as c')
        .where('c.created_at', '>=', periodStart(scope))
        .where('c.session_id', 'in', eb.selectFrom('scoped').select('scoped.id'))
        .select((sub) => int(sub.fn.countAll()).as('n'))
        .as('numbers'),
      eb
        .selectFrom('scoped as t')
        .where(
          't.id',
          'in',
          eb
            .selectFrom('case_transfers as ct')
            .where('ct.team_id', '=', scope.teamId)
            .where('ct.status', '=', 'accepted')
            .where('ct.offered_at', '>=', periodStart(scope))
            .select('ct.session_id'),
        )
        .select((sub) => int(sub.fn.countAll()).as('n'))
        .as('transfers'),
    ])
    .executeTakeFirstOrThrow();
  return {
    sessions: row.sessions,
    numbers: row.numbers ?? 0,
    located: row.located,
    textsSent: row.textsSent,
    transfers: row.transfers ?? 0,
    chats: row.chats,
  };
}

export async function usage(db: Database, scope: MetricsScope): Promise<z.infer<typeof Usage>> {
  const row = await db
    .with('scoped', (qb) =>
      scopedSessions(qb, scope).select([
        's.first_fix_at',
        's.first_fix_source',
        's.lookup_requested_at',
        's.lookup_answered_at',
        's.texts_sent',
      ]),
    )
    .selectFrom('scoped')
    .select((eb) => [
      int(eb.fn.countAll().filterWhere('scoped.first_fix_source', '=', 'lookup')).as('lookup'),
      int(eb.fn.countAll().filterWhere('scoped.first_fix_source', '=', 'link')).as('link'),
      int(eb.fn.countAll().filterWhere('scoped.first_fix_at', 'is', null)).as('notLocated'),
      int(eb.fn.countAll().filterWhere('scoped.lookup_requested_at', 'is not', null)).as(
        'lookupsRequested',
      ),
      // The provider answered, with a position or without one; a failure or a timeout is no
      // answer.
      int(eb.fn.countAll().filterWhere('scoped.lookup_answered_at', 'is not', null)).as(
        'lookupsAnswered',
      ),
      int(eb.fn.countAll().filterWhere('scoped.texts_sent', '>', 0)).as('linksSent'),
    ])
    .executeTakeFirstOrThrow();
  return {
    lookupsRequested: row.lookupsRequested,
    lookupsAnswered: row.lookupsAnswered,
    linksSent: row.linksSent,
    bySource: LocateSource.options.map((source) => ({ source, located: row[source] })),
    notLocated: row.notLocated,
  };
}

/**
 * Sessions and located sessions per local day or month, keyed `YYYY-MM-DD` or `YYYY-MM`. Grouped
 * by the local date and formatted once per group: to_char on every row costs more than the scan
 * itself over two years.
 */
async function sessionsPer(db: Database, scope: MetricsScope, unit: 'day' | 'month') {
  const local = sql`(s.created_at at time zone ${scope.timeZone})`;
  const rows = await db
    .selectFrom(
      scopedSessions(db, scope)
        .select([
          (unit === 'day' ? sql`${local}::date` : sql`date_trunc('month', ${local})`).as('local'),
          's.first_fix_at',
        ])
        .as('x'),
    )
    .select((eb) => [
      sql<string>`to_char(x.local, ${unit === 'day' ? 'YYYY-MM-DD' : 'YYYY-MM'})`.as('key'),
      int(eb.fn.countAll()).as('sessions'),
      int(eb.fn.count('x.first_fix_at')).as('located'),
    ])
    .groupBy('x.local')
    .execute();
  return new Map(rows.map((row) => [row.key, row]));
}

export async function dailyTotals(
  db: Database,
  scope: MetricsScope,
): Promise<z.infer<typeof DailyTotal>[]> {
  const byDay = await sessionsPer(db, scope, 'day');
  return daysOf(scope).map((day) => ({
    day,
    sessions: byDay.get(day)?.sessions ?? 0,
    located: byDay.get(day)?.located ?? 0,
  }));
}

export async function monthlyTotals(
  db: Database,
  scope: MetricsScope,
): Promise<z.infer<typeof MonthlyTotal>[]> {
  const byMonth = await sessionsPer(db, scope, 'month');
  return monthsOf(scope).map((month) => ({
    month,
    sessions: byMonth.get(month)?.sessions ?? 0,
    located: byMonth.get(month)?.located ?? 0,
  }));
}

// Sessions never located give a null time, which percentile_cont leaves out.
const medianTimeToLocate = sql<number | null>`round(percentile_cont(0.5) within group (
  order by extract(epoch from s.first_fix_at - s.created_at) * 1000
))`;

export async function userSearchTotals(
  db: Database,
  scope: MetricsScope,
): Promise<z.infer<typeof UserSearchTotal>[]> {
  return scopedSessions(db, scope)
    .innerJoin('users as u', 'u.id', 's.created_by')
    .select((eb) => [
      'u.id as userId',
      sql<string>`u.first_name || ' ' || u.last_name`.as('name'),
      int(eb.fn.countAll()).as('sessions'),
      int(eb.fn.countAll().filterWhere('s.first_fix_at', 'is not', null)).as('located'),
      medianTimeToLocate.as('timeToLocateP50Ms'),
    ])
    .groupBy('u.id')
    .orderBy('sessions', 'desc')
    .orderBy('name')
    .orderBy('userId')
    .execute();
}

/** `+12025550143` → `•••••••0143`: one dot per hidden digit, the last four shown. */
const maskedNumber = sql<string>`repeat('•', greatest(length(regexp_replace(c.phone_number, '[^0-9]', '', 'g')) - 4, 0)) || right(c.phone_number, 4)`;

export async function historicalSearches(
  db: Database,
  scope: MetricsScope,
): Promise<{ searches: z.infer<typeof HistoricalSearch>[]; truncated: boolean }> {
  const rows = await scopedSessions(db, scope)
    .leftJoin('users as d', 'd.id', 's.dispatcher_id')
    .select((eb) => [
      's.id',
      's.created_at',
      's.ended_at',
      's.first_fix_at',
      's.first_fix_source',
      sql<string | null>`d.first_name || ' ' || d.last_name`.as('dispatcher_name'),
      millisBetween('s.created_at', 's.first_fix_at').as('time_to_locate_ms'),
      eb
        .selectFrom('session_callers as c')
        .whereRef('c.session_id', '=', 's.id')
        .select(
          sql<string[]>`array_agg(${maskedNumber} order by c.created_at, c.phone_number)`.as(
            'numbers',
          ),
        )
        .as('numbers'),
    ])
    .orderBy('s.created_at', 'desc')
    .orderBy('s.id', 'desc')
    // One more than shown tells whether there are more.
    .limit(metricsLimits.historicalSearchesMax + 1)
    .execute();
  return {
    searches: rows.slice(0, metricsLimits.historicalSearchesMax).map((row) => ({
      sessionId: row.id,
      startedAt: row.created_at.toISOString(),
      endedAt: row.ended_at?.toISOString() ?? null,
      dispatcherName: row.dispatcher_name,
      numbers: row.numbers ?? [],
      located: row.first_fix_at !== null,
      source: (row.first_fix_source as z.infer<typeof LocateSource> | null) ?? null,
      timeToLocateMs: row.first_fix_at === null ? null : row.time_to_locate_ms,
    })),
    truncated: rows.length > metricsLimits.historicalSearchesMax,
  };
}
