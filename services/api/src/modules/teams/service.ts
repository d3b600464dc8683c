import {
  PermissionLevel,
  TeamCustomContent,
  type CreateTeamBody,
  type CustomContentBody,
  type ManagedTeam,
  type PatchTeamBody,
  type PermissionCheck,
  type Psap,
  type Team,
  type TeamListQuery,
} from '@locus/contract';
import type { Database } from '@locus/db';
import { ApiError } from '../../http/errors';
import { recordAudit } from '../audit/repo';
import type { Principal } from '../auth/guard';
import { findMemberships } from '../users/repo';
import { toTeam } from '../users/view';
import {
  addTeamPsap,
  databaseKnowsTimeZone,
  findTeam,
  findTeamByName,
  insertTeam,
  isDuplicateTeamName,
  listTeams,
  lockTeam,
  psapExists,
  removeTeamPsaps,
  setCustomContent,
  teamPsaps,
  updateTeam,
  type TeamRow,
} from './repo';

/**
 * SPEC.md §6 for teams: members of a team read its links and agencies; its admins (and platform
 * admins) change them, its time zone and how long its history is kept (issue 15); only platform
 * admins create teams, rename them, (de)activate them or set their levels. A team the caller is
 * not a member of answers 404, so that another agency's team is indistinguishable from one that
 * does not exist; a member refused an admin action gets 403.
 */
const isMember = (principal: Principal, teamId: string) =>
  principal.isPlatformAdmin || principal.teamIds.includes(teamId);
const isAdminOf = (principal: Principal, teamId: string) =>
  principal.isPlatformAdmin || principal.adminTeamIds.includes(teamId);

/** Who the request came from, for the audit trail. */
export interface Actor {
  principal: Principal;
  ip: string;
}

const teamNotFound = () => new ApiError(404, 'not-found', 'No such team.');
const notAdmin = () => new ApiError(403, 'forbidden', 'Only admins of this team can change it.');
const platformOnly = () =>
  new ApiError(
    403,
    'forbidden',
    'Only Locus platform admins can create teams, rename them, (de)activate them or change their level.',
  );
const duplicateName = () => new ApiError(409, 'conflict', 'Another team already has this name.');

const emptyContent: TeamCustomContent = { links: { header: [], headerDropdown: [] } };

function contentOf(stored: unknown): TeamCustomContent {
  const parsed = TeamCustomContent.safeParse(stored);
  return parsed.success ? parsed.data : emptyContent;
}

function levelsOfRow(levels: readonly string[]): PermissionLevel[] {
  return levels.filter(
    (level): level is PermissionLevel => PermissionLevel.safeParse(level).success,
  );
}

function toManagedTeam(row: TeamRow): ManagedTeam {
  return {
    id: row.id,
    teamName: row.team_name,
    isActive: row.is_active,
    isPlatformOwner: row.is_platform_owner,
    isCoastGuard: row.is_coast_guard,
    permissionLevels: levelsOfRow(row.permission_levels),
    customContent: contentOf(row.custom_content),
    memberCount: row.member_count,
    timeZone: row.time_zone,
    retentionDays: row.retention_days,
    recordMedia: row.record_media,
    createdAt: row.created_at.toISOString(),
  };
}

async function readTeam(db: Database, id: string): Promise<ManagedTeam> {
  const row = await findTeam(db, id);
  if (!row) throw teamNotFound();
  return toManagedTeam(row);
}

/** 404 unless a member (or platform admin), then 403 unless an admin of the team. */
function requireAdminOf(principal: Principal, teamId: string): void {
  if (!isMember(principal, teamId)) throw teamNotFound();
  if (!isAdminOf(principal, teamId)) throw notAdmin();
}

/**
 * Runs a change to a team in a transaction holding its row lock (a team deleted meanwhile
 * answers 404); the audit row is written in the same transaction, so a refused or failed change
 * leaves neither.
 */
async function changeTeam<T>(
  db: Database,
  teamId: string,
  change: (trx: Database, team: { id: string; is_platform_owner: boolean }) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const team = await lockTeam(trx, teamId);
    if (!team) throw teamNotFound();
    return change(trx, team);
  });
}

export async function listManagedTeams(
  db: Database,
  principal: Principal,
  query: TeamListQuery,
): Promise<{ items: ManagedTeam[]; total: number; page: number; pageSize: number }> {
  if (!principal.isPlatformAdmin && principal.adminTeamIds.length === 0) {
    throw new ApiError(403, 'forbidden', 'Only team admins and platform admins can list teams.');
  }
  const { rows, total } = await listTeams(db, {
    teamIds: principal.isPlatformAdmin ? undefined : principal.adminTeamIds,
    search: query.search,
    page: query.page,
    pageSize: query.pageSize,
  });
  return { items: rows.map(toManagedTeam), total, page: query.page, pageSize: query.pageSize };
}

export async function createTeam(
  db: Database,
  { principal, ip }: Actor,
  body: CreateTeamBody,
): Promise<ManagedTeam> {
  if (!principal.isPlatformAdmin) throw platformOnly();
  try {
    return await db.transaction().execute(async (trx) => {
      const id = await insertTeam(trx, body);
      await recordAudit(trx, {
        actorUserId: principal.userId,
        action: 'team.created',
        subject: id,
        detail: {
          teamName: body.teamName,
          isActive: body.isActive,
          permissionLevels: body.permissionLevels,
        },
        teamId: id,
        ip,
      });
      return readTeam(trx, id);
    });
  } catch (error) {
    if (isDuplicateTeamName(error)) throw duplicateName();
    throw error;
  }
}

export async function getTeam(
  db: Database,
  principal: Principal,
  id: string,
): Promise<ManagedTeam> {
  requireAdminOf(principal, id);
  return readTeam(db, id);
}

export async function patchTeam(
  db: Database,
  { principal, ip }: Actor,
  id: string,
  patch: PatchTeamBody,
): Promise<ManagedTeam> {
  if (!isMember(principal, id)) throw teamNotFound();
  if (!principal.isPlatformAdmin) {
    // The zone (issue 13) and how long the team keeps its history (issue 15: the agency's
    // records policy) are the team's own business; what Locus sells and names is not.
    const lockedFields = [patch.teamName, patch.isActive, patch.permissionLevels];
    if (lockedFields.some((value) => value !== undefined)) throw platformOnly();
    if (!isAdminOf(principal, id)) throw notAdmin();
  }
  if (patch.timeZone !== undefined && !(await databaseKnowsTimeZone(db, patch.timeZone))) {
    const message = 'The database does not know this time zone. Choose another.';
    throw new ApiError(400, 'validation-failed', message, [{ path: 'timeZone', message }]);
  }
  try {
    return await changeTeam(db, id, async (trx, team) => {
      if (patch.isActive === false && team.is_platform_owner) {
        throw new ApiError(
          409,
          'conflict',
          'The platform owner’s own team cannot be deactivated: its admins would lose the admin area.',
        );
      }
      const before = await readTeam(trx, id);
      await updateTeam(trx, id, patch);
      const after = await readTeam(trx, id);
      const changed: Record<string, string | number | boolean | string[] | null> = {};
      if (before.teamName !== after.teamName) changed.teamName = after.teamName;
      if (before.timeZone !== after.timeZone) changed.timeZone = after.timeZone;
      // null: back to the deployment's default.
      if (before.retentionDays !== after.retentionDays) changed.retentionDays = after.retentionDays;
      if (before.recordMedia !== after.recordMedia) changed.recordMedia = after.recordMedia;
      if (before.isActive !== after.isActive) changed.isActive = after.isActive;
      if (before.permissionLevels.join() !== after.permissionLevels.join())
        changed.permissionLevels = after.permissionLevels;
      if (Object.keys(changed).length > 0) {
        await recordAudit(trx, {
          actorUserId: principal.userId,
          action: 'team.updated',
          subject: id,
          detail: changed,
          teamId: id,
          ip,
        });
      }
      return after;
    });
  } catch (error) {
    if (isDuplicateTeamName(error)) throw duplicateName();
    throw error;
  }
}

export async function getCustomContent(
  db: Database,
  principal: Principal,
  id: string,
): Promise<CustomContentBody> {
  if (!isMember(principal, id)) throw teamNotFound();
  return { customContent: (await readTeam(db, id)).customContent };
}

export async function editCustomContent(
  db: Database,
  { principal, ip }: Actor,
  id: string,
  body: CustomContentBody,
): Promise<CustomContentBody> {
  requireAdminOf(principal, id);
  return changeTeam(db, id, async (trx) => {
    await setCustomContent(trx, id, body.customContent);
    const { links } = body.customContent;
    await recordAudit(trx, {
      actorUserId: principal.userId,
      action: 'team.custom-content',
      subject: id,
      detail: {
        header: links.header.map((link) => link.link),
        headerDropdown: links.headerDropdown.map((link) => link.link),
      },
      teamId: id,
      ip,
    });
    return { customContent: body.customContent };
  });
}

export async function listTeamPsaps(
  db: Database,
  principal: Principal,
  id: string,
): Promise<Psap[]> {
  if (!isMember(principal, id)) throw teamNotFound();
  await readTeam(db, id);
  return teamPsaps(db, id);
}

export async function addPsapToTeam(
  db: Database,
  { principal, ip }: Actor,
  id: string,
  psapId: number,
): Promise<Psap[]> {
  requireAdminOf(principal, id);
  return changeTeam(db, id, async (trx) => {
    if (!(await psapExists(trx, psapId))) throw new ApiError(404, 'not-found', 'No such agency.');
    if (await addTeamPsap(trx, id, psapId)) {
      await recordAudit(trx, {
        actorUserId: principal.userId,
        action: 'team.agency-added',
        subject: id,
        detail: { psapId },
        teamId: id,
        ip,
      });
    }
    return teamPsaps(trx, id);
  });
}

export async function removePsapsFromTeam(
  db: Database,
  { principal, ip }: Actor,
  id: string,
  psapIds: readonly number[],
): Promise<Psap[]> {
  requireAdminOf(principal, id);
  return changeTeam(db, id, async (trx) => {
    const removed = await removeTeamPsaps(trx, id, psapIds);
    if (removed.length > 0) {
      await recordAudit(trx, {
        actorUserId: principal.userId,
        action: 'team.agencies-removed',
        subject: id,
        detail: { psapIds: removed.map(String) },
        teamId: id,
        ip,
      });
    }
    return teamPsaps(trx, id);
  });
}

/**
 * The team of user `userId`: their first active team (SPEC.md §3 "the first team in the
 * user's list"). A team admin asking about someone else sees only the teams they administer,
 * never that user's other agencies.
 */
export async function userTeam(db: Database, principal: Principal, userId: string): Promise<Team> {
  const visible = (teamId: string) =>
    userId === principal.userId ||
    principal.isPlatformAdmin ||
    principal.adminTeamIds.includes(teamId);
  const team = (await findMemberships(db, userId)).find(
    (membership) => membership.is_active && visible(membership.team_id),
  );
  if (!team) throw new ApiError(404, 'not-found', 'No such user, or they have no active team.');
  return toTeam(team);
}

export async function checkPermissionLevel(
  db: Database,
  principal: Principal,
  teamName: string,
  level: PermissionLevel,
): Promise<PermissionCheck> {
  const team = await findTeamByName(db, teamName);
  if (!team || !isMember(principal, team.id)) throw teamNotFound();
  return { hasPermission: team.is_active && team.permission_levels.includes(level) };
}
