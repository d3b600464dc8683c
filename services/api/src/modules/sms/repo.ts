import type { Database } from '@locus/db';
import { sql } from 'kysely';

/**
 * The caller a text from this number answers: the one Locus last texted, if that session is
 * still active. A session that never texted the number (or another team's) never sees it.
 */
export async function findActiveCallerByPhone(
  db: Database,
  phoneNumber: string,
): Promise<{ sessionId: string; callerId: string; language: string } | undefined> {
  const row = await db
    .selectFrom('sms_messages as m')
    .innerJoin('session_callers as c', 'c.id', 'm.caller_id')
    .innerJoin('tracking_sessions as s', 's.id', 'm.session_id')
    .select(['c.session_id as sessionId', 'c.id as callerId', 'c.language', 's.status'])
    .where('m.phone_number', '=', phoneNumber)
    .where('m.direction', '=', 'outbound')
    .orderBy('m.created_at', 'desc')
    .executeTakeFirst();
  if (!row || row.status !== 'active') return undefined;
  return { sessionId: row.sessionId, callerId: row.callerId, language: row.language };
}

/** The language Locus last texted this number in, for automatic replies. */
export async function lastLanguageTexted(
  db: Database,
  phoneNumber: string,
): Promise<string | null> {
  const row = await db
    .selectFrom('sms_messages')
    .select('language')
    .where('phone_number', '=', phoneNumber)
    .where('direction', '=', 'outbound')
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return row?.language ?? null;
}

export async function insertInboundSms(
  db: Database,
  input: {
    phoneNumber: string;
    body: string;
    providerMessageId: string | null;
    sessionId: string | null;
    callerId: string | null;
  },
): Promise<boolean> {
  const inserted = await db
    .insertInto('sms_messages')
    .values({
      direction: 'inbound',
      phone_number: input.phoneNumber,
      body: input.body,
      status: 'received',
      provider: 'twilio',
      provider_message_id: input.providerMessageId,
      session_id: input.sessionId,
      caller_id: input.callerId,
    })
    // Twilio retries a webhook it got no answer to: the same message is recorded once.
    .onConflict((oc) =>
      oc.column('provider_message_id').where('provider_message_id', 'is not', null).doNothing(),
    )
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/**
 * STOP: no more texts to the number, and every link it was sent stops working. Returns the
 * callers whose links were revoked, so that their open pages can be closed.
 */
export async function optOut(db: Database, phoneNumber: string): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('sms_opt_outs')
      .values({ phone_number: phoneNumber })
      .onConflict((oc) => oc.column('phone_number').doNothing())
      .execute();
    const revoked = await trx
      .updateTable('connection_tokens')
      .set({ revoked_at: sql<Date>`now()` })
      .where('kind', '=', 'caller')
      .where('revoked_at', 'is', null)
      .where(
        'caller_id',
        'in',
        trx.selectFrom('session_callers').select('id').where('phone_number', '=', phoneNumber),
      )
      .returning('caller_id')
      .execute();
    return [...new Set(revoked.map((row) => row.caller_id).filter((id) => id !== null))];
  });
}

export async function optIn(db: Database, phoneNumber: string): Promise<void> {
  await db.deleteFrom('sms_opt_outs').where('phone_number', '=', phoneNumber).execute();
}

const statusRank: Record<string, number> = {
  queued: 0,
  sent: 1,
  delivered: 2,
  undelivered: 2,
  failed: 2,
};

/**
 * A delivery report. Reports can arrive out of order (sent after delivered): a row only moves
 * forward. Returns the row's session and caller when its status changed.
 */
export async function applyDeliveryStatus(
  db: Database,
  providerMessageId: string,
  status: 'sent' | 'delivered' | 'undelivered' | 'failed',
  error: string | null,
): Promise<{ sessionId: string | null; callerId: string | null } | undefined> {
  const lower = Object.entries(statusRank)
    .filter(([, rank]) => rank < statusRank[status]!)
    .map(([name]) => name);
  if (lower.length === 0) return undefined;
  const row = await db
    .updateTable('sms_messages')
    .set({ status, ...(error ? { error } : {}) })
    .where('provider_message_id', '=', providerMessageId)
    .where('direction', '=', 'outbound')
    .where('status', 'in', lower)
    .returning(['session_id', 'caller_id'])
    .executeTakeFirst();
  return row ? { sessionId: row.session_id, callerId: row.caller_id } : undefined;
}
