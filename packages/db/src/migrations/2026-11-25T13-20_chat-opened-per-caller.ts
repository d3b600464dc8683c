import { sql, type Kysely } from 'kysely';

// Chat (issue 12): when each caller was told the chat is open (`chat-opened`). Set after the
// announcement, so a caller added to a session whose chat is open is told too, and a failure
// midway is repaired by announcing again to the callers still without it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table session_callers add column chat_opened_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table session_callers drop column chat_opened_at`.execute(db);
}
