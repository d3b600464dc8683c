import type { TeamMember, TeamMembersPage, TeamRole } from '@locus/contract';
import type { Database } from '@locus/db';
import { ApiError } from '../../http/errors';
import type { AppDeps } from '../../platform/deps';
import { recordAudit } from '../audit/repo';
import type { Principal } from '../auth/guard';
import { revokeUserSessions } from '../auth/repo';
import { revokeUserRealtimeAccess } from '../sessions/revocation';
import {
  countAdmins,
  deleteMember,
  findMember,
  insertMember,
  isMemberOfAny,
  listMembers,
  lockTeam,
  setMemberRole,
  teamExists,
  userExists,
  type MemberRow,
} from './repo';

export type TeamMembersDeps = Pick<AppDeps, 'db' | 'redis' | 'config'>;

/** Who did it and from where, for the audit trail. */
export interface Actor {
  principal: Principal;
  ip: string;
}

const teamNotFound = () => new ApiError(404, 'not-found', 'No such team.');
const memberNotFound = () =>
  new ApiError(404, 'not-found', 'This user is not a member of this team.');
const userNotFound = () => new ApiError(404, 'not-found', 'No such user.');
const lastAdmin = (what: 'remove' | 'demote') =>
  new ApiError(
    409,
    'conflict',
    what === 'remove'
      ? 'This is the last team admin of this team. Make another member a team admin before removing them.'
      : 'This is the last team admin of this team. Make another member a team admin before changing their role.',
  );

/** Platform admins manage every team, team admins their own; any other team answers 404. */
const manages = (principal: Principal, teamId: string) =>
  principal.isPlatformAdmin || principal.adminTeamIds.includes(teamId);

function toMember(row: MemberRow): TeamMember {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    emailConfirmed: row.email_confirmed_at !== null,
    role: row.role === 'admin' ? 'admin' : 'member',
    addedAt: row.added_at.toISOString(),
  };
}

async function readableTeam(db: Database, principal: Principal, teamId: string): Promise<void> {
  if (!manages(principal, teamId) || !(await teamExists(db, teamId))) throw teamNotFound();
}

export async function listTeamMembers(
  db: Database,
  principal: Principal,
  teamId: string,
  paging: { page: number; pageSize: number },
): Promise<TeamMembersPage> {
  await readableTeam(db, principal, teamId);
  const { rows, total } = await listMembers(db, teamId, paging);
  return { items: rows.map(toMember), total, ...paging };
}

export async function getTeamMember(
  db: Database,
  principal: Principal,
  teamId: string,
  userId: string,
): Promise<TeamMember> {
  await readableTeam(db, principal, teamId);
  const row = await findMember(db, teamId, userId);
  if (!row) throw memberNotFound();
  return toMember(row);
}

/**
 * Adds an existing user. A team admin may add only someone they already manage (a member of
 * another team they administer): anyone else is invited (group-register) and says yes first.
 */
export async function addTeamMember(
  db: Database,
  { principal, ip }: Actor,
  teamId: string,
  userId: string,
  role: TeamRole,
): Promise<TeamMember> {
  if (!manages(principal, teamId)) throw teamNotFound();
  return db.transaction().execute(async (trx) => {
    if (!(await lockTeam(trx, teamId))) throw teamNotFound();
    const visible = principal.isPlatformAdmin
      ? await userExists(trx, userId)
      : await isMemberOfAny(trx, userId, principal.adminTeamIds);
    if (!visible) throw userNotFound();
    if (!(await insertMember(trx, teamId, userId, role)))
      throw new ApiError(409, 'conflict', 'This user is already a member of this team.');
    await recordAudit(trx, {
      actorUserId: principal.userId,
      action: 'user.added-to-team',
      subject: userId,
      detail: { role },
      teamId,
      ip,
    });
    return toMember((await findMember(trx, teamId, userId))!);
  });
}

/**
 * Ends every session of a user who lost access (removed, or no longer a team admin): their
 * auth sessions are revoked in the same transaction as the change, their socket tokens and
 * open sockets right after it commits (a socket opening meanwhile re-checks its token).
 */
async function endSessionsAfter<T>(
  deps: TeamMembersDeps,
  userId: string,
  change: (trx: Database) => Promise<{ result: T; endSessions: boolean }>,
): Promise<T> {
  const { result, endSessions } = await deps.db.transaction().execute(change);
  if (endSessions)
    await revokeUserRealtimeAccess(deps, userId, { everySession: true }, 'sessions-revoked');
  return result;
}

export async function changeTeamMemberRole(
  deps: TeamMembersDeps,
  { principal, ip }: Actor,
  teamId: string,
  userId: string,
  role: TeamRole,
): Promise<TeamMember> {
  if (!manages(principal, teamId)) throw teamNotFound();
  return endSessionsAfter(deps, userId, async (trx) => {
    if (!(await lockTeam(trx, teamId))) throw teamNotFound();
    const member = await findMember(trx, teamId, userId);
    if (!member) throw memberNotFound();
    if (member.role === role) return { result: toMember(member), endSessions: false };
    const demoting = member.role === 'admin';
    if (demoting && (await countAdmins(trx, teamId)) <= 1) throw lastAdmin('demote');
    await setMemberRole(trx, teamId, userId, role);
    const sessionsEnded = demoting ? await revokeUserSessions(trx, userId) : 0;
    await recordAudit(trx, {
      actorUserId: principal.userId,
      action: 'user.role-changed',
      subject: userId,
      detail: { from: member.role, to: role, sessionsEnded },
      teamId,
      ip,
    });
    return { result: toMember({ ...member, role }), endSessions: demoting };
  });
}

export async function removeTeamMember(
  deps: TeamMembersDeps,
  { principal, ip }: Actor,
  teamId: string,
  userId: string,
): Promise<void> {
  if (!manages(principal, teamId)) throw teamNotFound();
  await endSessionsAfter(deps, userId, async (trx) => {
    if (!(await lockTeam(trx, teamId))) throw teamNotFound();
    const member = await findMember(trx, teamId, userId);
    if (!member) throw memberNotFound();
    if (member.role === 'admin' && (await countAdmins(trx, teamId)) <= 1) throw lastAdmin('remove');
    await deleteMember(trx, teamId, userId);
    const sessionsEnded = await revokeUserSessions(trx, userId);
    await recordAudit(trx, {
      actorUserId: principal.userId,
      action: 'user.removed-from-team',
      subject: userId,
      detail: { role: member.role, sessionsEnded },
      teamId,
      ip,
    });
    return { result: undefined, endSessions: true };
  });
}
