import type { Database } from '@locus/db';
import { sql } from 'kysely';
import { likePattern } from '../psap/repo';

export interface CallListRow {
  id: string;
  team_id: string;
  name: string;
  number_count: number;
}

export interface CallListUserRow {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone_number: string | null;
}

export interface EntryRow {
  call_list_id: string;
  phone_number: string;
  label: string | null;
}

function listsWithCounts(db: Database) {
  return db
    .selectFrom('call_lists as l')
    .select(['l.id', 'l.team_id', 'l.name'])
    .select((eb) =>
      eb
        .selectFrom('call_list_numbers as n')
        .select(sql<number>`count(*)::int`.as('count'))
        .whereRef('n.call_list_id', '=', 'l.id')
        .as('number_count'),
    );
}

const withCount = <T extends { number_count: number | null }>(row: T) => ({
  ...row,
  number_count: row.number_count ?? 0,
});

/** One list with its team's name, or undefined. */
export async function findList(db: Database, id: string) {
  const row = await listsWithCounts(db)
    .innerJoin('teams as t', 't.id', 'l.team_id')
    .select('t.team_name')
    .where('l.id', '=', id)
    .executeTakeFirst();
  return row && withCount(row);
}

/** Locks a list row until the transaction ends; undefined when it does not exist (any more). */
export async function lockList(db: Database, id: string) {
  return db
    .selectFrom('call_lists')
    .select(['id', 'team_id', 'name'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export async function teamExists(db: Database, teamId: string): Promise<boolean> {
  const row = await db.selectFrom('teams').select('id').where('id', '=', teamId).executeTakeFirst();
  return row !== undefined;
}

/** Those of `teamIds` that are active teams. */
export async function activeTeamIds(
  db: Database,
  teamIds: readonly string[],
): Promise<Set<string>> {
  if (teamIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('teams')
    .select('id')
    .where('id', 'in', teamIds)
    .where('is_active', '=', true)
    .execute();
  return new Set(rows.map((row) => row.id));
}

/** A team's lists, by name (ignoring case). */
export async function listsOfTeam(db: Database, teamId: string): Promise<CallListRow[]> {
  const rows = await listsWithCounts(db)
    .where('l.team_id', '=', teamId)
    .orderBy(sql`lower(l.name)`)
    .orderBy('l.id')
    .execute();
  return rows.map(withCount);
}

/** The lists with these ids that exist, with their teams. */
export async function listTeams(db: Database, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('call_lists').select(['id', 'team_id']).where('id', 'in', ids).execute();
}

/** Lists of these teams whose name contains the term (ignoring case), by name. */
export async function searchLists(
  db: Database,
  teamIds: readonly string[],
  term: string,
  limit: number,
): Promise<CallListRow[]> {
  if (teamIds.length === 0) return [];
  const rows = await listsWithCounts(db)
    .where('l.team_id', 'in', teamIds)
    .where(sql`lower(l.name)`, 'like', likePattern(term))
    .orderBy(sql`lower(l.name)`)
    .orderBy('l.id')
    .limit(limit)
    .execute();
  return rows.map(withCount);
}

/** Postgres' unique_violation on the per-team name index. */
export function isDuplicateName(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    error.code === '23505' &&
    'constraint' in error &&
    error.constraint === 'call_lists_team_name'
  );
}

/** Inserts a list; throws a unique violation (see {@link isDuplicateName}) for a used name. */
export async function insertList(db: Database, teamId: string, name: string) {
  return db
    .insertInto('call_lists')
    .values({ team_id: teamId, name })
    .returning(['id', 'team_id', 'name'])
    .executeTakeFirstOrThrow();
}

export async function renameList(db: Database, id: string, name: string): Promise<void> {
  await db.updateTable('call_lists').set({ name }).where('id', '=', id).execute();
}

/** Deletes a list with its numbers and attached users (cascade); false when it did not exist. */
export async function deleteList(db: Database, id: string): Promise<boolean> {
  const result = await db.deleteFrom('call_lists').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/**
 * Adds numbers to a list. An existing number keeps its label unless a new one is given.
 */
export async function upsertNumbers(
  db: Database,
  listId: string,
  entries: ReadonlyArray<{ phoneNumber: string; label: string | null }>,
): Promise<void> {
  if (entries.length === 0) return;
  await db
    .insertInto('call_list_numbers')
    .values(
      entries.map((entry) => ({
        call_list_id: listId,
        phone_number: entry.phoneNumber,
        label: entry.label,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['call_list_id', 'phone_number']).doUpdateSet({
        label: sql<string | null>`coalesce(excluded.label, call_list_numbers.label)`,
      }),
    )
    .execute();
}

export async function hasNumber(db: Database, listId: string, phoneNumber: string) {
  const row = await db
    .selectFrom('call_list_numbers')
    .select('phone_number')
    .where('call_list_id', '=', listId)
    .where('phone_number', '=', phoneNumber)
    .executeTakeFirst();
  return row !== undefined;
}

export async function countNumbers(db: Database, listId: string): Promise<number> {
  const row = await db
    .selectFrom('call_list_numbers')
    .select(sql<number>`count(*)::int`.as('count'))
    .where('call_list_id', '=', listId)
    .executeTakeFirstOrThrow();
  return row.count;
}

export async function deleteNumbers(
  db: Database,
  listId: string,
  phoneNumbers: readonly string[],
): Promise<void> {
  await db
    .deleteFrom('call_list_numbers')
    .where('call_list_id', '=', listId)
    .where('phone_number', 'in', phoneNumbers)
    .execute();
}

/** The numbers stored on these lists, by number. */
export async function numbersOf(db: Database, listIds: readonly string[]): Promise<EntryRow[]> {
  if (listIds.length === 0) return [];
  return db
    .selectFrom('call_list_numbers')
    .select(['call_list_id', 'phone_number', 'label'])
    .where('call_list_id', 'in', listIds)
    .orderBy('phone_number')
    .orderBy('call_list_id')
    .execute();
}

/**
 * The users attached to these lists who are still members of the list's team and have a phone
 * number (checked against E.164 by the service).
 */
export async function attachedUserPhones(db: Database, listIds: readonly string[]) {
  if (listIds.length === 0) return [];
  return db
    .selectFrom('call_list_users as a')
    .innerJoin('call_lists as l', 'l.id', 'a.call_list_id')
    .innerJoin('team_members as m', (join) =>
      join.onRef('m.user_id', '=', 'a.user_id').onRef('m.team_id', '=', 'l.team_id'),
    )
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .select(['a.call_list_id', 'u.phone_number', 'u.first_name', 'u.last_name'])
    .where('a.call_list_id', 'in', listIds)
    .where('u.phone_number', 'is not', null)
    .execute();
}

/** The users attached to a list who are still members of its team, by name. */
export async function attachedUsers(db: Database, listId: string): Promise<CallListUserRow[]> {
  return db
    .selectFrom('call_list_users as a')
    .innerJoin('call_lists as l', 'l.id', 'a.call_list_id')
    .innerJoin('team_members as m', (join) =>
      join.onRef('m.user_id', '=', 'a.user_id').onRef('m.team_id', '=', 'l.team_id'),
    )
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .select(['u.id', 'u.first_name', 'u.last_name', 'u.email', 'u.phone_number'])
    .where('a.call_list_id', '=', listId)
    .orderBy('u.last_name')
    .orderBy('u.first_name')
    .orderBy('u.id')
    .execute();
}

/** A team's members (all, or those among `userIds`), by name. */
export async function teamMembers(
  db: Database,
  teamId: string,
  userIds?: readonly string[],
): Promise<CallListUserRow[]> {
  let query = db
    .selectFrom('team_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.first_name', 'u.last_name', 'u.email', 'u.phone_number'])
    .where('m.team_id', '=', teamId)
    .orderBy('u.last_name')
    .orderBy('u.first_name')
    .orderBy('u.id')
    .limit(1000);
  if (userIds !== undefined) {
    if (userIds.length === 0) return [];
    query = query.where('u.id', 'in', userIds);
  }
  return query.execute();
}

export async function attachUsers(
  db: Database,
  listId: string,
  userIds: readonly string[],
): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .insertInto('call_list_users')
    .values(userIds.map((userId) => ({ call_list_id: listId, user_id: userId })))
    .onConflict((oc) => oc.columns(['call_list_id', 'user_id']).doNothing())
    .execute();
}

export async function detachUsers(
  db: Database,
  listId: string,
  userIds: readonly string[],
): Promise<void> {
  await db
    .deleteFrom('call_list_users')
    .where('call_list_id', '=', listId)
    .where('user_id', 'in', userIds)
    .execute();
}
