import type { Database } from '@locus/db';
import { sql } from 'kysely';

/** Sessions still in force: not revoked, not expired, not idle past `idleLimitSeconds`. */
export async function listActiveSessions(db: Database, userId: string, idleLimitSeconds: number) {
  return db
    .selectFrom('auth_sessions')
    .select([
      'id',
      'token_hash',
      'created_at',
      'last_active_at',
      'expires_at',
      'user_agent',
      'ip_address',
    ])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .where('last_active_at', '>', sql<Date>`now() - make_interval(secs => ${idleLimitSeconds})`)
    .orderBy('last_active_at', 'desc')
    .limit(100)
    .execute();
}

/** Revokes every session of the user but one; returns the revoked sessions' ids. */
export async function revokeOtherSessions(
  db: Database,
  userId: string,
  keepHash: Buffer,
): Promise<string[]> {
  const rows = await db
    .updateTable('auth_sessions')
    .set({ revoked_at: sql<Date>`now()` })
    .where('user_id', '=', userId)
    .where('token_hash', '!=', keepHash)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

export async function findTeamSecurity(db: Database, teamId: string) {
  return db
    .selectFrom('teams')
    .select(['require_mfa', 'idle_timeout_minutes'])
    .where('id', '=', teamId)
    .executeTakeFirst();
}

export async function updateTeamSecurity(
  db: Database,
  teamId: string,
  changes: { require_mfa?: boolean; idle_timeout_minutes?: number | null },
) {
  return db
    .updateTable('teams')
    .set(changes)
    .where('id', '=', teamId)
    .returning(['require_mfa', 'idle_timeout_minutes'])
    .executeTakeFirst();
}
