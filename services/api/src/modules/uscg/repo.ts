import type { Database } from '@locus/db';
import { sql } from 'kysely';

/** Users waiting for a coast-guard decision whose address is confirmed, oldest request first. */
export async function findPendingUscgUsers(db: Database) {
  return db
    .selectFrom('users')
    .select([
      'id',
      'first_name',
      'last_name',
      'email',
      'uscg_unit_name',
      'uscg_requested_at',
      'created_at',
    ])
    .where('uscg_status', '=', 'pending')
    .where('email_confirmed_at', 'is not', null)
    .orderBy(sql`coalesce(uscg_requested_at, created_at)`)
    .limit(500)
    .execute();
}

export async function findPendingUscgUser(db: Database, userId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('id', '=', userId)
    .where('uscg_status', '=', 'pending')
    .where('email_confirmed_at', 'is not', null)
    .executeTakeFirst();
}

export async function setUscgStatus(
  db: Database,
  userId: string,
  status: 'approved' | 'rejected',
): Promise<void> {
  await db
    .updateTable('users')
    .set({ uscg_status: status, updated_at: sql<Date>`now()` })
    .where('id', '=', userId)
    .execute();
}

/** The coast-guard team an approval joins: the admin's first, by name. */
export async function firstTeamByName(db: Database, teamIds: readonly string[]) {
  if (teamIds.length === 0) return undefined;
  return db
    .selectFrom('teams')
    .select(['id', 'team_name'])
    .where('id', 'in', teamIds)
    .orderBy('team_name')
    .limit(1)
    .executeTakeFirst();
}

export async function addMember(db: Database, teamId: string, userId: string): Promise<void> {
  await db
    .insertInto('team_members')
    .values({ team_id: teamId, user_id: userId, role: 'member' })
    .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
    .execute();
}
