import type {
  AdminUser,
  AdminUserDetail,
  TeamRole,
  UsersListQuery,
  UsersPage,
} from '@locus/contract';
import type { Database } from '@locus/db';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors';
import { recordAudit } from '../audit/repo';
import type { Principal } from '../auth/guard';
import type { SignInLockout } from '../auth/lockout';
import {
  findUserRow,
  findUsersPage,
  platformAdminIds,
  teamExists,
  teamsOfUsers,
  type UserFilter,
  type UserListRow,
  type UserOrder,
  type UserTeamRow,
} from './repo';

/** "New client users" are those who registered within this many days. */
export const newUserDays = 30;

const userNotFound = () => new ApiError(404, 'not-found', 'No such user.');
const teamNotFound = () => new ApiError(404, 'not-found', 'No such team.');

/**
 * The teams whose users an admin manages: undefined for platform admins (everyone), otherwise
 * the teams they administer. Everything outside answers 404, as if it did not exist.
 */
export function managedTeamIds(principal: Principal): readonly string[] | undefined {
  return principal.isPlatformAdmin ? undefined : principal.adminTeamIds;
}

async function requireManagedTeam(db: Database, principal: Principal, teamId: string) {
  const managed = managedTeamIds(principal);
  if (managed !== undefined && !managed.includes(teamId)) throw teamNotFound();
  if (!(await teamExists(db, teamId))) throw teamNotFound();
}

const role = (value: string): TeamRole => (value === 'admin' ? 'admin' : 'member');

async function toAdminUsers(
  db: Database,
  principal: Principal,
  rows: readonly UserListRow[],
): Promise<AdminUser[]> {
  const ids = rows.map((row) => row.id);
  const [teams, platformAdmins] = await Promise.all([
    teamsOfUsers(db, ids, managedTeamIds(principal)),
    platformAdminIds(db, ids),
  ]);
  const byUser = new Map<string, UserTeamRow[]>();
  for (const team of teams) byUser.set(team.user_id, [...(byUser.get(team.user_id) ?? []), team]);
  return rows.map((row) => ({
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    companyName: row.company_name,
    isPlatformAdmin: platformAdmins.has(row.id),
    emailConfirmed: row.email_confirmed_at !== null,
    createdAt: row.created_at.toISOString(),
    lastSignInAt: row.last_sign_in_at ? new Date(row.last_sign_in_at).toISOString() : null,
    teams: (byUser.get(row.id) ?? []).map((team) => ({
      teamId: team.team_id,
      teamName: team.team_name,
      role: role(team.role),
    })),
  }));
}

async function page(
  db: Database,
  principal: Principal,
  filter: UserFilter,
  order: UserOrder,
  paging: { page: number; pageSize: number },
): Promise<UsersPage> {
  const { rows, total } = await findUsersPage(db, filter, order, paging);
  return { items: await toAdminUsers(db, principal, rows), total, ...paging };
}

/** GET /users/ and GET /auth/users/: the users the caller manages, or one team's. */
export async function listUsers(
  db: Database,
  principal: Principal,
  query: UsersListQuery,
): Promise<UsersPage> {
  if (query.teamId !== undefined) await requireManagedTeam(db, principal, query.teamId);
  const teamIds = query.teamId !== undefined ? [query.teamId] : managedTeamIds(principal);
  return page(
    db,
    principal,
    { ...(teamIds ? { teamIds } : {}), ...(query.search ? { search: query.search } : {}) },
    { sort: query.sort, direction: query.direction },
    query,
  );
}

export async function searchUsers(
  db: Database,
  principal: Principal,
  query: { search: string; page: number; pageSize: number },
): Promise<UsersPage> {
  const teamIds = managedTeamIds(principal);
  return page(
    db,
    principal,
    { ...(teamIds ? { teamIds } : {}), search: query.search },
    { sort: 'name', direction: 'asc' },
    query,
  );
}

/** One team's users ("client users"); `recent` keeps those who registered lately, newest first. */
export async function teamUsers(
  db: Database,
  principal: Principal,
  teamId: string,
  paging: { page: number; pageSize: number },
  recent: boolean,
): Promise<UsersPage> {
  await requireManagedTeam(db, principal, teamId);
  return recent
    ? page(
        db,
        principal,
        { teamIds: [teamId], registeredWithinDays: newUserDays },
        { sort: 'createdAt', direction: 'desc' },
        paging,
      )
    : page(db, principal, { teamIds: [teamId] }, { sort: 'name', direction: 'asc' }, paging);
}

/** Users waiting with an unlisted agency belong to no team: only the platform owner vets them. */
export async function unlistedUsers(
  db: Database,
  principal: Principal,
  paging: { page: number; pageSize: number },
): Promise<UsersPage> {
  if (!principal.isPlatformAdmin)
    throw new ApiError(403, 'forbidden', 'Only platform admins can see users without a team.');
  return page(
    db,
    principal,
    { unlistedAgency: true },
    { sort: 'createdAt', direction: 'desc' },
    paging,
  );
}

/** A user the caller manages, or 404 (another team's user looks like no user at all). */
async function managedUser(db: Database, principal: Principal, userId: string) {
  const row = await findUserRow(db, userId);
  if (!row) throw userNotFound();
  const managed = managedTeamIds(principal);
  if (managed !== undefined && (await teamsOfUsers(db, [userId], managed)).length === 0)
    throw userNotFound();
  return row;
}

export interface UsersAdminDeps {
  db: Database;
  lockout: SignInLockout;
}

export async function userDetail(
  { db, lockout }: UsersAdminDeps,
  principal: Principal,
  userId: string,
): Promise<AdminUserDetail> {
  const row = await managedUser(db, principal, userId);
  const [user] = await toAdminUsers(db, principal, [row]);
  return { ...user!, phoneNumber: row.phone_number, locked: await lockout.isLocked(row.email) };
}

/** Lifts the sign-in lock; audited on the team the caller manages the user through. */
export async function unlockUser(
  deps: UsersAdminDeps,
  principal: Principal,
  userId: string,
  request: Pick<FastifyRequest, 'ip'>,
): Promise<AdminUserDetail> {
  const row = await managedUser(deps.db, principal, userId);
  const wasLocked = await deps.lockout.unlockAccount(row.email);
  const [team] = await teamsOfUsers(deps.db, [userId], managedTeamIds(principal));
  await recordAudit(deps.db, {
    actorUserId: principal.userId,
    action: 'sign-in.unlocked',
    subject: userId,
    detail: { wasLocked },
    teamId: team?.team_id ?? null,
    ip: request.ip,
  });
  return userDetail(deps, principal, userId);
}
