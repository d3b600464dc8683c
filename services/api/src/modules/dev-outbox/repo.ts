import type { Database } from '@locus/db';
import { sql } from 'kysely';

export interface OutboxFilter {
  to?: string;
  limit: number;
}

/** E-mails the outbox provider has "sent" (kept in the database, nothing left the machine). */
export async function listOutboxEmails(db: Database, filter: OutboxFilter) {
  let query = db
    .selectFrom('emails')
    .select(['to_address', 'subject', 'text', 'created_at'])
    .where('provider', '=', 'outbox')
    .where('status', '=', 'sent')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.limit);
  if (filter.to) query = query.where(sql`lower(to_address)`, '=', filter.to.toLowerCase());
  const rows = await query.execute();
  return rows.map((row) => ({
    to: row.to_address,
    subject: row.subject,
    text: row.text,
    createdAt: row.created_at.toISOString(),
  }));
}

/**
 * Text messages the SMS outbox provider has "sent". `to` is matched on its digits, so that a `+`
 * that a URL turned into a space still finds the number.
 */
export async function listOutboxSms(
  db: Database,
  filter: OutboxFilter,
): Promise<{ to: string; body: string; createdAt: string }[]> {
  let query = db
    .selectFrom('sms_messages')
    .select(['phone_number', 'body', 'created_at'])
    .where('provider', '=', 'outbox')
    .where('direction', '=', 'outbound')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.limit);
  if (filter.to) query = query.where('phone_number', '=', `+${filter.to.replace(/\D/g, '')}`);
  const rows = await query.execute();
  return rows.map((row) => ({
    to: row.phone_number,
    body: row.body,
    createdAt: row.created_at.toISOString(),
  }));
}
