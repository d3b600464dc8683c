import type { Database } from '@locus/db';
import { ApiError } from '../../http/errors';
import { administersTeam, type Principal } from '../auth/guard';
import { findOverwatchTeams as findTeams } from './watch-repo';

/** A team as Overwatch's access rules need it. */
export interface OverwatchTeam {
  id: string;
  name: string;
}

export const notPremiere = () =>
  new ApiError(
    403,
    'forbidden',
    'Overwatch is part of the premiere level. Ask your agency administrator or Locus to upgrade your team.',
  );
const notAdmin = () =>
  new ApiError(403, 'forbidden', 'Only admins and team admins can use Overwatch.');
const noSuchTeam = () => new ApiError(404, 'not-found', 'No such team.');

/**
 * Issue 14 and SPEC.md §2/§6: Overwatch is for admins and team admins of an active team with
 * the premiere level. Another team is 404 (its existence is not confirmed), a dispatcher 403, a
 * team below premiere 403. Without `teamId`: the first team the user administers that has it.
 */
export async function requireOverwatchTeam(
  db: Database,
  principal: Principal,
  teamId?: string,
): Promise<OverwatchTeam> {
  if (teamId !== undefined) {
    if (!principal.isPlatformAdmin && !principal.teamIds.includes(teamId)) throw noSuchTeam();
    const [team] = await findTeams(db, [teamId]);
    if (!team) throw noSuchTeam();
    if (!administersTeam(principal, team.id)) throw notAdmin();
    if (!team.is_active || !team.permission_levels.includes('premiere')) throw notPremiere();
    return { id: team.id, name: team.team_name };
  }
  const administered = principal.teamIds.filter((id) => administersTeam(principal, id));
  if (administered.length === 0) throw notAdmin();
  const teams = await findTeams(db, administered);
  const premiere = administered
    .map((id) => teams.find((team) => team.id === id))
    .find((team) => team?.is_active && team.permission_levels.includes('premiere'));
  if (!premiere) throw notPremiere();
  return { id: premiere.id, name: premiere.team_name };
}

/** The teams the user may run Overwatch for (a list screen's scope). */
export async function overwatchTeamIds(db: Database, principal: Principal): Promise<string[]> {
  const administered = principal.teamIds.filter((id) => administersTeam(principal, id));
  const teams = await findTeams(db, administered);
  return teams
    .filter((team) => team.is_active && team.permission_levels.includes('premiere'))
    .map((team) => team.id);
}
