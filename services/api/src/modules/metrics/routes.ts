import { metricsContract } from '@locus/contract';
import type { FastifyInstance } from 'fastify';
import { registerContract } from '../../http/contract-routes';
import type { AppDeps } from '../../platform/deps';
import { requireUser } from '../auth/guard';
import { loginTotals, platformMetrics, userLogins } from './logins-repo';
import { linkFunnel, timeToLocate, uncertaintyTotals } from './own-measures-repo';
import { platformScope, rangeOf, teamScope, userScope, type MetricsScope } from './scope';
import { calendarCells, caseDurations, chatTotals, languageTotals } from './session-shape-repo';
import {
  caseTotals,
  dailyTotals,
  historicalSearches,
  monthlyTotals,
  usage,
  userSearchTotals,
} from './session-totals-repo';
import { userStatistics } from './user-statistics';

/**
 * SPEC.md §7 Metrics and Locus's own measures (issue 13). Each handler resolves who may see what
 * (`scope.ts`), runs one query, and answers it with the range and time zone it was cut in.
 */
export function metricsRoutes(app: FastifyInstance, { db }: Pick<AppDeps, 'db'>): void {
  type Params = { teamId: string; from: string; to: string };
  type UserParams = { userId: string; from: string; to: string };
  const team = async (params: Params, request: Parameters<typeof requireUser>[0]) =>
    teamScope(db, await requireUser(request), params);
  const user = async (params: UserParams, request: Parameters<typeof requireUser>[0]) =>
    userScope(db, await requireUser(request), params);
  const ok = <T extends object>(scope: MetricsScope, body: T) => ({
    status: 200 as const,
    body: { ...rangeOf(scope), ...body },
  });

  registerContract(app, metricsContract, {
    ctTotals: async ({ params }, { request }) => {
      const scope = await team(params, request);
      return ok(scope, { totals: await caseTotals(db, scope) });
    },
    usage: async ({ params }, { request }) => {
      const scope = await team(params, request);
      return ok(scope, { usage: await usage(db, scope) });
    },
    dailyTotals: async ({ params }, { request }) => {
      const scope = await team(params, request);
      return ok(scope, { days: await dailyTotals(db, scope) });
    },
    monthlyTotals: async ({ params }, { request }) => {
      const scope = await team(params, request);
      return ok(scope, { months: await monthlyTotals(db, scope) });
    },
    userSearchTotals: async ({ params }, { request }) => {
      const scope = await team(params, request);
      return ok(scope, { users: await userSearchTotals(db, scope) });
    },
    caseDurations: async ({ params }, { request }) => {
      const scope = await team(params, request);
      return ok(scope, { durations: await caseDurations(db, scope) });
    },
    caseTimeInterval: async ({ params }, { request }) => {
      const scope = await team(params, request);
      return ok(scope, { cells: await calendarCells(db, scope) });
    },
    languages: async ({ params }, { request }) => {
      const scope = await team(params, request);
      return ok(scope, { languages: await languageTotals(db, scope) });
    },
    chatTotals: async ({ params }, { request }) => {
      const scope = await team(params, request);
      return ok(scope, { chat: await chatTotals(db, scope) });
    },
    historicalSearches: async ({ params }, { request }) => {
      const scope = await team(params, request);
      return ok(scope, await historicalSearches(db, scope));
    },
    userTotalUsage: async ({ params }, { request }) => {
      const scope = await user(params, request);
      return ok(scope, { totals: await caseTotals(db, scope) });
    },
    userStatistics: async ({ params }, { request }) => {
      const scope = await user(params, request);
      return ok(scope, { statistics: await userStatistics(db, scope) });
    },
    userLanguages: async ({ params }, { request }) => {
      const scope = await user(params, request);
      return ok(scope, { languages: await languageTotals(db, scope) });
    },
    userDailyTotals: async ({ params }, { request }) => {
      const scope = await user(params, request);
      return ok(scope, { days: await dailyTotals(db, scope) });
    },
    userCalendarTotals: async ({ params }, { request }) => {
      const scope = await user(params, request);
      return ok(scope, { cells: await calendarCells(db, scope) });
    },
    timeToLocate: async ({ params }, { request }) => {
      const scope = await team(params, request);
      return ok(scope, { timeToLocate: await timeToLocate(db, scope) });
    },
    linkFunnel: async ({ params }, { request }) => {
      const scope = await team(params, request);
      return ok(scope, { funnel: await linkFunnel(db, scope) });
    },
    uncertaintyRadiusTotals: async ({ params }, { request }) => {
      const scope = await team(params, request);
      return ok(scope, { accuracy: await uncertaintyTotals(db, scope) });
    },
    totalLogins: async ({ params }, { request }) => {
      const scope = await team(params, request);
      return ok(scope, { logins: await loginTotals(db, scope) });
    },
    userLogins: async ({ params }, { request }) => {
      const scope = await team(params, request);
      return ok(scope, { logins: await userLogins(db, scope) });
    },
    platform: async ({ params }, { request }) => {
      const scope = platformScope(await requireUser(request), params);
      return {
        status: 200,
        body: { ...rangeOf(scope), platform: await platformMetrics(db, scope) },
      };
    },
  });
}
