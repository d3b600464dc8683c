import type { Database } from '@locus/db';
import { sql } from 'kysely';

export type TeamRole = 'admin' | 'member';

export async function insertInvitation(
  db: Database,
  invitation: {
    codeHash: Buffer;
    teamId: string;
    userId: string;
    role: TeamRole;
    invitedBy: string;
    ttlSeconds: number;
  },
): Promise<void> {
  await db
    .insertInto('team_invitations')
    .values({
      code_hash: invitation.codeHash,
      team_id: invitation.teamId,
      user_id: invitation.userId,
      role: invitation.role,
      invited_by: invitation.invitedBy,
      expires_at: sql<Date>`now() + make_interval(secs => ${invitation.ttlSeconds})`,
    })
    .execute();
}

/**
 * Uses an invitation: one statement, so the same link cannot be accepted twice. Undefined when
 * the code is unknown, used or expired.
 */
export async function consumeInvitation(db: Database, codeHash: Buffer) {
  return db
    .updateTable('team_invitations')
    .set({ accepted_at: sql<Date>`now()` })
    .where('code_hash', '=', codeHash)
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning(['id', 'team_id', 'user_id', 'role', 'invited_by'])
    .executeTakeFirst();
}

/** Which of these users already belong to the team. */
export async function membersAmong(
  db: Database,
  teamId: string,
  userIds: readonly string[],
): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('team_members')
    .select('user_id')
    .where('team_id', '=', teamId)
    .where('user_id', 'in', userIds)
    .execute();
  return new Set(rows.map((row) => row.user_id));
}
