import type { CurrentUser, PermissionLevel, Team } from '@locus/contract';

/**
 * What a signed-in user may see, from SPEC.md §5 "Sidebar visibility" and §6. Levels belong to
 * teams: a user has a level when one of their active teams has it.
 */
export interface Permissions {
  /** isAdmin or isTeamAdmin: the Admin menu entry and the admin routes. */
  admin: boolean;
  premiere: boolean;
  enterprise: boolean;
  /** A member of the platform owner's own company: verification, dev and platform metrics. */
  platformOwner: boolean;
  /** The admin flag and a member of the platform owner's company: reads any team's metrics. */
  platformAdmin: boolean;
  /** A team admin of a coast-guard team: approves coast-guard users. */
  coastGuardAdmin: boolean;
}

function hasLevel(teams: Team[], level: PermissionLevel): boolean {
  return teams.some((team) => team.isActive && team.permissionLevels.includes(level));
}

export function permissionsOf(user: CurrentUser | null, teams: Team[]): Permissions {
  if (user === null) {
    return {
      admin: false,
      premiere: false,
      enterprise: false,
      platformOwner: false,
      platformAdmin: false,
      coastGuardAdmin: false,
    };
  }
  return {
    admin: user.isAdmin || user.isTeamAdmin,
    premiere: hasLevel(teams, 'premiere'),
    enterprise: hasLevel(teams, 'enterprise'),
    platformOwner: teams.some((team) => team.isActive && team.isPlatformOwner),
    platformAdmin: user.isAdmin && teams.some((team) => team.isActive && team.isPlatformOwner),
    coastGuardAdmin: teams.some(
      (team) => team.isActive && team.isCoastGuard && team.role === 'admin',
    ),
  };
}

/**
 * A permission a route or a menu item needs beyond signing in. `metrics`: the enterprise level,
 * or a platform admin, who reads the metrics of any enterprise team (issue 13).
 */
export type Requirement = 'admin' | 'premiere' | 'enterprise' | 'platform-owner' | 'metrics';

export function meets(permissions: Permissions, requirement: Requirement): boolean {
  switch (requirement) {
    case 'admin':
      return permissions.admin;
    case 'premiere':
      return permissions.premiere;
    case 'enterprise':
      return permissions.enterprise;
    case 'platform-owner':
      return permissions.platformOwner;
    case 'metrics':
      return permissions.enterprise || permissions.platformAdmin;
  }
}

export function meetsAll(permissions: Permissions, requirements: readonly Requirement[]): boolean {
  return requirements.every((requirement) => meets(permissions, requirement));
}
