import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { Psap } from './accounts';
import { PageQuery, pageOf } from './admin-common';
import { PermissionLevel, Team, TeamCustomContent } from './auth';
import { IntegerIdParam, maxIntegerId } from './database-ids';
import { ErrorBody } from './errors';

const c = initContract();
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody };

export const teamLimits = {
  nameMaxLength: 100,
  searchMaxLength: 100,
  /** Agencies one DELETE /api/v1/teams/{id}/psap removes at most. */
  psapsPerRemove: 100,
} as const;

/**
 * A team's permission level as the screens offer it. SPEC.md §6: `premiere` unlocks Overwatch,
 * `enterprise` unlocks metrics and the API page. Basic is a team with neither. The API stores
 * the levels as a list (`permissionLevels`); enterprise is sold on top of premiere, so the
 * screens set `['premiere', 'enterprise']` for it (see {@link levelsOf}).
 */
export const TeamLevel = z.enum(['basic', 'premiere', 'enterprise']);
export type TeamLevel = z.infer<typeof TeamLevel>;

export const teamLevelLabels: Record<TeamLevel, string> = {
  basic: 'Basic',
  premiere: 'Premiere',
  enterprise: 'Enterprise',
};

/** The levels a team at `level` has. */
export function levelsOf(level: TeamLevel): PermissionLevel[] {
  if (level === 'enterprise') return ['premiere', 'enterprise'];
  if (level === 'premiere') return ['premiere'];
  return [];
}

/** The highest level among a team's levels. */
export function levelOf(levels: readonly PermissionLevel[]): TeamLevel {
  if (levels.includes('enterprise')) return 'enterprise';
  if (levels.includes('premiere')) return 'premiere';
  return 'basic';
}

export const TeamName = z
  .string()
  .trim()
  .min(1, 'Required')
  .max(teamLimits.nameMaxLength, `At most ${teamLimits.nameMaxLength} characters`);

let knownTimeZones: ReadonlySet<string> | undefined;

/**
 * The IANA time zones a team may be set to: those this runtime's Intl knows, and `UTC` (which
 * `Intl.supportedValuesOf` leaves out). Read once, on first use.
 */
function timeZoneSet(): ReadonlySet<string> {
  knownTimeZones ??= new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);
  return knownTimeZones;
}

export function timeZoneNames(): string[] {
  return [...timeZoneSet()].sort();
}

/**
 * Listed, or another IANA name for a listed zone: runtimes name some zones differently
 * (`Asia/Kolkata` in a newer browser, `Asia/Calcutta` in Node 20's ICU), and a zone the screen
 * offered must not be refused by the API. Spelled as IANA spells it (`asia/kolkata`, which Intl
 * also accepts, is not).
 */
export function isTimeZone(value: string): boolean {
  const known = timeZoneSet();
  if (known.has(value)) return true;
  if (!/^[A-Z][A-Za-z_]*(?:\/[A-Z][\w+-]*)+$/.test(value)) return false;
  try {
    return known.has(
      new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone,
    );
  } catch {
    return false;
  }
}

/**
 * A team's time zone (issue 13): its metrics cut days and months in it, and the chat transcript
 * shows times in it beside UTC. An IANA name, exactly as listed (`America/New_York`).
 */
export const TeamTimeZone = z
  .string()
  .trim()
  .max(64)
  .refine(isTimeZone, 'Must be an IANA time zone, for example America/New_York');

export const teamRetentionLimits = { minDays: 1, maxDays: 3650 } as const;

const wholeDays = 'Must be a whole number of days';
const retentionRange = `Must be between ${teamRetentionLimits.minDays} and ${teamRetentionLimits.maxDays} days`;

/**
 * How many days after a session ended its location history and chat are deleted (issue 15, the
 * `retention.purge` job); sessions under a legal hold are kept. The same bounds as the column's
 * check (migration 2026-11-29T15-00).
 */
export const TeamRetentionDays = z
  .number({ invalid_type_error: wholeDays })
  .int(wholeDays)
  .min(teamRetentionLimits.minDays, retentionRange)
  .max(teamRetentionLimits.maxDays, retentionRange);

/** Levels as sent: each at most once (a repeated one is dropped), in a stable order. */
const PermissionLevels = z
  .array(PermissionLevel)
  .max(10)
  .transform((levels) => PermissionLevel.options.filter((level) => levels.includes(level)));

/**
 * SPEC.md §3 "Team" as an admin sees it: without the caller's own role on it, with how many
 * members it has.
 */
export const ManagedTeam = Team.omit({ role: true }).extend({
  memberCount: z.number().int().nonnegative(),
  /** IANA time zone (see {@link TeamTimeZone}); new teams start in America/New_York. */
  timeZone: z.string(),
  /**
   * Days its ended sessions' history and chat are kept (see {@link TeamRetentionDays}); null:
   * the deployment's default (`LOCATION_RETENTION_DAYS`, 90 unless configured).
   */
  retentionDays: z.number().int().nullable(),
  /** Issue 19: the video of its sessions is recorded and kept as evidence (default off). */
  recordMedia: z.boolean(),
  /** ISO 8601, UTC. */
  createdAt: z.string().datetime(),
});
export type ManagedTeam = z.infer<typeof ManagedTeam>;

export const TeamListQuery = PageQuery.extend({
  /** Part of the team's name, ignoring case; `%` and `_` match literally. */
  search: z.string().trim().max(teamLimits.searchMaxLength).default(''),
});
export type TeamListQuery = z.infer<typeof TeamListQuery>;

export const CreateTeamBody = z
  .object({
    teamName: TeamName,
    isActive: z.boolean().default(true),
    permissionLevels: PermissionLevels.default([]),
  })
  .strict();
export type CreateTeamBody = z.infer<typeof CreateTeamBody>;

export const PatchTeamBody = z
  .object({
    teamName: TeamName.optional(),
    isActive: z.boolean().optional(),
    permissionLevels: PermissionLevels.optional(),
    timeZone: TeamTimeZone.optional(),
    /** null: back to the deployment's default. */
    retentionDays: TeamRetentionDays.nullable().optional(),
    recordMedia: z.boolean().optional(),
  })
  .strict();
export type PatchTeamBody = z.infer<typeof PatchTeamBody>;

/** The body and answer of the custom-content calls. */
export const CustomContentBody = z.object({ customContent: TeamCustomContent }).strict();
export type CustomContentBody = z.infer<typeof CustomContentBody>;

/** The answer of checkPermissionLevel. */
export const PermissionCheck = z.object({ hasPermission: z.boolean() });
export type PermissionCheck = z.infer<typeof PermissionCheck>;

/** A comma-separated list of agency ids in one query value (`1,2,3`), deduplicated. */
const psapIdList = z
  .string()
  .transform((value) => [...new Set(value.split(',').map((part) => part.trim()))])
  .pipe(
    z
      .array(
        z
          .string()
          .regex(/^[1-9][0-9]{0,9}$/, 'Agency ids are positive whole numbers')
          .transform(Number)
          .pipe(z.number().int().max(maxIntegerId)),
      )
      .min(1)
      .max(teamLimits.psapsPerRemove),
  );

const TeamId = z.object({ id: z.string().uuid() });

const READ =
  'Members of the team and platform admins. A team the caller is not a member of answers 404 ' +
  '`not-found`, exactly as one that does not exist.';
const ADMIN_WRITE =
  'Admins of the team and platform admins. A team the caller is not a member of answers 404 ' +
  '`not-found`; a member who is not its admin gets 403 `forbidden`. A refused request changes ' +
  'nothing.';

const permissionCheck = (level: PermissionLevel) => ({
  method: 'GET' as const,
  path: `/api/v1/teams/checkPermissionLevel/:teamName/${level}`,
  summary: `Whether the named team has the ${level} level: \`{ hasPermission }\``,
  description:
    `\`teamName\` is the team's name (ignoring case). \`hasPermission\` is true when the team ` +
    `is active and has the ${level} level. Only for a team the caller is a member of (platform ` +
    `admins: any team); any other name answers 404 \`not-found\`.`,
  pathParams: z.object({ teamName: TeamName }),
  responses: { 200: PermissionCheck, ...errors },
});

/**
 * SPEC.md §7 Teams, but for the members calls (`/api/v1/teams/{id}/users…`, module
 * team-members) and the security policy (`/api/v1/teams/{id}/security`, auth-sessions).
 */
export const teamsContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/api/v1/teams',
      summary: 'Teams, by name, one page at a time; `search` matches part of the name',
      description:
        'Platform admins: every team. Team admins: the teams they administer. Anyone else ' +
        'gets 403 `forbidden`. Ordered by name ignoring case, then id.',
      query: TeamListQuery,
      responses: { 200: pageOf(ManagedTeam), ...errors },
    },
    create: {
      method: 'POST',
      path: '/api/v1/teams',
      summary: 'Create a team (platform admins only)',
      description:
        '`permissionLevels` empty is the basic level. A name another team has (ignoring case) ' +
        'is 409 `conflict`. Anyone but a platform admin gets 403 `forbidden`.',
      body: CreateTeamBody,
      responses: { 201: ManagedTeam, ...errors, 409: ErrorBody },
    },
    get: {
      method: 'GET',
      path: '/api/v1/teams/:id',
      summary: 'One team',
      description:
        'Admins of the team and platform admins; a member who is not its admin gets 403 ' +
        '`forbidden`; a team the caller is not a member of answers 404 `not-found`.',
      pathParams: TeamId,
      responses: { 200: ManagedTeam, ...errors },
    },
    update: {
      method: 'PATCH',
      path: '/api/v1/teams/:id',
      summary:
        'Rename a team, (de)activate it, set its permission levels, its time zone or its retention',
      description:
        'Platform admins. Admins of the team may set `timeZone` (the zone its metrics cut days ' +
        'and months in) and `retentionDays` (how many days, 1–3650, its ended sessions’ ' +
        'location history and chat are kept before the daily purge deletes them; null: the ' +
        'deployment’s default, `LOCATION_RETENTION_DAYS`, 90 unless configured) and ' +
        '`recordMedia` (issue 19: the video of its sessions is recorded as evidence): any other ' +
        'field in their request is 403 `forbidden`, as is ' +
        'any request from a member who is not its admin; a team the caller is not a member of ' +
        'answers 404 `not-found`. A refused request changes nothing. A zone that is not an IANA ' +
        'name is 400 `validation-failed` naming `timeZone`; a retention that is not a whole ' +
        'number from 1 to 3650 is 400 `validation-failed` naming `retentionDays`. A name another ' +
        'team has (ignoring case) is 409 `conflict`; so is deactivating the platform owner’s ' +
        'own team (its admins would lose the admin area). Fields left out keep their value.',
      pathParams: TeamId,
      body: PatchTeamBody,
      responses: { 200: ManagedTeam, ...errors, 409: ErrorBody },
    },
    editCustomContent: {
      method: 'PATCH',
      path: '/api/v1/teams/editCustomContent/:id',
      summary: 'Replace the team’s custom links (header and header dropdown)',
      description:
        'Each link has a `name` (1–60 characters) and an `https:` `link`; at most 10 per list. ' +
        'A bad one is 400 `validation-failed` naming the field (for example ' +
        '`customContent.links.header.0.link`) and nothing is saved. Members see the links in ' +
        `their user menu, opened in a new tab. ${ADMIN_WRITE}`,
      pathParams: TeamId,
      body: CustomContentBody,
      responses: { 200: CustomContentBody, ...errors },
    },
    getCustomContent: {
      method: 'GET',
      path: '/api/v1/teams/getCustomContent/:id',
      summary: 'The team’s custom links',
      description: READ,
      pathParams: TeamId,
      responses: { 200: CustomContentBody, ...errors },
    },
    psaps: {
      method: 'GET',
      path: '/api/v1/teams/:id/psap',
      summary: 'The team’s agencies (PSAPs), by name',
      description: READ,
      pathParams: TeamId,
      responses: { 200: z.array(Psap), ...errors },
    },
    addPsap: {
      method: 'POST',
      path: '/api/v1/teams/:id/psap/:psapId',
      summary: 'Add an agency to the team; answers the team’s agencies',
      description: `An unknown agency answers 404 \`not-found\`. Adding one the team has changes nothing. ${ADMIN_WRITE}`,
      pathParams: z.object({ id: z.string().uuid(), psapId: IntegerIdParam }),
      body: c.noBody(),
      responses: { 200: z.array(Psap), ...errors },
    },
    removePsaps: {
      method: 'DELETE',
      path: '/api/v1/teams/:id/psap',
      summary:
        'Remove agencies from the team: query `psapIds`, comma-separated (`?psapIds=12,40`); answers the team’s agencies',
      description:
        'The agencies are named in the query rather than a body, which some clients and proxies ' +
        `drop from a DELETE. At most 100; ids the team does not have are ignored. ${ADMIN_WRITE}`,
      pathParams: TeamId,
      query: z.object({ psapIds: psapIdList }),
      body: c.noBody(),
      responses: { 200: z.array(Psap), ...errors },
    },
    userTeam: {
      method: 'GET',
      path: '/api/v1/teams/get-user-team/:id',
      summary: 'The team of user `id`: their first active team, with that user’s role on it',
      description:
        'Yourself: your first active team (by when you joined). Platform admins: anyone’s. ' +
        'Team admins: the first active team of that user among the teams they administer. Any ' +
        'other user, or a user with no such team, answers 404 `not-found`.',
      pathParams: TeamId,
      responses: { 200: Team, ...errors },
    },
    checkPremiere: permissionCheck('premiere'),
    checkEnterprise: permissionCheck('enterprise'),
  },
  { strictStatusCodes: true },
);
