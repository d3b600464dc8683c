import { sql, type Kysely } from 'kysely';

// Practice mode (issue 14): a dispatcher runs the dashboard flow against a scripted caller that
// the API simulates. A practice session texts nobody and belongs to no team: every metrics read
// starts from a team's sessions (and from the covering indexes of the metrics migrations), so a
// session with no team is never counted, nor seen by a team admin, transferred or exported. The
// constraint keeps that true whoever writes the row. Practice sessions write no texts and no
// lookups, so the counters of metrics-counters (triggers on those rows) count nothing either.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table tracking_sessions
      add column practice boolean not null default false,
      add constraint tracking_sessions_practice_no_team check (not practice or team_id is null);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table tracking_sessions
      drop constraint tracking_sessions_practice_no_team,
      drop column practice;
  `.execute(db);
}
