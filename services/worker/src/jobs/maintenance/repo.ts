import type { Database } from '@locus/db';
import { sql } from 'kysely';

/**
 * Deletes what sessions that ended before the cut-off learned about where a phone was: fixes,
 * events, provider lookups and the texts both ways (which carry links). Returns rows deleted.
 */
export async function deleteHistoryEndedBefore(db: Database, cutoff: Date): Promise<number> {
  const ended = db.selectFrom('tracking_sessions').select('id').where('ended_at', '<', cutoff);
  let deleted = 0;
  for (const table of [
    'location_fixes',
    'session_events',
    'location_lookups',
    'sms_messages',
  ] as const) {
    const result = await db.deleteFrom(table).where('session_id', 'in', ended).executeTakeFirst();
    deleted += Number(result.numDeletedRows);
  }
  // Copies of the same history in partner tables (issue 15): webhook payloads carry fixes and
  // numbers, kept answers to an Idempotency-Key carry a session's view (24 h is their use).
  const deliveries = await db
    .deleteFrom('partner_webhook_deliveries')
    .where('created_at', '<', cutoff)
    .executeTakeFirst();
  const answers = await db
    .deleteFrom('partner_idempotency_keys')
    .where('created_at', '<', sql<Date>`now() - interval '24 hours'`)
    .executeTakeFirst();
  return deleted + Number(deliveries.numDeletedRows) + Number(answers.numDeletedRows);
}

export async function databaseNow(db: Database): Promise<Date> {
  const { rows } = await sql<{ now: Date }>`select now() as now`.execute(db);
  return rows[0]!.now;
}

/**
 * Accounts registered with an address that another account has confirmed: they can never be
 * confirmed. Kept a day, so that registering does not reveal at once that the address is taken.
 */
export async function deleteUnconfirmableAccounts(db: Database): Promise<number> {
  const result = await db
    .deleteFrom('users as u')
    .where('u.email_confirmed_at', 'is', null)
    .where('u.created_at', '<', sql<Date>`now() - interval '1 day'`)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('users as owner')
          .select('owner.id')
          .whereRef(sql`lower(owner.email)`, '=', sql`lower(u.email)`)
          .where('owner.email_confirmed_at', 'is not', null),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Sessions and one-time codes a month past their end: kept that long for investigations. */
export async function deleteDeadCredentials(db: Database): Promise<number> {
  const sessions = await db
    .deleteFrom('auth_sessions')
    .where((eb) =>
      eb.or([
        eb('expires_at', '<', sql<Date>`now() - interval '30 days'`),
        eb('revoked_at', '<', sql<Date>`now() - interval '30 days'`),
      ]),
    )
    .executeTakeFirst();
  const codes = await db
    .deleteFrom('one_time_codes')
    .where('expires_at', '<', sql<Date>`now() - interval '30 days'`)
    .executeTakeFirst();
  return Number(sessions.numDeletedRows) + Number(codes.numDeletedRows);
}
