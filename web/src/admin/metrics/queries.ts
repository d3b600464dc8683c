import { useQuery } from '@tanstack/react-query';
import { api, ApiError, expect } from '../../app/api';
import type { DateRange } from './range';

/*
 * One hook per metric call, through the typed client. Every answer is cached by its call, its
 * team (or user) and its range; a refusal (403, 404, a 400 range) is final, so it is not retried.
 */

const retry = (failures: number, error: unknown) =>
  !(error instanceof ApiError && error.status < 500) && failures < 2;

export type TeamRange = DateRange & { teamId: string };
export type UserRange = DateRange & { userId: string };

function useMetric<T>(key: readonly unknown[], load: () => Promise<T>, enabled = true) {
  return useQuery({ queryKey: ['metrics', ...key], queryFn: load, retry, enabled });
}

const teamKey = (call: string, params: TeamRange) =>
  [call, params.teamId, params.from, params.to] as const;
const userKey = (call: string, params: UserRange) =>
  [call, params.userId, params.from, params.to] as const;

export const useCaseTotals = (params: TeamRange) =>
  useMetric(teamKey('ct-totals', params), async () =>
    expect(await api.metrics.ctTotals({ params }), 200),
  );

export const useUsage = (params: TeamRange) =>
  useMetric(teamKey('usage', params), async () => expect(await api.metrics.usage({ params }), 200));

export const useDailyTotals = (params: TeamRange) =>
  useMetric(teamKey('daily-totals', params), async () =>
    expect(await api.metrics.dailyTotals({ params }), 200),
  );

export const useMonthlyTotals = (params: TeamRange) =>
  useMetric(teamKey('monthly-totals', params), async () =>
    expect(await api.metrics.monthlyTotals({ params }), 200),
  );

export const useUserSearchTotals = (params: TeamRange) =>
  useMetric(teamKey('user-search-totals', params), async () =>
    expect(await api.metrics.userSearchTotals({ params }), 200),
  );

export const useCaseDurations = (params: TeamRange) =>
  useMetric(teamKey('case-durations', params), async () =>
    expect(await api.metrics.caseDurations({ params }), 200),
  );

export const useCalendar = (params: TeamRange) =>
  useMetric(teamKey('case-time-interval', params), async () =>
    expect(await api.metrics.caseTimeInterval({ params }), 200),
  );

export const useLanguages = (params: TeamRange) =>
  useMetric(teamKey('languages', params), async () =>
    expect(await api.metrics.languages({ params }), 200),
  );

export const useChatTotals = (params: TeamRange) =>
  useMetric(teamKey('chat-totals', params), async () =>
    expect(await api.metrics.chatTotals({ params }), 200),
  );

export const useHistoricalSearches = (params: TeamRange) =>
  useMetric(teamKey('historical-searches', params), async () =>
    expect(await api.metrics.historicalSearches({ params }), 200),
  );

export const useTimeToLocate = (params: TeamRange) =>
  useMetric(teamKey('time-to-locate', params), async () =>
    expect(await api.metrics.timeToLocate({ params }), 200),
  );

export const useLinkFunnel = (params: TeamRange) =>
  useMetric(teamKey('link-funnel', params), async () =>
    expect(await api.metrics.linkFunnel({ params }), 200),
  );

export const useAccuracy = (params: TeamRange) =>
  useMetric(teamKey('uncertainty-radius-totals', params), async () =>
    expect(await api.metrics.uncertaintyRadiusTotals({ params }), 200),
  );

export const useTotalLogins = (params: TeamRange) =>
  useMetric(teamKey('total-logins', params), async () =>
    expect(await api.metrics.totalLogins({ params }), 200),
  );

export const useUserLogins = (params: TeamRange) =>
  useMetric(teamKey('user-logins', params), async () =>
    expect(await api.metrics.userLogins({ params }), 200),
  );

export const useUserStatistics = (params: UserRange) =>
  useMetric(userKey('user-statistics', params), async () =>
    expect(await api.metrics.userStatistics({ params }), 200),
  );

export const useUserDailyTotals = (params: UserRange) =>
  useMetric(userKey('user-daily-totals', params), async () =>
    expect(await api.metrics.userDailyTotals({ params }), 200),
  );

export const useUserTotalUsage = (params: UserRange) =>
  useMetric(userKey('user-total-usage', params), async () =>
    expect(await api.metrics.userTotalUsage({ params }), 200),
  );

export const useUserLanguages = (params: UserRange) =>
  useMetric(userKey('user-languages', params), async () =>
    expect(await api.metrics.userLanguages({ params }), 200),
  );

export const useUserCalendarTotals = (params: UserRange) =>
  useMetric(userKey('user-calendar-totals', params), async () =>
    expect(await api.metrics.userCalendarTotals({ params }), 200),
  );

export const usePlatformMetrics = (range: DateRange) =>
  useMetric(['platform', range.from, range.to], async () =>
    expect(await api.metrics.platform({ params: range }), 200),
  );

/** The teams a platform admin can pick from: every team matching `search`, first 100 by name. */
export const useTeamChoices = (search: string, enabled: boolean) =>
  useQuery({
    queryKey: ['metrics', 'team-choices', search],
    queryFn: async () =>
      expect(await api.teams.list({ query: { search, page: 1, pageSize: 100 } }), 200),
    enabled,
    retry,
  });

/** What a failed call says on screen: the API's message, or a plain fallback. */
export function failureMessage(error: unknown): string {
  if (error instanceof ApiError && error.code === 'rate-limited')
    return 'Too many requests. Please wait a minute and try again.';
  return error instanceof ApiError && error.body?.message
    ? error.body.message
    : 'Something went wrong with your request. Please try again.';
}

/** One team's name and levels, for a team that is not among the user's own (a platform admin's pick). */
export const useTeam = (id: string, enabled: boolean) =>
  useQuery({
    queryKey: ['metrics', 'team', id],
    queryFn: async () => expect(await api.teams.get({ params: { id } }), 200),
    enabled,
    retry,
  });
