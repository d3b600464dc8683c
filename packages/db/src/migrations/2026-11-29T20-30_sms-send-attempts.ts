import { sql, type Kysely } from 'kysely';

// Issue 18, exactly-once texting: when a send was first handed to the provider. A worker that
// dies between the provider's accept and its own commit leaves this set and the row queued;
// the next attempt asks the provider whether it already has the text before sending it again.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sms_messages add column send_attempted_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sms_messages drop column send_attempted_at`.execute(db);
}
