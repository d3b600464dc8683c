import {
  LocateSource,
  SmsLanguage,
  type LinkFunnel,
  type TimeToLocate,
  type UncertaintyTotals,
} from '@locus/contract';
import type { DB, Database } from '@locus/db';
import { sql, type QueryCreator } from 'kysely';
import type { z } from 'zod';
import { daysOf, inPeriod, periodEnd, periodStart } from './period';
import type { MetricsScope } from './scope';

/**
 * Locus's own measures (issue 13), read from what was recorded where it happened: the session's
 * first fix and best uncertainty (`tracking_sessions.first_fix_*`, `best_uncertainty_m`) and each
 * caller's steps through the link (`session_callers.link_opened_at` … `denied_at`).
 */

/**
 * The scope's located sessions of the range. The team (and the user) come first so that the
 * partial index `tracking_sessions_team_located` of `2026-11-28T17-05_metrics-own` answers time
 * to locate and accuracy from the index alone.
 */
function locatedSessions(qb: QueryCreator<DB>, scope: MetricsScope) {
  let query = qb
    .selectFrom('tracking_sessions')
    .where('team_id', '=', scope.teamId)
    .where(inPeriod('created_at', scope))
    .where('first_fix_at', 'is not', null);
  if (scope.userId !== undefined) query = query.where('created_by', '=', scope.userId);
  return query;
}

/**
 * The local calendar day of `column` in the scope's zone, as a date: days are grouped as dates
 * and formatted once per group, not once per row (as `localDay` would).
 */
const localDate = (column: string, scope: MetricsScope) =>
  sql<string>`(${sql.ref(column)} at time zone ${scope.timeZone})::date`;

/**
 * A percentile of `ms` in whole milliseconds. Rounded as numeric: a double rounds half to even,
 * which would make 1.5 ms and 2.5 ms both 2.
 */
const percentileMs = (fraction: 0.5 | 0.9) =>
  sql<
    number | null
  >`round((percentile_cont(${sql.lit(fraction)}) within group (order by ms))::numeric)::float8`;

export async function timeToLocate(
  db: Database,
  scope: MetricsScope,
): Promise<z.infer<typeof TimeToLocate>> {
  const rows = await db
    .with('located', (qb) =>
      locatedSessions(qb, scope).select([
        localDate('created_at', scope).as('local_day'),
        'first_fix_source as source',
        // Both ends are server clocks (the API's and the database's); a lookup answered within
        // their skew must not come out below zero.
        sql<number>`greatest(date_part('epoch', first_fix_at - created_at) * 1000, 0)`.as('ms'),
      ]),
    )
    .selectFrom('located')
    .select([
      sql<string | null>`to_char(local_day, 'YYYY-MM-DD')`.as('day'),
      'source',
      sql<number>`grouping(local_day)`.as('allDays'),
      sql<number>`grouping(source)`.as('allSources'),
      sql<number>`count(*)::int`.as('located'),
      percentileMs(0.5).as('p50Ms'),
      percentileMs(0.9).as('p90Ms'),
    ])
    .groupBy(sql`grouping sets ((), (source), (local_day, source))`)
    .execute();

  const empty = { located: 0, p50Ms: null, p90Ms: null };
  const measure = (row: (typeof rows)[number] | undefined) =>
    row ? { located: row.located, p50Ms: row.p50Ms, p90Ms: row.p90Ms } : empty;
  const find = (day: string | null, source: string | null) =>
    rows.find(
      (row) =>
        (day === null ? row.allDays === 1 : row.allDays === 0 && row.day === day) &&
        (source === null ? row.allSources === 1 : row.allSources === 0 && row.source === source),
    );
  return {
    combined: measure(find(null, null)),
    overall: LocateSource.options.map((source) => ({ source, ...measure(find(null, source)) })),
    byDay: daysOf(scope).flatMap((day) =>
      LocateSource.options.map((source) => ({ day, source, ...measure(find(day, source)) })),
    ),
  };
}

/**
 * One step count per caller texted in the range. A caller counts from their first outbound text
 * (its send time places them in the range and on a day), whatever became of later ones:
 * - delivered: any text to them was reported delivered by the carrier (a link resent after a
 *   failure did reach them). Only the carrier's report counts: a provider that reports no
 *   delivery (the outbox, some carriers) leaves this step below the link being opened;
 * - shared: a position of theirs reached Locus (`shared_at`: from the page or texted back; the
 *   automatic lookup is not the caller sharing);
 * - denied: they refused the permission and never shared;
 * - never answered: opened the link but neither shared nor denied.
 */
export async function linkFunnel(
  db: Database,
  scope: MetricsScope,
): Promise<z.infer<typeof LinkFunnel>> {
  const rows = await db
    // Each caller keeps the time of its first text and of its first delivery (the texts go with
    // the retention purge). The callers texted in the range come from the index on first_text_at
    // (which carries every step), then their session decides the team and the user.
    .with('texted', (qb) => {
      let query = qb
        .selectFrom('session_callers as c')
        .innerJoin('tracking_sessions as s', 's.id', 'c.session_id')
        .where('c.first_text_at', '>=', periodStart(scope))
        .where('c.first_text_at', '<', periodEnd(scope))
        .where('s.team_id', '=', scope.teamId);
      if (scope.userId !== undefined) query = query.where('s.created_by', '=', scope.userId);
      return query.select([
        'c.language',
        'c.first_text_at',
        sql<boolean>`c.text_delivered_at is not null`.as('delivered'),
        'c.link_opened_at',
        'c.prompt_shown_at',
        'c.shared_at',
        'c.denied_at',
      ]);
    })
    .with('steps', (qb) =>
      qb
        .selectFrom('texted as t')
        .select([
          localDate('t.first_text_at', scope).as('local_day'),
          't.language',
          't.delivered',
          sql<boolean>`t.link_opened_at is not null`.as('opened'),
          sql<boolean>`t.prompt_shown_at is not null`.as('prompted'),
          sql<boolean>`t.shared_at is not null`.as('shared'),
          sql<boolean>`t.denied_at is not null`.as('refused'),
        ]),
    )
    .selectFrom('steps')
    .select([
      sql<string | null>`to_char(local_day, 'YYYY-MM-DD')`.as('day'),
      'language',
      sql<number>`grouping(local_day)`.as('allDays'),
      sql<number>`grouping(language)`.as('allLanguages'),
      sql<number>`count(*)::int`.as('textsSent'),
      sql<number>`(count(*) filter (where delivered))::int`.as('delivered'),
      sql<number>`(count(*) filter (where opened))::int`.as('linkOpened'),
      sql<number>`(count(*) filter (where prompted))::int`.as('promptShown'),
      sql<number>`(count(*) filter (where shared))::int`.as('shared'),
      sql<number>`(count(*) filter (where refused and not shared))::int`.as('denied'),
      sql<number>`(count(*) filter (where opened and not shared and not refused))::int`.as(
        'neverAnswered',
      ),
    ])
    .groupBy(sql`grouping sets ((), (local_day), (language))`)
    .execute();

  const steps = (row: (typeof rows)[number] | undefined) => ({
    textsSent: row?.textsSent ?? 0,
    delivered: row?.delivered ?? 0,
    linkOpened: row?.linkOpened ?? 0,
    promptShown: row?.promptShown ?? 0,
    shared: row?.shared ?? 0,
    denied: row?.denied ?? 0,
    neverAnswered: row?.neverAnswered ?? 0,
  });
  return {
    total: steps(rows.find((row) => row.allDays === 1 && row.allLanguages === 1)),
    byDay: daysOf(scope).map((day) => ({
      day,
      ...steps(rows.find((row) => row.allDays === 0 && row.day === day)),
    })),
    byLanguage: SmsLanguage.options.map((language) => ({
      language,
      ...steps(rows.find((row) => row.allLanguages === 0 && row.language === language)),
    })),
  };
}

/** Histogram buckets in metres, `[from, next from)`; the last is open. */
const radiusBounds = [0, 10, 25, 50, 100, 250, 500, 1000] as const;
// width_bucket's thresholds: a radius below the second bound falls in bucket 0, and so on.
const thresholds = sql`array[${sql.join(radiusBounds.slice(1).map((bound) => sql.lit(bound)))}]::float8[]`;

const histogram = (column: 'first_fix_uncertainty_m' | 'best_uncertainty_m') =>
  sql<number[]>`array[${sql.join(
    radiusBounds.map(
      (_, index) =>
        sql`count(*) filter (where width_bucket(${sql.ref(column)}, ${thresholds}) = ${sql.lit(index)})`,
    ),
  )}]::int[]`;

/** The median radius to the tenth of a metre (rounded as numeric, half away from zero). */
const medianM = (column: 'first_fix_uncertainty_m' | 'best_uncertainty_m') =>
  sql<
    number | null
  >`round((percentile_cont(0.5) within group (order by ${sql.ref(column)}))::numeric, 1)::float8`;

export async function uncertaintyTotals(
  db: Database,
  scope: MetricsScope,
): Promise<z.infer<typeof UncertaintyTotals>> {
  const row = await locatedSessions(db, scope)
    .select([
      histogram('first_fix_uncertainty_m').as('firstFix'),
      histogram('best_uncertainty_m').as('bestFix'),
      medianM('first_fix_uncertainty_m').as('firstFixP50M'),
      medianM('best_uncertainty_m').as('bestFixP50M'),
    ])
    .executeTakeFirstOrThrow();
  const buckets = (counts: number[]) =>
    radiusBounds.map((fromM, index) => ({
      fromM,
      toM: radiusBounds[index + 1] ?? null,
      sessions: counts[index] ?? 0,
    }));
  return {
    firstFix: buckets(row.firstFix),
    bestFix: buckets(row.bestFix),
    firstFixP50M: row.firstFixP50M,
    bestFixP50M: row.bestFixP50M,
  };
}
