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
 * Text messages the SMS outbox provider has "sent". There is no SMS yet: the tracking issue adds
 * the SMS outbox and makes this read it; until then no message exists.
 */
export async function listOutboxSms(
  _db: Database,
  _filter: OutboxFilter,
): Promise<{ to: string; body: string; createdAt: string }[]> {
  return [];
}
