import { sql, type Kysely } from 'kysely';

// Two things for the caller-location pipeline's security (issue 17):
// - A fix from a phone whose clock runs ahead is stored at the server's estimate of when it was
//   taken, and how far ahead the phone stamped it is kept, so a replay from Postgres rebuilds
//   the very frame first sent (its `clockSkewMs`).
// - Sign-out, a password change or a removal revokes every dispatcher socket token of the user:
//   an index finds a user's live dispatcher tokens without reading the whole table.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table location_fixes
      add column clock_skew_ms integer check (clock_skew_ms >= 0)
  `.execute(db);
  await sql`
    create index connection_tokens_dispatcher_user on connection_tokens (user_id)
      where kind = 'dispatcher' and revoked_at is null
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index connection_tokens_dispatcher_user`.execute(db);
  await sql`alter table location_fixes drop column clock_skew_ms`.execute(db);
}
