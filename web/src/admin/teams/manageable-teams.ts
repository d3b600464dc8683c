import type { CurrentUser, Team } from '@locus/contract';

/**
 * The teams whose call lists the user manages (SPEC.md §6): those on which they have the admin
 * role, or every team they belong to for a platform admin (the admin flag and a member of the
 * platform owner's team). Listing every team of the platform waits for the Teams API.
 */
export function manageableTeams(user: CurrentUser | null, teams: Team[]): Team[] {
  if (user === null) return [];
  const platformAdmin = user.isAdmin && teams.some((team) => team.isPlatformOwner);
  return teams.filter((team) => platformAdmin || team.role === 'admin');
}
