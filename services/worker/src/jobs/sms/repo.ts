import type { Database } from '@locus/db';
import { sql } from 'kysely';

export async function findSms(db: Database, smsId: string) {
  return db
    .selectFrom('sms_messages as m')
    .leftJoin('sms_opt_outs as o', 'o.phone_number', 'm.phone_number')
    .select(['m.id', 'm.phone_number', 'm.body', 'm.status', 'o.phone_number as opted_out'])
    .where('m.id', '=', smsId)
    .where('m.direction', '=', 'outbound')
    .executeTakeFirst();
}

/**
 * Only a queued row becomes sent: a row sent by an earlier attempt stays as it was. `body`
 * replaces the stored text (the link's token blanked once the phone has it).
 */
export async function markSmsSent(
  db: Database,
  smsId: string,
  provider: string,
  providerMessageId: string,
  body?: string,
): Promise<void> {
  await db
    .updateTable('sms_messages')
    .set({
      ...(body === undefined ? {} : { body }),
      status: 'sent',
      provider,
      provider_message_id: providerMessageId,
      sent_at: sql<Date>`now()`,
      error: null,
    })
    .where('id', '=', smsId)
    .where('status', '=', 'queued')
    .execute();
}

export async function markSmsFailed(
  db: Database,
  smsId: string,
  provider: string,
  error: string,
): Promise<void> {
  await db
    .updateTable('sms_messages')
    .set({ status: 'failed', provider, error: error.slice(0, 500) })
    .where('id', '=', smsId)
    .where('status', '=', 'queued')
    .execute();
}

export async function recordSmsAttemptError(
  db: Database,
  smsId: string,
  error: string,
): Promise<void> {
  await db
    .updateTable('sms_messages')
    .set({ error: error.slice(0, 500) })
    .where('id', '=', smsId)
    .execute();
}
