import type { Database } from '@locus/db';
import { ApiError } from '../../http/errors';
import { administersTeam, type Principal } from '../auth/guard';
import { findTeamLevels } from './keys-repo';

/**
 * SPEC.md §2/§5 and issue 15: a team's partner access is managed by its team admins (and admins
 * on it); new keys need the team active and at the enterprise level. Platform admins manage any
 * team's. A team the user is not on is 404, so its existence is not confirmed.
 */
export async function requireEnterpriseTeamAdmin(
  db: Database,
  principal: Principal,
  teamId: string,
  { creating }: { creating: boolean },
): Promise<{ id: string; name: string }> {
  const onTeam = principal.teamIds.includes(teamId);
  if (!principal.isPlatformAdmin && !onTeam) throw new ApiError(404, 'not-found', 'No such team.');
  const team = await findTeamLevels(db, teamId);
  if (!team) throw new ApiError(404, 'not-found', 'No such team.');
  if (!administersTeam(principal, teamId))
    throw new ApiError(403, 'forbidden', 'Only team admins can manage partner API keys.');
  // Creating needs the level; listing and revoking do not, so that a team that lost it (and may
  // get it back, which wakes its keys) can still revoke a leaked key.
  if (creating && (!team.isActive || !team.levels.includes('enterprise')))
    throw new ApiError(
      403,
      'forbidden',
      'Partner API access is part of the enterprise level. Contact Locus to upgrade your team.',
    );
  return { id: team.id, name: team.name };
}
