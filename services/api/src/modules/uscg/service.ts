import { isCoastGuardEmail, type PendingUscgUser, type PublicConfig } from '@locus/contract';
import type { Database } from '@locus/db';
import { ApiError } from '../../http/errors';
import { recordAudit } from '../audit/repo';
import type { Principal } from '../auth/guard';
import {
  addMember,
  findPendingUscgUser,
  findPendingUscgUsers,
  firstTeamByName,
  setUscgStatus,
} from './repo';

function requireCoastGuardAdmin(principal: Principal): void {
  if (principal.coastGuardAdminTeamIds.length === 0)
    throw new ApiError(403, 'forbidden', 'Only admins of a coast-guard team can do this.');
}

/**
 * Coast-guard users whose address is confirmed and still a coast-guard address under the
 * current configuration (the pattern may have changed since they registered).
 */
export async function pendingUscgUsers(
  db: Database,
  principal: Principal,
  coastGuard: PublicConfig['coastGuard'],
): Promise<PendingUscgUser[]> {
  requireCoastGuardAdmin(principal);
  const rows = await findPendingUscgUsers(db);
  return rows
    .filter((row) => isCoastGuardEmail(row.email, coastGuard))
    .map((row) => ({
      id: row.id,
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      unitName: row.uscg_unit_name ?? '',
      requestedAt: (row.uscg_requested_at ?? row.created_at).toISOString(),
    }));
}

/** Approve: the user joins the admin's coast-guard team as a member. Reject: they stay out. */
export async function decideUscgUser(
  db: Database,
  principal: Principal,
  coastGuard: PublicConfig['coastGuard'],
  userId: string,
  decision: 'approve' | 'reject',
): Promise<void> {
  requireCoastGuardAdmin(principal);
  await db.transaction().execute(async (trx) => {
    const user = await findPendingUscgUser(trx, userId);
    if (!user || !isCoastGuardEmail(user.email, coastGuard))
      throw new ApiError(404, 'not-found', 'No coast-guard user is waiting with this id.');
    const team = await firstTeamByName(trx, principal.coastGuardAdminTeamIds);
    if (decision === 'approve') {
      await addMember(trx, team!.id, userId);
      await setUscgStatus(trx, userId, 'approved');
    } else {
      await setUscgStatus(trx, userId, 'rejected');
    }
    await recordAudit(trx, {
      actorUserId: principal.userId,
      action: decision === 'approve' ? 'uscg.approve' : 'uscg.reject',
      subject: userId,
      detail: { teamId: team?.id ?? null },
    });
  });
}
