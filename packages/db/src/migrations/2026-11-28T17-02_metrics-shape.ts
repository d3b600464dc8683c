import { sql, type Kysely } from 'kysely';

// Metrics (issue 13), the shape of a team's cases:
// - case durations count the sessions that ended in the range, so they are found by team and end
//   time; created_at and created_by ride along so that the durations (and one user's) are read
//   from the index alone.
// - the languages count the callers who were texted: the outbound text of one caller.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index tracking_sessions_team_ended on tracking_sessions (team_id, ended_at)
      include (created_at, created_by) where ended_at is not null;
    create index sms_messages_caller_outbound on sms_messages (caller_id)
      where direction = 'outbound';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index sms_messages_caller_outbound;
    drop index tracking_sessions_team_ended;
  `.execute(db);
}
