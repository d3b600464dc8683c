import { sql, type Kysely } from 'kysely';

// Metrics (issue 13), sign-ins. The audit trail records each completed sign-in once as
// 'sign-in' (subject: the user's id) and each refused one once as 'sign-in.failed' (subject: the
// address typed, detail.userId: its account, or null for an unknown address). A team's sign-ins
// are its members' (by membership, not the row's team_id, which is only the user's first team),
// so they are found per member: this index keys both kinds by that user and time. The
// expression must stay the one logins-repo.ts writes (signInUser), or the planner cannot use it.
// The platform's sign-ins per day use audit_log_action (action, at) as they are.
// users_created_at: the platform's new users per month.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index audit_log_sign_in_user on audit_log
      ((case when action = 'sign-in' then subject else detail ->> 'userId' end), at)
      where action in ('sign-in', 'sign-in.failed');
    create index users_created_at on users (created_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index users_created_at;
    drop index audit_log_sign_in_user;
  `.execute(db);
}
