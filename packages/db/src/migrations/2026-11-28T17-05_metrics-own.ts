import { sql, type Kysely } from 'kysely';

// Metrics (issue 13), Locus's own measures:
// - time to locate and accuracy read the located sessions of a team's range: a partial index
//   that carries what they measure, so that percentiles over two years are read from the index
//   alone (created_by rides along for one user's figures).
// - the link funnel finds the sessions in which a text of the range may have been written; those
//   started before the range and never ended are few, and kept apart here. (Those started in the
//   range and those that ended in it use the (team, created_at) and (team, ended_at) indexes of
//   the other metrics migrations; the texts are reached per caller through
//   sms_messages_caller_outbound.)
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index tracking_sessions_team_located on tracking_sessions (team_id, created_at)
      include (created_by, first_fix_at, first_fix_source, first_fix_uncertainty_m, best_uncertainty_m)
      where first_fix_at is not null;
    create index tracking_sessions_team_open on tracking_sessions (team_id, created_at)
      include (created_by) where ended_at is null;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index tracking_sessions_team_open;
    drop index tracking_sessions_team_located;
  `.execute(db);
}
