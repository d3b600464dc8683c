import { sql, type Kysely } from 'kysely';

// A dispatcher socket token remembers the sign-in (auth session) that asked for it, so that
// signing out of one console, or that console's idle expiry, ends only that console's sockets,
// and "sign out other sessions" ends every console's but the current one's. Null for tokens
// issued before this migration or without a signed-in user (tests, the benchmark): only the
// user-wide revocations (a password change, a removal) and "sign out other sessions" reach them.
// Set null when a long-dead auth session is deleted: the token row stays for investigations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table connection_tokens
      add column auth_session_id uuid references auth_sessions (id) on delete set null;
    create index connection_tokens_dispatcher_auth_session on connection_tokens (auth_session_id)
      where kind = 'dispatcher' and revoked_at is null;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index connection_tokens_dispatcher_auth_session;
    alter table connection_tokens drop column auth_session_id;
  `.execute(db);
}
