import type { Database } from '@locus/db';

/** A team as the metrics' access rules need it. */
export interface MetricsTeamRow {
  id: string;
  permission_levels: string[];
  time_zone: string;
}

export async function findMetricsTeam(
  db: Database,
  teamId: string,
): Promise<MetricsTeamRow | undefined> {
  return db
    .selectFrom('teams')
    .select(['id', 'permission_levels', 'time_zone'])
    .where('id', '=', teamId)
    .executeTakeFirst();
}

/** The teams a user belongs to, oldest membership first. */
export async function findMetricsTeamsOfUser(
  db: Database,
  userId: string,
): Promise<MetricsTeamRow[]> {
  return db
    .selectFrom('team_members')
    .innerJoin('teams', 'teams.id', 'team_members.team_id')
    .select(['teams.id', 'teams.permission_levels', 'teams.time_zone'])
    .where('team_members.user_id', '=', userId)
    .orderBy('team_members.created_at')
    .execute();
}
