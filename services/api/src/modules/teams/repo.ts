import type { Psap } from '@locus/contract';
import type { Database } from '@locus/db';
import { sql } from 'kysely';
import { likePattern } from '../psap/repo';

/** A team's row as the admin views need it. */
export interface TeamRow {
  id: string;
  team_name: string;
  is_active: boolean;
  is_platform_owner: boolean;
  is_coast_guard: boolean;
  permission_levels: string[];
  custom_content: unknown;
  time_zone: string;
  retention_days: number | null;
  record_media: boolean;
  created_at: Date;
  member_count: number;
}

function teamsWithCounts(db: Database) {
  return db
    .selectFrom('teams as t')
    .select([
      't.id',
      't.team_name',
      't.is_active',
      't.is_platform_owner',
      't.is_coast_guard',
      't.permission_levels',
      't.custom_content',
      't.time_zone',
      't.retention_days',
      't.record_media',
      't.created_at',
    ])
    .select((eb) =>
      eb
        .selectFrom('team_members as m')
        .select(sql<number>`count(*)::int`.as('count'))
        .whereRef('m.team_id', '=', 't.id')
        .as('member_count'),
    );
}

const withCount = <T extends { member_count: number | null }>(row: T) => ({
  ...row,
  member_count: row.member_count ?? 0,
});

/**
 * One page of teams by name (ignoring case), then id, so that a team is never on two pages.
 * `teamIds` limits it to those teams; undefined lists every team (platform admins).
 */
export async function listTeams(
  db: Database,
  options: { teamIds?: readonly string[]; search: string; page: number; pageSize: number },
): Promise<{ rows: TeamRow[]; total: number }> {
  if (options.teamIds?.length === 0) return { rows: [], total: 0 };
  let filtered = db.selectFrom('teams as t');
  if (options.teamIds) filtered = filtered.where('t.id', 'in', options.teamIds);
  if (options.search !== '') {
    filtered = filtered.where(sql`lower(t.team_name)`, 'like', likePattern(options.search));
  }
  const { total } = await filtered
    .select(sql<number>`count(*)::int`.as('total'))
    .executeTakeFirstOrThrow();
  let query = teamsWithCounts(db);
  if (options.teamIds) query = query.where('t.id', 'in', options.teamIds);
  if (options.search !== '') {
    query = query.where(sql`lower(t.team_name)`, 'like', likePattern(options.search));
  }
  const rows = await query
    .orderBy(sql`lower(t.team_name)`)
    .orderBy('t.id')
    .limit(options.pageSize)
    .offset((options.page - 1) * options.pageSize)
    .execute();
  return { rows: rows.map(withCount), total };
}

export async function findTeam(db: Database, id: string): Promise<TeamRow | undefined> {
  const row = await teamsWithCounts(db).where('t.id', '=', id).executeTakeFirst();
  return row && withCount(row);
}

/** The team with this name, ignoring case (names are unique ignoring case). */
export async function findTeamByName(db: Database, name: string) {
  return db
    .selectFrom('teams')
    .select(['id', 'is_active', 'permission_levels'])
    .where(sql`lower(team_name)`, '=', name.toLowerCase())
    .executeTakeFirst();
}

/** Locks a team's row until the transaction ends, so that changes to one team never interleave. */
export async function lockTeam(db: Database, id: string) {
  return db
    .selectFrom('teams')
    .select(['id', 'is_platform_owner'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/** Postgres' unique_violation on a team's name (exact, or ignoring case). */
export function isDuplicateTeamName(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    error.code === '23505' &&
    'constraint' in error &&
    (error.constraint === 'teams_name_ci' || error.constraint === 'teams_team_name_key')
  );
}

/** Inserts a team; throws a unique violation (see {@link isDuplicateTeamName}) for a used name. */
export async function insertTeam(
  db: Database,
  values: { teamName: string; isActive: boolean; permissionLevels: readonly string[] },
): Promise<string> {
  const row = await db
    .insertInto('teams')
    .values({
      team_name: values.teamName,
      is_active: values.isActive,
      permission_levels: [...values.permissionLevels],
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateTeam(
  db: Database,
  id: string,
  changes: {
    teamName?: string;
    isActive?: boolean;
    permissionLevels?: readonly string[];
    timeZone?: string;
    retentionDays?: number | null;
    recordMedia?: boolean;
  },
): Promise<void> {
  const set: {
    team_name?: string;
    is_active?: boolean;
    permission_levels?: string[];
    time_zone?: string;
    retention_days?: number | null;
    record_media?: boolean;
  } = {};
  if (changes.teamName !== undefined) set.team_name = changes.teamName;
  if (changes.isActive !== undefined) set.is_active = changes.isActive;
  if (changes.permissionLevels !== undefined) set.permission_levels = [...changes.permissionLevels];
  if (changes.timeZone !== undefined) set.time_zone = changes.timeZone;
  if (changes.retentionDays !== undefined) set.retention_days = changes.retentionDays;
  if (changes.recordMedia !== undefined) set.record_media = changes.recordMedia;
  if (Object.keys(set).length === 0) return;
  await db.updateTable('teams').set(set).where('id', '=', id).execute();
}

export async function setCustomContent(db: Database, id: string, content: unknown): Promise<void> {
  await db
    .updateTable('teams')
    .set({ custom_content: JSON.stringify(content) })
    .where('id', '=', id)
    .execute();
}

/** A team's agencies, by name. */
export async function teamPsaps(db: Database, teamId: string): Promise<Psap[]> {
  return db
    .selectFrom('team_psaps as tp')
    .innerJoin('psaps as p', 'p.id', 'tp.psap_id')
    .select(['p.id', 'p.name', 'p.state'])
    .where('tp.team_id', '=', teamId)
    .orderBy('p.name')
    .orderBy('p.id')
    .execute();
}

export async function psapExists(db: Database, id: number): Promise<boolean> {
  const row = await db.selectFrom('psaps').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

/** Adds an agency to a team; false when the team had it already. */
export async function addTeamPsap(db: Database, teamId: string, psapId: number): Promise<boolean> {
  const result = await db
    .insertInto('team_psaps')
    .values({ team_id: teamId, psap_id: psapId })
    .onConflict((oc) => oc.columns(['team_id', 'psap_id']).doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

/** Removes agencies from a team; answers the ids it had. */
export async function removeTeamPsaps(
  db: Database,
  teamId: string,
  psapIds: readonly number[],
): Promise<number[]> {
  if (psapIds.length === 0) return [];
  const rows = await db
    .deleteFrom('team_psaps')
    .where('team_id', '=', teamId)
    .where('psap_id', 'in', psapIds)
    .returning('psap_id')
    .execute();
  return rows.map((row) => row.psap_id).sort((a, b) => a - b);
}

/**
 * Whether Postgres knows the zone too: the metrics cut days with `at time zone`, so a zone only
 * the JavaScript runtime knows would break every metrics call of the team.
 */
export async function databaseKnowsTimeZone(db: Database, zone: string): Promise<boolean> {
  const { rows } = await sql<{ known: boolean }>`
    select exists (select 1 from pg_timezone_names where name = ${zone}) as known
  `.execute(db);
  return rows[0]?.known === true;
}
