import { sql, type RawBuilder } from 'kysely';
import type { MetricsRange } from '@locus/contract';

/**
 * The SQL every metrics query shares: the range as instants and days cut in the scope's time
 * zone. `from` starts at 00:00 of its day in the zone, `to` ends at 24:00 of its day there (so a
 * day with a daylight-saving change has 23 or 25 hours, as the team lived it).
 */
export function periodStart(range: MetricsRange): RawBuilder<Date> {
  return sql<Date>`(${range.from}::date::timestamp at time zone ${range.timeZone})`;
}

export function periodEnd(range: MetricsRange): RawBuilder<Date> {
  return sql<Date>`((${range.to}::date + 1)::timestamp at time zone ${range.timeZone})`;
}

/** `column` falls within the range: `[start, end)`. Written so an index on `column` serves it. */
export function inPeriod(column: string, range: MetricsRange): RawBuilder<boolean> {
  return sql<boolean>`(${sql.ref(column)} >= ${periodStart(range)} and ${sql.ref(column)} < ${periodEnd(range)})`;
}

/** The local calendar day of `column` in the zone, as `YYYY-MM-DD`. */
export function localDay(column: string, range: MetricsRange): RawBuilder<string> {
  return sql<string>`to_char(${sql.ref(column)} at time zone ${range.timeZone}, 'YYYY-MM-DD')`;
}

/** The local month of `column` in the zone, as `YYYY-MM`. */
export function localMonth(column: string, range: MetricsRange): RawBuilder<string> {
  return sql<string>`to_char(${sql.ref(column)} at time zone ${range.timeZone}, 'YYYY-MM')`;
}

/** Every day of the range, `YYYY-MM-DD`, so that answers list the days without data as zeros. */
export function daysOf(range: MetricsRange): string[] {
  const days: string[] = [];
  for (
    let day = new Date(`${range.from}T00:00:00Z`);
    day <= new Date(`${range.to}T00:00:00Z`);
    day = new Date(day.getTime() + 86_400_000)
  ) {
    days.push(day.toISOString().slice(0, 10));
  }
  return days;
}

/** Every month the range touches, `YYYY-MM`. */
export function monthsOf(range: MetricsRange): string[] {
  const months: string[] = [];
  let [year, month] = range.from.slice(0, 7).split('-').map(Number) as [number, number];
  const last = range.to.slice(0, 7);
  for (;;) {
    const label = `${year}-${String(month).padStart(2, '0')}`;
    months.push(label);
    if (label >= last) return months;
    month += 1;
    if (month > 12) {
      month = 1;
      year += 1;
    }
  }
}
