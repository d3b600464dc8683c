import type { Database } from '@locus/db';
import { sql } from 'kysely';

export interface MemberRow {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  email_confirmed_at: Date | null;
  role: string;
  added_at: Date;
}

const memberColumns = [
  'u.id',
  'u.first_name',
  'u.last_name',
  'u.email',
  'u.email_confirmed_at',
  'm.role',
  'm.created_at as added_at',
] as const;

/**
 * Takes the team's row lock for the rest of the transaction, so that two changes to one team's
 * members (two admins demoting each other) run one after the other and the last-admin check
 * sees the other's result. False when the team does not exist.
 */
export async function lockTeam(db: Database, teamId: string): Promise<boolean> {
  const row = await db
    .selectFrom('teams')
    .select('id')
    .where('id', '=', teamId)
    .forUpdate()
    .executeTakeFirst();
  return row !== undefined;
}

export async function teamExists(db: Database, teamId: string): Promise<boolean> {
  const row = await db.selectFrom('teams').select('id').where('id', '=', teamId).executeTakeFirst();
  return row !== undefined;
}

/** A team's members by name, then id (a stable order), and how many it has. */
export async function listMembers(
  db: Database,
  teamId: string,
  page: { page: number; pageSize: number },
): Promise<{ rows: MemberRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('team_members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(memberColumns)
      .where('m.team_id', '=', teamId)
      .orderBy(sql`lower(u.last_name)`)
      .orderBy(sql`lower(u.first_name)`)
      .orderBy('u.id')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
    db
      .selectFrom('team_members')
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .where('team_id', '=', teamId)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export async function findMember(
  db: Database,
  teamId: string,
  userId: string,
): Promise<MemberRow | undefined> {
  return db
    .selectFrom('team_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(memberColumns)
    .where('m.team_id', '=', teamId)
    .where('m.user_id', '=', userId)
    .executeTakeFirst();
}

export async function userExists(db: Database, userId: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
  return row !== undefined;
}

/** Adds a member; false when the user already was one. */
export async function insertMember(
  db: Database,
  teamId: string,
  userId: string,
  role: 'admin' | 'member',
): Promise<boolean> {
  const rows = await db
    .insertInto('team_members')
    .values({ team_id: teamId, user_id: userId, role })
    .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
    .returning('user_id')
    .execute();
  return rows.length > 0;
}

export async function setMemberRole(
  db: Database,
  teamId: string,
  userId: string,
  role: 'admin' | 'member',
): Promise<void> {
  await db
    .updateTable('team_members')
    .set({ role })
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .execute();
}

/**
 * Takes the user off the team and off the team's call lists (whose numbers are texted to
 * them), so nothing of the team keeps pointing at them.
 */
export async function deleteMember(db: Database, teamId: string, userId: string): Promise<void> {
  await db
    .deleteFrom('call_list_users')
    .where('user_id', '=', userId)
    .where('call_list_id', 'in', (eb) =>
      eb.selectFrom('call_lists').select('id').where('team_id', '=', teamId),
    )
    .execute();
  await db
    .deleteFrom('team_members')
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .execute();
}

export async function countAdmins(db: Database, teamId: string): Promise<number> {
  const row = await db
    .selectFrom('team_members')
    .select((eb) => eb.fn.countAll<string>().as('admins'))
    .where('team_id', '=', teamId)
    .where('role', '=', 'admin')
    .executeTakeFirstOrThrow();
  return Number(row.admins);
}

/** Whether the user is a member of at least one of these teams. */
export async function isMemberOfAny(
  db: Database,
  userId: string,
  teamIds: readonly string[],
): Promise<boolean> {
  if (teamIds.length === 0) return false;
  const row = await db
    .selectFrom('team_members')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('team_id', 'in', teamIds)
    .executeTakeFirst();
  return row !== undefined;
}
