import { sql, type Kysely } from 'kysely';

// Locating now needs a completed registration as well as an active team. Users a team admin
// enrolled (group registration) never went through the registration form: the admin completed
// it for them by choosing the team. Their registration counts as completed from the day they
// joined, so that the rule does not lock existing dispatchers out. Nothing to undo: the column
// only gains values it should always have had.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update users u
       set registration_completed_at = m.joined_at
      from (select user_id, min(created_at) as joined_at from team_members group by user_id) m
     where m.user_id = u.id and u.registration_completed_at is null`.execute(db);
}

export async function down(): Promise<void> {}
