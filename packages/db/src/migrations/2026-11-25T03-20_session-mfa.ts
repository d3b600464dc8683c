import { sql, type Kysely } from 'kysely';

// A team's MFA requirement is about the session, not the user: mfa_verified_at is set when a
// session was started through sign-in's second step (or the user enrolled their first factor
// on it). Sessions from before this column stay null: a member of a team that requires MFA
// signs in again with the second step.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table auth_sessions add column mfa_verified_at timestamptz;`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table auth_sessions drop column mfa_verified_at;`.execute(db);
}
