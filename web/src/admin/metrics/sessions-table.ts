import type { LocateSource } from '@locus/contract';
import type { MetricsTable } from './csv';
import { dateTimeIn, sourceLabels, toSeconds } from './format';

/** One session of `get-historical-searches`, as the Sessions table reads it. */
export interface SessionRow {
  startedAt: string;
  endedAt: string | null;
  dispatcherName: string | null;
  numbers: readonly string[];
  located: boolean;
  source: LocateSource | null;
  timeToLocateMs: number | null;
}

/**
 * The Sessions table and its CSV: a row per session in the API's order (newest first), times as
 * the clock read in the team's zone (named in the headers, so the CSV says it too).
 */
export function sessionsTable(searches: readonly SessionRow[], timeZone: string): MetricsTable {
  return {
    columns: [
      `Started (${timeZone})`,
      `Ended (${timeZone})`,
      'Dispatcher',
      'Numbers',
      'Located',
      'Source',
      'Time to locate (s)',
    ],
    rows: searches.map((search) => [
      dateTimeIn(search.startedAt, timeZone),
      search.endedAt === null ? null : dateTimeIn(search.endedAt, timeZone),
      search.dispatcherName,
      search.numbers.length === 0 ? null : search.numbers.join(', '),
      search.located ? 'Yes' : 'No',
      search.source === null ? null : sourceLabels[search.source],
      toSeconds(search.timeToLocateMs),
    ]),
  };
}
