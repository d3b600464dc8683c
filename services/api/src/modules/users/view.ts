import {
  ColorScheme,
  PermissionLevel,
  TeamCustomContent,
  type CurrentUser,
  type Team,
} from '@locus/contract';

/** A user's row as the views need it. */
export interface UserRow {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone_number: string | null;
  psap_id: number | null;
  company_name: string | null;
  is_admin: boolean;
  has_seen_walkthrough: boolean;
  email_confirmed_at: Date | null;
  uscg_status: string | null;
  registration_completed_at: Date | null;
  created_at: Date;
  color_scheme: string;
  /** An authenticator app is enrolled (only where the current user is loaded). */
  mfa_enabled?: boolean;
}

/** One of a user's teams, with the user's role on it; listed in the order they joined. */
export interface MembershipRow {
  team_id: string;
  team_name: string;
  is_active: boolean;
  is_platform_owner: boolean;
  is_coast_guard: boolean;
  permission_levels: string[];
  custom_content: unknown;
  /** The team requires multi-factor authentication of its members. */
  require_mfa?: boolean;
  role: string;
}

const emptyContent: TeamCustomContent = { links: { header: [], headerDropdown: [] } };

export function toTeam(row: MembershipRow): Team {
  const content = TeamCustomContent.safeParse(row.custom_content);
  return {
    id: row.team_id,
    teamName: row.team_name,
    isActive: row.is_active,
    isPlatformOwner: row.is_platform_owner,
    isCoastGuard: row.is_coast_guard,
    permissionLevels: row.permission_levels.filter(
      (level): level is PermissionLevel => PermissionLevel.safeParse(level).success,
    ),
    role: row.role === 'admin' ? 'admin' : 'member',
    customContent: content.success ? content.data : emptyContent,
  };
}

/** SPEC.md §3: the company name is the first active team's, else the agency the user typed. */
export function companyName(
  user: Pick<UserRow, 'company_name'>,
  teams: readonly MembershipRow[],
): string | null {
  return teams.find((team) => team.is_active)?.team_name ?? user.company_name;
}

const uscgStates = ['pending', 'approved', 'rejected'] as const;

/** `users.uscg_status` as the contract (and the registration machine) name it. */
export function uscgApprovalOf(status: string | null | undefined): CurrentUser['uscgApproval'] {
  return uscgStates.find((state) => state === status) ?? null;
}

export function toCurrentUser(user: UserRow, teams: readonly MembershipRow[]): CurrentUser {
  const uscg = uscgApprovalOf(user.uscg_status);
  return {
    id: user.id,
    firstName: user.first_name,
    lastName: user.last_name,
    email: user.email,
    phoneNumber: user.phone_number,
    psapId: user.psap_id,
    companyName: companyName(user, teams),
    isAdmin: user.is_admin,
    isTeamAdmin: teams.some((team) => team.role === 'admin'),
    hasSeenWalkthrough: user.has_seen_walkthrough,
    emailConfirmed: user.email_confirmed_at !== null,
    uscgApproval: uscg,
    registrationComplete: user.registration_completed_at !== null,
    // The column is text to Kysely; its check constraint allows only these values.
    colorScheme: ColorScheme.catch('auto').parse(user.color_scheme),
    mfaEnabled: user.mfa_enabled ?? false,
    mfaRequired: !user.mfa_enabled && teams.some((team) => team.require_mfa === true),
  };
}
