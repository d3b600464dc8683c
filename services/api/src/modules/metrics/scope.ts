import type { MetricsRange } from '@locus/contract';
import type { Database } from '@locus/db';
import { ApiError } from '../../http/errors';
import type { Principal } from '../auth/guard';
import { findMetricsTeam, findMetricsTeamsOfUser, type MetricsTeamRow } from './scope-repo';

/**
 * What one metrics call counts: one team's sessions (optionally only those one user started), in
 * an inclusive range of days cut in the team's time zone.
 */
export interface MetricsScope extends MetricsRange {
  teamId: string;
  /** Only the sessions this user started (the `get-user-…` calls). */
  userId?: string;
}

/** Platform metrics: every team, days in UTC. */
export type PlatformScope = MetricsRange;

const notFound = () => new ApiError(404, 'not-found', 'No such team.');
const notEnterprise = () =>
  new ApiError(
    403,
    'forbidden',
    'Metrics are part of the enterprise level. Ask Locus to upgrade your team.',
  );
const notAdmin = () => new ApiError(403, 'forbidden', 'Only team admins can see metrics.');

const isEnterprise = (team: MetricsTeamRow) => team.permission_levels.includes('enterprise');

/**
 * SPEC.md §5/§6 and issue 13: another team's metrics are 404 (its existence is not confirmed),
 * a dispatcher of the team 403, a team below enterprise level 403, for platform admins too.
 */
export async function teamScope(
  db: Database,
  principal: Principal,
  params: { teamId: string; from: string; to: string },
): Promise<MetricsScope> {
  const team = await findMetricsTeam(db, params.teamId);
  if (!team) throw notFound();
  if (!principal.isPlatformAdmin) {
    if (!principal.teamIds.includes(team.id)) throw notFound();
    if (!principal.adminTeamIds.includes(team.id)) throw notAdmin();
  }
  if (!isEnterprise(team)) throw notEnterprise();
  return { teamId: team.id, timeZone: team.time_zone, from: params.from, to: params.to };
}

/**
 * A user's metrics count the sessions they started for a team the caller administers (the first
 * such enterprise team); platform admins see the user's first enterprise team. A user who shares
 * no team with the caller is 404.
 */
export async function userScope(
  db: Database,
  principal: Principal,
  params: { userId: string; from: string; to: string },
): Promise<MetricsScope> {
  const teams = await findMetricsTeamsOfUser(db, params.userId);
  const visible = principal.isPlatformAdmin
    ? teams
    : teams.filter((team) => principal.teamIds.includes(team.id));
  if (visible.length === 0) throw new ApiError(404, 'not-found', 'No such user.');
  const administered = principal.isPlatformAdmin
    ? visible
    : visible.filter((team) => principal.adminTeamIds.includes(team.id));
  if (administered.length === 0) throw notAdmin();
  const team = administered.find(isEnterprise);
  if (!team) throw notEnterprise();
  return {
    teamId: team.id,
    userId: params.userId,
    timeZone: team.time_zone,
    from: params.from,
    to: params.to,
  };
}

export function platformScope(
  principal: Principal,
  params: { from: string; to: string },
): PlatformScope {
  if (!principal.isPlatformAdmin)
    throw new ApiError(403, 'forbidden', 'Only platform admins can see platform metrics.');
  return { from: params.from, to: params.to, timeZone: 'UTC' };
}

/** Every answer repeats the range and the zone its days were cut in. */
export function rangeOf(scope: MetricsRange): MetricsRange {
  return { from: scope.from, to: scope.to, timeZone: scope.timeZone };
}
