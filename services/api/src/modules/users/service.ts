import { SelfUserPatch, type AdminUserPatch, type CurrentUser, type Team } from '@locus/contract';
import type { Database } from '@locus/db';
import { ApiError } from '../../http/errors';
import { recordAudit } from '../audit/repo';
import { revokeUserSessions } from '../auth/repo';
import { revokeUserRealtimeAccess, type RevocationDeps } from '../sessions/revocation';
import type { Principal } from '../auth/guard';
import {
  confirmAddress,
  findMemberships,
  findUser,
  isForeignKeyViolation,
  isUniqueViolation,
  updateUser,
  type UserChanges,
} from './repo';
import { toCurrentUser, toTeam } from './view';

const notFound = () => new ApiError(404, 'not-found', 'No such user.');

export async function loadCurrentUser(db: Database, userId: string): Promise<CurrentUser> {
  const user = await findUser(db, userId);
  if (!user) throw notFound();
  return toCurrentUser(user, await findMemberships(db, userId));
}

export async function teamsOf(db: Database, caller: Principal, userId: string): Promise<Team[]> {
  if (caller.userId !== userId && !caller.isPlatformAdmin)
    throw new ApiError(403, 'forbidden', "Only platform admins can see another user's teams.");
  if (!(await findUser(db, userId))) throw notFound();
  return (await findMemberships(db, userId)).map(toTeam);
}

const selfFields = new Set(Object.keys(SelfUserPatch.shape));

/**
 * PATCH /users/{id}: anyone may change their own profile fields, hasSeenWalkthrough and
 * colorScheme;
 * platform admins may change anything on anyone (recorded in the audit log); nobody else may.
 */
export async function patchUser(
  deps: RevocationDeps,
  caller: Principal,
  userId: string,
  patch: AdminUserPatch,
): Promise<CurrentUser> {
  const { db } = deps;
  const fields = Object.keys(patch);
  const onlySelfFields = fields.every((field) => selfFields.has(field));
  if (!caller.isPlatformAdmin && !(caller.userId === userId && onlySelfFields)) {
    throw new ApiError(
      403,
      'forbidden',
      caller.userId === userId
        ? 'Only platform admins can change these fields.'
        : 'You can only change your own profile.',
    );
  }
  const changes: UserChanges = {};
  if (patch.firstName !== undefined) changes.first_name = patch.firstName;
  if (patch.lastName !== undefined) changes.last_name = patch.lastName;
  if (patch.phoneNumber !== undefined) changes.phone_number = patch.phoneNumber;
  if (patch.hasSeenWalkthrough !== undefined)
    changes.has_seen_walkthrough = patch.hasSeenWalkthrough;
  if (patch.colorScheme !== undefined) changes.color_scheme = patch.colorScheme;
  if (patch.isAdmin !== undefined) changes.is_admin = patch.isAdmin;
  if (patch.psapId !== undefined) changes.psap_id = patch.psapId;

  let demoted = false;
  try {
    await db.transaction().execute(async (trx) => {
      const before = await findUser(trx, userId);
      if (!before) throw notFound();
      // Taking the admin flag away ends every session of theirs, like a team admin's demotion.
      demoted = before.is_admin && patch.isAdmin === false;
      if (!(await updateUser(trx, userId, changes))) throw notFound();
      if (demoted) await revokeUserSessions(trx, userId);
      if (patch.emailConfirmed && (await confirmAddress(trx, userId)) === 'taken') throw taken();
      if (caller.userId !== userId) {
        await recordAudit(trx, {
          actorUserId: caller.userId,
          action: 'user.patch',
          subject: userId,
          detail: { fields },
        });
      }
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw taken();
    // psap_id is the only reference a patch sets: an agency id that does not exist answered 500
    // (found by tests/fuzz).
    if (isForeignKeyViolation(error))
      throw new ApiError(400, 'validation-failed', 'The request body is not valid.', [
        { path: 'psapId', message: 'No such agency' },
      ]);
    throw error;
  }
  if (demoted)
    await revokeUserRealtimeAccess(deps, userId, { everySession: true }, 'sessions-revoked');
  return loadCurrentUser(db, userId);
}

const taken = () =>
  new ApiError(409, 'conflict', 'Another account has already confirmed this address.');
