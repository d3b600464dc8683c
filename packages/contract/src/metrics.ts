import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ErrorBody } from './errors';
import { SmsLanguage } from './tracking';

/**
 * Metrics (SPEC.md §7 "Metrics", issue 13). SPEC names the calls; their shapes are Locus's.
 *
 * Every call is a GET with the team (or the user) and an inclusive date range in the path:
 * `…/:teamId/:from/:to`, dates as `YYYY-MM-DD`. Days and months are cut in the team's time zone
 * (`teams.timeZone`, default `America/New_York`): `from` starts at 00:00 of that day there and
 * `to` ends at 24:00 of its day there. A user's calls use the time zone of the team through which
 * the caller may see them. Every answer repeats the range and the zone it was cut in.
 *
 * Access: enterprise teams only (403 for basic and premiere teams, SPEC.md §5); team admins see
 * their team and its members, platform admins any team; another team is 404; a dispatcher 403.
 */
const c = initContract();
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody };

export const metricsLimits = {
  /** The longest range one call covers: two years (a leap day included). */
  maxRangeDays: 731,
  /** Rows of `get-historical-searches` per answer at most. */
  historicalSearchesMax: 500,
  defaultTimeZone: 'America/New_York',
} as const;

/** A calendar date, `YYYY-MM-DD`, that exists (no 2026-02-30). */
export const MetricsDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Must be an ISO date, YYYY-MM-DD')
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
  }, 'Must be a date that exists');

/** Days from `from` to `to`, both included. */
export function daysInRange(from: string, to: string): number {
  return (
    Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1
  );
}

/** The path's range rules, each naming the field: `to` after `from`, at most two years. */
function checkRange(range: { from: string; to: string }, context: z.RefinementCtx): void {
  // zod still runs this when a date failed its own checks; that date's issue is the answer.
  if (!MetricsDate.safeParse(range.from).success || !MetricsDate.safeParse(range.to).success) {
    return;
  }
  if (range.to < range.from) {
    context.addIssue({ code: 'custom', path: ['to'], message: 'Must not be before from' });
  } else if (daysInRange(range.from, range.to) > metricsLimits.maxRangeDays) {
    context.addIssue({
      code: 'custom',
      path: ['to'],
      message: 'The range must not be longer than 2 years',
    });
  }
}

const teamRangeShape = { teamId: z.string().uuid(), from: MetricsDate, to: MetricsDate };
const userRangeShape = { userId: z.string().uuid(), from: MetricsDate, to: MetricsDate };
export const TeamRangeParams = z.object(teamRangeShape).superRefine(checkRange);
export type TeamRangeParams = z.infer<typeof TeamRangeParams>;
export const UserRangeParams = z.object(userRangeShape).superRefine(checkRange);
export type UserRangeParams = z.infer<typeof UserRangeParams>;
export const PlatformRangeParams = z
  .object({ from: MetricsDate, to: MetricsDate })
  .superRefine(checkRange);
export type PlatformRangeParams = z.infer<typeof PlatformRangeParams>;

/** What every answer repeats: the range and the zone its days were cut in. */
export const MetricsRange = z.object({
  from: MetricsDate,
  to: MetricsDate,
  /** IANA time zone, e.g. `America/New_York`. */
  timeZone: z.string(),
});
export type MetricsRange = z.infer<typeof MetricsRange>;

/** How a session's caller was first located. */
export const LocateSource = z.enum(['lookup', 'link']);
export type LocateSource = z.infer<typeof LocateSource>;

const count = z.number().int().min(0);
/** Milliseconds, or null when nothing was measured. */
const millis = z.number().min(0).nullable();
const day = MetricsDate;
const month = z.string().regex(/^\d{4}-\d{2}$/);

/** The counts most screens show, for a team or one user. */
export const CaseTotals = z.object({
  /** Tracking sessions started (one per locate; a call list is one session). */
  sessions: count,
  /** Numbers asked for (callers across those sessions). */
  numbers: count,
  /** Sessions whose caller was located (a first fix arrived). */
  located: count,
  /** Text messages sent to callers (the link, reminders). */
  textsSent: count,
  /** Sessions handed to a colleague (accepted case transfers). */
  transfers: count,
  /** Sessions in which the chat was opened. */
  chats: count,
});
export type CaseTotals = z.infer<typeof CaseTotals>;

export const DailyTotal = z.object({ day, sessions: count, located: count });
export const MonthlyTotal = z.object({ month, sessions: count, located: count });
export const LanguageTotal = z.object({
  language: SmsLanguage,
  /** Callers texted in this language. */
  callers: count,
  /** Of those, callers who shared their location. */
  located: count,
});
/** Sessions per weekday and hour (0 = Sunday; hours 0–23), in the team's zone. */
export const CalendarCell = z.object({
  weekday: z.number().int().min(0).max(6),
  hour: z.number().int().min(0).max(23),
  sessions: count,
});
export const UserSearchTotal = z.object({
  userId: z.string().uuid(),
  name: z.string(),
  sessions: count,
  located: count,
  /** Median time to locate of this user's sessions. */
  timeToLocateP50Ms: millis,
});
/** A duration histogram bucket: `[fromMs, toMs)`, `toMs` null for the last (open) bucket. */
export const DurationBucket = z.object({ fromMs: count, toMs: count.nullable(), sessions: count });
export const CaseDurations = z.object({
  /** Sessions that ended in the range; durations run from start to end. */
  ended: count,
  p50Ms: millis,
  p90Ms: millis,
  averageMs: millis,
  buckets: z.array(DurationBucket),
});
export const SourceUsage = z.object({
  source: LocateSource,
  /** Sessions first located this way. */
  located: count,
});
export const Usage = z.object({
  /** Automatic lookups asked (one per session where the team has the lookup). */
  lookupsRequested: count,
  /**
   * Of those, sessions whose lookup the provider answered, found or not found (a failure or a
   * timeout is no answer).
   */
  lookupsAnswered: count,
  /** Sessions whose caller was texted a link. */
  linksSent: count,
  bySource: z.array(SourceUsage),
  /** Sessions never located. */
  notLocated: count,
});
export const ChatTotals = z.object({
  /** Sessions in which the chat was opened (SPEC: counts sessions, not messages). */
  sessionsWithChat: count,
  messages: count,
  fromCaller: count,
  fromDispatcher: count,
  /** Messages shown to the other side translated. */
  translated: count,
});
export const HistoricalSearch = z.object({
  sessionId: z.string().uuid(),
  startedAt: z.string().datetime(),
  endedAt: z.string().datetime().nullable(),
  dispatcherName: z.string().nullable(),
  /** The numbers asked for, each digit masked but the last four (`•••••••1001` for +12025551001). */
  numbers: z.array(z.string()),
  located: z.boolean(),
  source: LocateSource.nullable(),
  timeToLocateMs: millis,
});
export const UserStatistics = z.object({
  totals: CaseTotals,
  timeToLocateP50Ms: millis,
  timeToLocateP90Ms: millis,
  averageCaseMs: millis,
  /** The busiest weekday and hour of this user, or null without sessions. */
  busiest: CalendarCell.nullable(),
});
/** Uncertainty radius histogram bucket, metres: `[fromM, toM)`, `toM` null for the last. */
export const RadiusBucket = z.object({ fromM: count, toM: count.nullable(), sessions: count });
export const UncertaintyTotals = z.object({
  /** The first fix of each located session. */
  firstFix: z.array(RadiusBucket),
  /** The smallest radius each located session reached. */
  bestFix: z.array(RadiusBucket),
  firstFixP50M: z.number().min(0).nullable(),
  bestFixP50M: z.number().min(0).nullable(),
});
/**
 * Sign-ins from the audit trail: `succeeded` counts completed sign-ins (each once, whatever its
 * steps: password, code or passkey), `failed` refused attempts (a wrong password or second step,
 * each once; also a wrong current password when changing it, which the lockout counts alike).
 */
export const LoginDay = z.object({ day, succeeded: count, failed: count });
export const LoginTotals = z.object({
  succeeded: count,
  failed: count,
  /** Distinct users who signed in. */
  users: count,
  byDay: z.array(LoginDay),
});
export const UserLogins = z.object({
  users: z.array(
    z.object({
      userId: z.string().uuid(),
      name: z.string(),
      succeeded: count,
      failed: count,
      /** The member's last completed sign-in in the range; null without one. */
      lastSignInAt: z.string().datetime().nullable(),
    }),
  ),
});
/** Locus's own: from the locate request to the first fix on the dispatcher's map. */
export const TimeToLocateDay = z.object({
  day,
  source: LocateSource,
  located: count,
  p50Ms: millis,
  p90Ms: millis,
});
export const TimeToLocate = z.object({
  /** Every located session of the range, whatever its source. */
  combined: z.object({ located: count, p50Ms: millis, p90Ms: millis }),
  overall: z.array(
    z.object({ source: LocateSource, located: count, p50Ms: millis, p90Ms: millis }),
  ),
  byDay: z.array(TimeToLocateDay),
});
/** Locus's own: where texted callers are lost, step by step. */
export const FunnelSteps = z.object({
  /** Callers texted (counted once, on the day of their first text, in its range). */
  textsSent: count,
  /** Of those, callers a text reached by the carrier's report (a resent link counts too). */
  delivered: count,
  linkOpened: count,
  /** Callers whose page asked the browser for the position. */
  promptShown: count,
  /** Callers who shared: their page said so, or a position of theirs arrived. */
  shared: count,
  /** Callers who refused the permission and never shared. */
  denied: count,
  /** Opened the link but neither shared nor denied. */
  neverAnswered: count,
});
export const LinkFunnel = z.object({
  total: FunnelSteps,
  byDay: z.array(FunnelSteps.extend({ day })),
  byLanguage: z.array(FunnelSteps.extend({ language: SmsLanguage })),
});
/** Platform owner: every team side by side. */
export const PlatformTeamTotals = CaseTotals.extend({
  teamId: z.string().uuid(),
  teamName: z.string(),
  signIns: count,
});
export const PlatformMetrics = z.object({
  teams: z.array(PlatformTeamTotals),
  /** Sessions per month across the platform (UTC months). */
  growth: z.array(z.object({ month, sessions: count, activeTeams: count, newUsers: count })),
  logins: z.array(LoginDay),
});

const answer = <T extends z.ZodRawShape>(shape: T) => MetricsRange.extend(shape);

const teamCall = <T extends z.ZodTypeAny>(
  name: string,
  summary: string,
  description: string,
  body: T,
) =>
  ({
    method: 'GET',
    path: `/api/v1/location/${name}/:teamId/:from/:to`,
    summary,
    description,
    pathParams: TeamRangeParams,
    responses: { 200: body, ...errors },
  }) as const;

const userCall = <T extends z.ZodTypeAny>(
  name: string,
  summary: string,
  description: string,
  body: T,
) =>
  ({
    method: 'GET',
    path: `/api/v1/location/${name}/:userId/:from/:to`,
    summary,
    description,
    pathParams: UserRangeParams,
    responses: { 200: body, ...errors },
  }) as const;

const teamRule = ' Enterprise teams; team admins of the team or platform admins.';
const userRule =
  ' Team admins of an enterprise team the user belongs to (counting that team\u2019s sessions), or platform admins.';

export const metricsContract = c.router(
  {
    ctTotals: teamCall(
      'get-ct-totals',
      'Case totals: sessions, numbers, located, texts, transfers and chats',
      'The cards at the top of TEAM | USER METRICS.' + teamRule,
      answer({ totals: CaseTotals }),
    ),
    usage: teamCall(
      'get-usage',
      'How callers were located: automatic lookups, texted links, and sessions never located',
      'Each located session counts once, by the source of its first fix.' + teamRule,
      answer({ usage: Usage }),
    ),
    dailyTotals: teamCall(
      'get-daily-totals',
      'Sessions and located sessions per day (every day of the range, zeros included)',
      'Days are cut in the team\u2019s time zone.' + teamRule,
      answer({ days: z.array(DailyTotal) }),
    ),
    monthlyTotals: teamCall(
      'get-monthly-totals',
      'Sessions and located sessions per month of the range',
      'Months are cut in the team\u2019s time zone; the first and last may be partial.' + teamRule,
      answer({ months: z.array(MonthlyTotal) }),
    ),
    userSearchTotals: teamCall(
      'get-user-search-totals',
      'Per dispatcher of the team: sessions, located, and median time to locate',
      'Every member who started a session in the range, most sessions first.' + teamRule,
      answer({ users: z.array(UserSearchTotal) }),
    ),
    caseDurations: teamCall(
      'get-case-durations',
      'How long cases lasted, from start to end: median, 90th percentile and a histogram',
      'Sessions that ended in the range.' + teamRule,
      answer({ durations: CaseDurations }),
    ),
    caseTimeInterval: teamCall(
      'get-case-time-interval',
      'Busiest hours: sessions per weekday and hour (a calendar heat map)',
      'All 168 cells, zeros included, in the team\u2019s time zone.' + teamRule,
      answer({ cells: z.array(CalendarCell) }),
    ),
    languages: teamCall(
      'get-languages',
      'Callers texted per language, and how many of them shared their location',
      'The language of the link text each caller received.' + teamRule,
      answer({ languages: z.array(LanguageTotal) }),
    ),
    chatTotals: teamCall(
      'get-chat-totals',
      'Sessions with a chat, and the messages in them by side',
      'Counts only; the messages themselves are in each session\u2019s transcript.' + teamRule,
      answer({ chat: ChatTotals }),
    ),
    historicalSearches: teamCall(
      'get-historical-searches',
      'The team\u2019s sessions in the range, newest first (at most 500)',
      'Numbers are masked but for their last four digits.' + teamRule,
      answer({ searches: z.array(HistoricalSearch), truncated: z.boolean() }),
    ),
    userTotalUsage: userCall(
      'get-user-total-usage',
      'One user\u2019s case totals',
      'The same counts as `get-ct-totals`, for the sessions the user started.' + userRule,
      answer({ totals: CaseTotals }),
    ),
    userStatistics: userCall(
      'get-user-statistics',
      'One user\u2019s totals, time to locate, average case length and busiest hour',
      'For the per-user panel of TEAM | USER METRICS.' + userRule,
      answer({ statistics: UserStatistics }),
    ),
    userLanguages: userCall(
      'get-user-languages',
      'One user\u2019s callers per language',
      'As `get-languages`, for the sessions the user started.' + userRule,
      answer({ languages: z.array(LanguageTotal) }),
    ),
    userDailyTotals: userCall(
      'get-user-daily-totals',
      'One user\u2019s sessions and located sessions per day',
      'As `get-daily-totals`, for the sessions the user started.' + userRule,
      answer({ days: z.array(DailyTotal) }),
    ),
    userCalendarTotals: userCall(
      'get-user-calendar-totals',
      'One user\u2019s sessions per weekday and hour',
      'As `get-case-time-interval`, for the sessions the user started.' + userRule,
      answer({ cells: z.array(CalendarCell) }),
    ),
    timeToLocate: teamCall(
      'get-time-to-locate',
      'Time to locate: from the locate request to the first fix, p50 and p90 per day and source',
      'Locus\u2019s own measure: the first fix is the moment it reached Locus (and the dispatcher\u2019s map).' +
        teamRule,
      answer({ timeToLocate: TimeToLocate }),
    ),
    linkFunnel: teamCall(
      'get-link-funnel',
      'The link funnel: texts sent, delivered, link opened, prompt shown, shared, denied, never answered',
      'Locus\u2019s own measure, per day (the day the text was sent) and per language. One step per caller.' +
        teamRule,
      answer({ funnel: LinkFunnel }),
    ),
    uncertaintyRadiusTotals: {
      method: 'GET',
      path: '/api/v1/target-location/get-uncertainty-radius-totals/:teamId/:from/:to',
      summary: 'Accuracy: the uncertainty radius of each session\u2019s first fix and best fix',
      description:
        'Histograms in metres (0\u201310, 10\u201325, 25\u201350, 50\u2013100, 100\u2013250, 250\u2013500, 500\u20131,000, 1,000 and more) and medians.' +
        teamRule,
      pathParams: TeamRangeParams,
      responses: { 200: answer({ accuracy: UncertaintyTotals }), ...errors },
    },
    totalLogins: {
      method: 'GET',
      path: '/api/v1/login/get-total-logins/:teamId/:from/:to',
      summary: 'Sign-ins of the team\u2019s members: succeeded and failed, per day',
      description:
        'From the audit trail (every sign-in and failed sign-in is recorded).' + teamRule,
      pathParams: TeamRangeParams,
      responses: { 200: answer({ logins: LoginTotals }), ...errors },
    },
    userLogins: {
      method: 'GET',
      path: '/api/v1/login/get-user-logins/:teamId/:from/:to',
      summary: 'Sign-ins per member of the team: succeeded, failed, and the last one',
      description: 'Every member of the team, those who never signed in included.' + teamRule,
      pathParams: TeamRangeParams,
      responses: { 200: answer({ logins: UserLogins }), ...errors },
    },
    platform: {
      method: 'GET',
      path: '/api/v1/platform/metrics/:from/:to',
      summary: 'Platform admins: every team\u2019s totals side by side, growth per month, sign-ins',
      description: 'For PLATFORM METRICS. Days and months in UTC.',
      pathParams: PlatformRangeParams,
      responses: { 200: answer({ platform: PlatformMetrics }), ...errors },
    },
  },
  { strictStatusCodes: true },
);
