import type { Database } from '@locus/db';
import { sql } from 'kysely';

export interface GroupRow {
  id: string;
  team_id: string;
  team_name: string;
  name: string;
  language: string;
  stale_after_seconds: number;
  movement: string;
  speed_mps: number;
  max_speed_mps: number;
  archived_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface GroupSummaryRow {
  id: string;
  team_id: string;
  team_name: string;
  name: string;
  language: string;
  archived_at: Date | null;
  updated_at: Date;
  member_count: number;
  opted_out_count: number;
  geofence_count: number;
}

export interface MemberRow {
  phone_number: string;
  label: string | null;
  opted_out: boolean;
}

export interface GeofenceRow {
  id: string;
  name: string;
  polygon: unknown;
}

/** The group's settings, as written on create and update. */
export interface GroupValues {
  name: string;
  language: string;
  staleAfterSeconds: number;
  movement: string;
  speedMps: number;
  maxSpeedMps: number;
}

export interface MemberValues {
  phoneNumber: string;
  label: string | null;
}

/** A geofence to store: `id` is kept when it is one of the group's own, else generated. */
export interface GeofenceValues {
  id?: string | undefined;
  name: string;
  polygon: unknown;
}

function groupsWithTeams(db: Database) {
  return db
    .selectFrom('overwatch_groups as g')
    .innerJoin('teams as t', 't.id', 'g.team_id')
    .select([
      'g.id',
      'g.team_id',
      't.team_name',
      'g.name',
      'g.language',
      'g.stale_after_seconds',
      'g.movement',
      'g.speed_mps',
      'g.max_speed_mps',
      'g.archived_at',
      'g.created_at',
      'g.updated_at',
    ]);
}

/** One group with its team, or undefined. */
export async function findGroup(db: Database, id: string): Promise<GroupRow | undefined> {
  return groupsWithTeams(db).where('g.id', '=', id).executeTakeFirst();
}

/**
 * The group with its team, its row locked until the transaction ends, so that changes to one
 * group never interleave; undefined when it does not exist (any more).
 */
export async function lockGroup(db: Database, id: string): Promise<GroupRow | undefined> {
  return groupsWithTeams(db).where('g.id', '=', id).forUpdate('g').executeTakeFirst();
}

/** The groups of these teams, archived ones or the others, by team and name (ignoring case). */
export async function listGroups(
  db: Database,
  teamIds: readonly string[],
  archived: boolean,
): Promise<GroupSummaryRow[]> {
  if (teamIds.length === 0) return [];
  const rows = await db
    .selectFrom('overwatch_groups as g')
    .innerJoin('teams as t', 't.id', 'g.team_id')
    .select([
      'g.id',
      'g.team_id',
      't.team_name',
      'g.name',
      'g.language',
      'g.archived_at',
      'g.updated_at',
    ])
    .select((eb) => [
      eb
        .selectFrom('overwatch_group_members as m')
        .select(sql<number>`count(*)::int`.as('count'))
        .whereRef('m.group_id', '=', 'g.id')
        .as('member_count'),
      eb
        .selectFrom('overwatch_group_members as m')
        .innerJoin('sms_opt_outs as o', 'o.phone_number', 'm.phone_number')
        .select(sql<number>`count(*)::int`.as('count'))
        .whereRef('m.group_id', '=', 'g.id')
        .as('opted_out_count'),
      eb
        .selectFrom('overwatch_geofences as f')
        .select(sql<number>`count(*)::int`.as('count'))
        .whereRef('f.group_id', '=', 'g.id')
        .as('geofence_count'),
    ])
    .where('g.team_id', 'in', teamIds)
    .where('g.archived_at', archived ? 'is not' : 'is', null)
    .orderBy(sql`lower(t.team_name)`)
    .orderBy(sql`lower(g.name)`)
    .orderBy('g.id')
    .execute();
  return rows.map((row) => ({
    ...row,
    member_count: row.member_count ?? 0,
    opted_out_count: row.opted_out_count ?? 0,
    geofence_count: row.geofence_count ?? 0,
  }));
}

/** The group's numbers in the order they were given; `opted_out` when the number texted STOP. */
export async function membersOf(db: Database, groupId: string): Promise<MemberRow[]> {
  return db
    .selectFrom('overwatch_group_members as m')
    .leftJoin('sms_opt_outs as o', 'o.phone_number', 'm.phone_number')
    .select(['m.phone_number', 'm.label', sql<boolean>`o.phone_number is not null`.as('opted_out')])
    .where('m.group_id', '=', groupId)
    .orderBy('m.position')
    .execute();
}

export async function geofencesOf(db: Database, groupId: string): Promise<GeofenceRow[]> {
  return db
    .selectFrom('overwatch_geofences')
    .select(['id', 'name', 'polygon'])
    .where('group_id', '=', groupId)
    .orderBy('position')
    .execute();
}

export async function insertGroup(
  db: Database,
  teamId: string,
  createdBy: string,
  values: GroupValues,
): Promise<string> {
  const row = await db
    .insertInto('overwatch_groups')
    .values({
      team_id: teamId,
      created_by: createdBy,
      name: values.name,
      language: values.language,
      stale_after_seconds: values.staleAfterSeconds,
      movement: values.movement,
      speed_mps: values.speedMps,
      max_speed_mps: values.maxSpeedMps,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateGroup(db: Database, id: string, values: GroupValues): Promise<void> {
  await db
    .updateTable('overwatch_groups')
    .set({
      name: values.name,
      language: values.language,
      stale_after_seconds: values.staleAfterSeconds,
      movement: values.movement,
      speed_mps: values.speedMps,
      max_speed_mps: values.maxSpeedMps,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .execute();
}

/** Replaces the group's numbers; their order is kept (`position`). */
export async function replaceMembers(
  db: Database,
  groupId: string,
  members: readonly MemberValues[],
): Promise<void> {
  await db.deleteFrom('overwatch_group_members').where('group_id', '=', groupId).execute();
  if (members.length === 0) return;
  await db
    .insertInto('overwatch_group_members')
    .values(
      members.map((member, position) => ({
        group_id: groupId,
        phone_number: member.phoneNumber,
        label: member.label,
        position,
      })),
    )
    .execute();
}

/**
 * Replaces the group's geofences, in the order given. A geofence keeps its id when it is one of
 * this group's (the form sends them back); any other gets a new one, so that an id of another
 * group's geofence is never taken over.
 */
export async function replaceGeofences(
  db: Database,
  groupId: string,
  geofences: readonly GeofenceValues[],
): Promise<void> {
  const own = new Set(
    (
      await db
        .selectFrom('overwatch_geofences')
        .select('id')
        .where('group_id', '=', groupId)
        .execute()
    ).map((row) => row.id),
  );
  await db.deleteFrom('overwatch_geofences').where('group_id', '=', groupId).execute();
  if (geofences.length === 0) return;
  const used = new Set<string>();
  await db
    .insertInto('overwatch_geofences')
    .values(
      geofences.map((geofence, position) => {
        const keep = geofence.id !== undefined && own.has(geofence.id) && !used.has(geofence.id);
        if (keep) used.add(geofence.id!);
        return {
          id: keep ? geofence.id! : sql<string>`gen_random_uuid()`,
          group_id: groupId,
          name: geofence.name,
          polygon: JSON.stringify(geofence.polygon),
          position,
        };
      }),
    )
    .execute();
}

/** Archives (now) or restores the group. */
export async function setArchived(db: Database, id: string, archived: boolean): Promise<void> {
  await db
    .updateTable('overwatch_groups')
    .set({
      archived_at: archived ? sql<Date>`now()` : null,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .execute();
}
