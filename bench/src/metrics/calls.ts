import { metricsContract } from '@locus/contract';
import type { Database } from '@locus/db';
import {
  loginTotals,
  platformMetrics,
  userLogins,
} from '../../../services/api/src/modules/metrics/logins-repo';
import {
  linkFunnel,
  timeToLocate,
  uncertaintyTotals,
} from '../../../services/api/src/modules/metrics/own-measures-repo';
import type { MetricsScope, PlatformScope } from '../../../services/api/src/modules/metrics/scope';
import {
  calendarCells,
  caseDurations,
  chatTotals,
  languageTotals,
} from '../../../services/api/src/modules/metrics/session-shape-repo';
import {
  caseTotals,
  dailyTotals,
  historicalSearches,
  monthlyTotals,
  usage,
  userSearchTotals,
} from '../../../services/api/src/modules/metrics/session-totals-repo';
import { userStatistics } from '../../../services/api/src/modules/metrics/user-statistics';

export type CallName = keyof typeof metricsContract;

/** Whose numbers a call asks for: a team, one of its users, or the whole platform. */
export type CallKind = 'team' | 'user' | 'platform';

/**
 * Each metrics call with the repository function its route runs (as routes.ts wires them), so
 * that the slowest can be re-run in this process with its SQL captured for EXPLAIN ANALYZE.
 */
const queries: {
  [Name in CallName]: {
    kind: CallKind;
    run: (db: Database, scope: MetricsScope & PlatformScope) => Promise<unknown>;
  };
} = {
  ctTotals: { kind: 'team', run: caseTotals },
  usage: { kind: 'team', run: usage },
  dailyTotals: { kind: 'team', run: dailyTotals },
  monthlyTotals: { kind: 'team', run: monthlyTotals },
  userSearchTotals: { kind: 'team', run: userSearchTotals },
  caseDurations: { kind: 'team', run: caseDurations },
  caseTimeInterval: { kind: 'team', run: calendarCells },
  languages: { kind: 'team', run: languageTotals },
  chatTotals: { kind: 'team', run: chatTotals },
  historicalSearches: { kind: 'team', run: historicalSearches },
  userTotalUsage: { kind: 'user', run: caseTotals },
  userStatistics: { kind: 'user', run: userStatistics },
  userLanguages: { kind: 'user', run: languageTotals },
  userDailyTotals: { kind: 'user', run: dailyTotals },
  userCalendarTotals: { kind: 'user', run: calendarCells },
  timeToLocate: { kind: 'team', run: timeToLocate },
  linkFunnel: { kind: 'team', run: linkFunnel },
  uncertaintyRadiusTotals: { kind: 'team', run: uncertaintyTotals },
  totalLogins: { kind: 'team', run: loginTotals },
  userLogins: { kind: 'team', run: userLogins },
  platform: { kind: 'platform', run: platformMetrics },
};

export interface MetricsCall {
  name: CallName;
  kind: CallKind;
  /** The contract's path pattern, e.g. `/api/v1/location/get-ct-totals/:teamId/:from/:to`. */
  path: string;
  /** The last segment before the parameters, as SPEC.md names the call. */
  label: string;
  run: (db: Database, scope: MetricsScope & PlatformScope) => Promise<unknown>;
}

/** Every route of the metrics contract, in the contract's order. */
export const metricsCalls: MetricsCall[] = (Object.keys(queries) as CallName[]).map((name) => {
  const path = metricsContract[name].path;
  const fixed = path.split('/:')[0]!;
  return {
    name,
    kind: queries[name].kind,
    path,
    label: fixed.replace(/^\/api\/v1\//, ''),
    run: queries[name].run,
  };
});

/** The path with its parameters filled in. */
export function pathOf(
  call: MetricsCall,
  ids: { teamId: string; userId: string },
  range: { from: string; to: string },
): string {
  return call.path
    .replace(':teamId', ids.teamId)
    .replace(':userId', ids.userId)
    .replace(':from', range.from)
    .replace(':to', range.to);
}
