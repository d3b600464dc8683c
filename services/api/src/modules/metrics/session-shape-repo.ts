import { sql, type RawBuilder } from 'kysely';
import type { CalendarCell, CaseDurations, ChatTotals, LanguageTotal } from '@locus/contract';
import type { Database } from '@locus/db';
import type { z } from 'zod';
import { inPeriod, periodStart } from './period';
import type { MetricsScope } from './scope';

/** The `get-user-…` calls count only the sessions the user started. */
function startedBy(column: string, scope: MetricsScope): RawBuilder<boolean> {
  return scope.userId === undefined
    ? sql<boolean>`true`
    : sql<boolean>`${sql.ref(column)} = ${scope.userId}`;
}

const minute = 60_000;
/** `[fromMs, toMs)`; the last is open. Chosen for 911 cases: most last minutes, some hours. */
const durationBounds: [number, number | null][] = [
  [0, minute],
  [minute, 5 * minute],
  [5 * minute, 15 * minute],
  [15 * minute, 30 * minute],
  [30 * minute, 60 * minute],
  [60 * minute, null],
];

export async function caseDurations(
  db: Database,
  scope: MetricsScope,
): Promise<z.infer<typeof CaseDurations>> {
  // A clock step could end a session "before" it started; such a case lasted no time at all.
  // date_part is float8 (extract is numeric, several times slower over two years of cases).
  const ms = sql<number>`greatest(0, date_part('epoch', ended_at - created_at) * 1000)`;
  const durations = db
    .selectFrom('tracking_sessions')
    .select(ms.as('ms'))
    .where('team_id', '=', scope.teamId)
    .where(inPeriod('ended_at', scope))
    .where(startedBy('created_by', scope))
    // Not inlined into the aggregates: each duration is computed once, not once per aggregate.
    .offset(0)
    .as('d');
  const buckets = sql.join(
    durationBounds.map(([from, to]) =>
      to === null
        ? sql`count(*) filter (where ms >= ${from})`
        : sql`count(*) filter (where ms >= ${from} and ms < ${to})`,
    ),
  );
  const row = await db
    .selectFrom(durations)
    .select([
      sql<number>`count(*)::int`.as('ended'),
      // Both percentiles share one sort of the durations.
      sql<number | null>`round(percentile_cont(0.5) within group (order by ms))`.as('p50'),
      sql<number | null>`round(percentile_cont(0.9) within group (order by ms))`.as('p90'),
      sql<number | null>`round(avg(ms))`.as('average'),
      sql<number[]>`array[${buckets}]::int[]`.as('buckets'),
    ])
    .executeTakeFirstOrThrow();
  return {
    ended: row.ended,
    p50Ms: row.p50,
    p90Ms: row.p90,
    averageMs: row.average,
    buckets: durationBounds.map(([fromMs, toMs], index) => ({
      fromMs,
      toMs,
      sessions: row.buckets[index] ?? 0,
    })),
  };
}

export async function calendarCells(
  db: Database,
  scope: MetricsScope,
): Promise<z.infer<typeof CalendarCell>[]> {
  // Converting every session's time to the zone is most of the cost over two years, so sessions
  // are first counted per UTC quarter hour and only those bins are converted. Every zone's offset
  // is a whole number of quarter hours, so a bin never straddles two local hours.
  const bins = db
    .selectFrom('tracking_sessions')
    .select([
      sql<Date>`date_bin('15 minutes', created_at, timestamptz '2000-01-01T00:00:00Z')`.as('bin'),
      sql<number>`count(*)`.as('sessions'),
    ])
    .where('team_id', '=', scope.teamId)
    .where(inPeriod('created_at', scope))
    .where(startedBy('created_by', scope))
    .groupBy('bin')
    .as('b');
  const local = sql`bin at time zone ${scope.timeZone}`;
  const rows = await db
    .selectFrom(bins)
    .select([
      sql<number>`extract(dow from ${local})::int`.as('weekday'),
      sql<number>`extract(hour from ${local})::int`.as('hour'),
      sql<number>`sum(sessions)::int`.as('sessions'),
    ])
    .groupBy(['weekday', 'hour'])
    .execute();
  const counted = new Map(rows.map((row) => [row.weekday * 24 + row.hour, row.sessions]));
  return Array.from({ length: 7 * 24 }, (_, cell) => ({
    weekday: Math.floor(cell / 24),
    hour: cell % 24,
    sessions: counted.get(cell) ?? 0,
  }));
}

const languages = ['en', 'es', 'fr', 'zh'] as const;

export async function languageTotals(
  db: Database,
  scope: MetricsScope,
): Promise<z.infer<typeof LanguageTotal>[]> {
  const rows = await db
    .selectFrom('tracking_sessions as s')
    .innerJoin('session_callers as c', 'c.session_id', 's.id')
    .select([
      'c.language',
      sql<number>`count(*)::int`.as('callers'),
      // shared_at: the caller's first position reached Locus, from the page or texted back.
      sql<number>`count(c.shared_at)::int`.as('located'),
    ])
    .where('s.team_id', '=', scope.teamId)
    .where(inPeriod('s.created_at', scope))
    .where(startedBy('s.created_by', scope))
    // A caller is added after its session started, so the range's start bounds the callers too:
    // a recent range reads recent callers only, from the index on created_at (which carries what
    // is counted here).
    .where('c.created_at', '>=', periodStart(scope))
    // Texted: the caller keeps the time of its first text (the texts go with the purge).
    .where('c.first_text_at', 'is not', null)
    .groupBy('c.language')
    .execute();
  return languages.map((language) => {
    const row = rows.find((candidate) => candidate.language === language);
    return { language, callers: row?.callers ?? 0, located: row?.located ?? 0 };
  });
}

export async function chatTotals(
  db: Database,
  scope: MetricsScope,
): Promise<z.infer<typeof ChatTotals>> {
  // The counters on the session (migration evidence): the retention purge deletes the chat.
  const row = await db
    .selectFrom('tracking_sessions as s')
    .select([
      sql<number>`count(*)::int`.as('sessions'),
      sql<number>`coalesce(sum(s.chat_messages), 0)::int`.as('messages'),
      sql<number>`coalesce(sum(s.chat_from_caller), 0)::int`.as('from_caller'),
      sql<number>`coalesce(sum(s.chat_from_dispatcher), 0)::int`.as('from_dispatcher'),
      sql<number>`coalesce(sum(s.chat_translated), 0)::int`.as('translated'),
    ])
    .where('s.team_id', '=', scope.teamId)
    .where(inPeriod('s.created_at', scope))
    .where(startedBy('s.created_by', scope))
    .where('s.chat_initiated_at', 'is not', null)
    .executeTakeFirstOrThrow();
  return {
    sessionsWithChat: row.sessions,
    messages: row.messages,
    fromCaller: row.from_caller,
    fromDispatcher: row.from_dispatcher,
    translated: row.translated,
  };
}
