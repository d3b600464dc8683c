import type { UserStatistics } from '@locus/contract';
import type { Database } from '@locus/db';
import type { z } from 'zod';
import { timeToLocate } from './own-measures-repo';
import type { MetricsScope } from './scope';
import { calendarCells, caseDurations } from './session-shape-repo';
import { caseTotals } from './session-totals-repo';

/** One user's panel, composed of the same queries the team's charts use (scope.userId set). */
export async function userStatistics(
  db: Database,
  scope: MetricsScope,
): Promise<z.infer<typeof UserStatistics>> {
  const [totals, located, durations, cells] = await Promise.all([
    caseTotals(db, scope),
    timeToLocate(db, scope),
    caseDurations(db, scope),
    calendarCells(db, scope),
  ]);
  const busiest = cells.reduce<(typeof cells)[number] | null>(
    (best, cell) => (cell.sessions > 0 && (!best || cell.sessions > best.sessions) ? cell : best),
    null,
  );
  return {
    totals,
    timeToLocateP50Ms: located.combined.p50Ms,
    timeToLocateP90Ms: located.combined.p90Ms,
    averageCaseMs: durations.averageMs,
    busiest,
  };
}
