import type { Database } from '@locus/db';
import { sql } from 'kysely';

export async function findEmail(db: Database, id: string) {
  return db
    .selectFrom('emails')
    .select(['id', 'to_address', 'subject', 'text', 'status'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Only a queued row becomes sent: a row sent by an earlier attempt stays as it was. */
export async function markSent(db: Database, id: string, provider: string): Promise<void> {
  await db
    .updateTable('emails')
    .set((eb) => ({
      status: 'sent',
      provider,
      sent_at: sql<Date>`now()`,
      attempts: eb('attempts', '+', 1),
      last_error: null,
    }))
    .where('id', '=', id)
    .where('status', '=', 'queued')
    .execute();
}

export async function recordFailure(
  db: Database,
  id: string,
  error: string,
  terminal: boolean,
): Promise<void> {
  await db
    .updateTable('emails')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      last_error: error.slice(0, 1000),
      ...(terminal ? { status: 'failed' } : {}),
    }))
    .where('id', '=', id)
    .where('status', '=', 'queued')
    .execute();
}

/** Queued rows older than the deadline, oldest first. */
export async function findStuckEmails(
  db: Database,
  olderThanSeconds: number,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('emails')
    .select('id')
    .where('status', '=', 'queued')
    .where('created_at', '<', sql<Date>`now() - make_interval(secs => ${olderThanSeconds})`)
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/** Rows still queued after the give-up period are failed; returns how many. */
export async function failAbandonedEmails(db: Database, olderThanHours: number): Promise<number> {
  const result = await db
    .updateTable('emails')
    .set({ status: 'failed', last_error: `not sent within ${olderThanHours} hours; gave up` })
    .where('status', '=', 'queued')
    .where('created_at', '<', sql<Date>`now() - make_interval(hours => ${olderThanHours})`)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
