import type { Database } from '@locus/db';
import { sql } from 'kysely';

export async function findSms(db: Database, smsId: string) {
  return db
    .selectFrom('sms_messages as m')
    .leftJoin('sms_opt_outs as o', 'o.phone_number', 'm.phone_number')
    .select([
      'm.id',
      'm.phone_number',
      'm.body',
      'm.status',
      'm.provider_message_id',
      'o.phone_number as opted_out',
    ])
    .where('m.id', '=', smsId)
    .where('m.direction', '=', 'outbound')
    .executeTakeFirst();
}

/**
 * Records that the text is being handed to the provider; returns when an earlier attempt did,
 * if one did (its outcome is then unknown: it may have been accepted).
 */
export async function markSendAttempt(db: Database, smsId: string): Promise<Date | null> {
  // The row is locked as it is read (`for update` in the FROM, not a CTE: a CTE read only by
  // RETURNING runs after the update and reads the old snapshot). Two runs of one job at once (a
  // stalled job run again while the first still runs) must not both read "never attempted": the
  // second waits for the first's lock, then reads its stamp (tests/worker/sms-send-attempt.test.ts).
  const { rows } = await sql<{ previous: Date | null }>`
    update sms_messages m set send_attempted_at = coalesce(before.send_attempted_at, now())
      from (select id, send_attempted_at from sms_messages where id = ${smsId} for update) before
     where m.id = before.id
    returning before.send_attempted_at as previous`.execute(db);
  return rows[0]?.previous ?? null;
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

/**
 * Twilio's delivery reports that arrived before this message's id was stored (kept by the API,
 * `sms_early_reports`): applied now, after the id's commit, so that a report kept meanwhile is
 * seen here or finds the id itself. Forward only, ranked as the API ranks reports
 * (`applyDeliveryStatus`): queued < sent < delivered, undelivered, failed.
 */
export async function applyEarlyReports(
  db: Database,
  smsId: string,
  providerMessageId: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const reports = await trx
      .deleteFrom('sms_early_reports')
      .where('provider_message_id', '=', providerMessageId)
      .returning(['status', 'error'])
      .execute();
    const last = reports.find((report) => report.status !== 'sent') ?? reports[0];
    if (!last) return;
    await trx
      .updateTable('sms_messages')
      .set({ status: last.status, ...(last.error ? { error: last.error } : {}) })
      .where('id', '=', smsId)
      .where('status', 'in', last.status === 'sent' ? ['queued'] : ['queued', 'sent'])
      .execute();
  });
}

/** Whether another row already holds this provider id (a copy found for a retry is not ours then). */
export async function providerIdHeldElsewhere(
  db: Database,
  providerMessageId: string,
  smsId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('sms_messages')
    .select('id')
    .where('provider_message_id', '=', providerMessageId)
    .where('id', '<>', smsId)
    .executeTakeFirst();
  return row !== undefined;
}
