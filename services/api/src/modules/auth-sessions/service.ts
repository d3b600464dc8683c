import type { AuthSessionSummary, TeamSecurity } from '@locus/contract';
import type { Database } from '@locus/db';
import { ApiError } from '../../http/errors';
import type { AppDeps } from '../../platform/deps';
import { recordAudit } from '../audit/repo';
import type { Principal } from '../auth/guard';
import { revokeUserRealtimeAccess } from '../sessions/revocation';
import { serverIdleLimitSeconds } from './policy';
import {
  findTeamSecurity,
  listActiveSessions,
  revokeOtherSessions,
  updateTeamSecurity,
} from './repo';

/** The profile's list of sessions (CJIS 5.5.5, ASVS 3.3). */
export async function listSessions(
  db: Database,
  principal: Principal,
): Promise<AuthSessionSummary[]> {
  const rows = await listActiveSessions(
    db,
    principal.userId,
    serverIdleLimitSeconds(principal.sessionPolicy),
  );
  return rows.map((row) => ({
    id: row.id,
    createdAt: row.created_at.toISOString(),
    lastActiveAt: row.last_active_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
    userAgent: row.user_agent,
    ipAddress: row.ip_address,
    current: row.token_hash.equals(principal.tokenHash),
  }));
}

/**
 * "Sign out other sessions": every other bearer token stops working at once, and so do the
 * socket tokens not issued to this session (theirs, and any not recorded as anyone's), with
 * their sockets closed on every instance; this console keeps its own.
 */
export async function signOutOtherSessions(
  deps: AppDeps,
  principal: Principal,
): Promise<{ revoked: number }> {
  const revoked = await deps.db.transaction().execute(async (trx) => {
    const ids = await revokeOtherSessions(trx, principal.userId, principal.tokenHash);
    await recordAudit(trx, {
      actorUserId: principal.userId,
      action: 'session.revoked',
      subject: principal.userId,
      detail: {
        reason: 'signed-out-elsewhere',
        sessionIds: ids,
        keptSessionId: principal.sessionId,
      },
    });
    return ids.length;
  });
  await revokeUserRealtimeAccess(
    deps,
    principal.userId,
    { exceptAuthSessionId: principal.sessionId },
    'sessions-revoked',
  );
  return { revoked };
}

const noTeam = () => new ApiError(404, 'not-found', 'No such team.');

/** Another team answers 404 like a team that does not exist; a member who is not its admin 403. */
function assertTeamAdmin(principal: Principal, teamId: string): void {
  if (principal.isPlatformAdmin || principal.adminTeamIds.includes(teamId)) return;
  if (!principal.teamIds.includes(teamId)) throw noTeam();
  throw new ApiError(403, 'forbidden', 'Only admins of this team can change its security.');
}

export async function teamSecurity(
  db: Database,
  principal: Principal,
  teamId: string,
): Promise<TeamSecurity> {
  assertTeamAdmin(principal, teamId);
  const row = await findTeamSecurity(db, teamId);
  if (!row) throw noTeam();
  return { requireMfa: row.require_mfa, idleTimeoutMinutes: row.idle_timeout_minutes };
}

export async function setTeamSecurity(
  db: Database,
  principal: Principal,
  teamId: string,
  patch: Partial<TeamSecurity>,
  ip?: string,
): Promise<TeamSecurity> {
  assertTeamAdmin(principal, teamId);
  const changes = {
    ...(patch.requireMfa !== undefined ? { require_mfa: patch.requireMfa } : {}),
    ...(patch.idleTimeoutMinutes !== undefined
      ? { idle_timeout_minutes: patch.idleTimeoutMinutes }
      : {}),
  };
  // Nothing to change (`{}`, or only fields the contract drops): the policy as it is, unaudited.
  // An empty `set` was an SQL syntax error, answered 500 (found by tests/fuzz).
  if (Object.keys(changes).length === 0) return teamSecurity(db, principal, teamId);
  const row = await db.transaction().execute(async (trx) => {
    const updated = await updateTeamSecurity(trx, teamId, changes);
    if (updated) {
      await recordAudit(trx, {
        actorUserId: principal.userId,
        action: 'team.security',
        subject: teamId,
        detail: {
          requireMfa: updated.require_mfa,
          idleTimeoutMinutes: updated.idle_timeout_minutes,
        },
        teamId,
        ip: ip ?? null,
      });
    }
    return updated;
  });
  if (!row) throw noTeam();
  return { requireMfa: row.require_mfa, idleTimeoutMinutes: row.idle_timeout_minutes };
}
