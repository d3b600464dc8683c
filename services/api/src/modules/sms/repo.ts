import type { Database } from '@locus/db';
import { sql } from 'kysely';

/** A caller Locus texted at a number. */
export interface TextedCaller {
  sessionId: string;
  callerId: string;
  language: string;
  /** The caller's text code (see text-location.ts in the contract). */
  textCode: string;
  /** Whether the caller's session is still active. */
  active: boolean;
}

/**
 * The callers Locus texted at this number, the most recently texted first (at most 20): a text
 * from the number answers the first if its session is still active, or another active one whose
 * text code it names. A session that never texted the number (or another team's) never sees it.
 */
export async function findCallersTextedAt(
  db: Database,
  phoneNumber: string,
): Promise<TextedCaller[]> {
  const rows = await db
    .selectFrom('sms_messages as m')
    .innerJoin('session_callers as c', 'c.id', 'm.caller_id')
    .innerJoin('tracking_sessions as s', 's.id', 'c.session_id')
    .select([
      'c.session_id as sessionId',
      'c.id as callerId',
      'c.language',
      'c.text_code as textCode',
      's.status',
    ])
    .where('m.phone_number', '=', phoneNumber)
    .where('m.direction', '=', 'outbound')
    .groupBy(['c.session_id', 'c.id', 'c.language', 'c.text_code', 's.status'])
    .orderBy(sql`max(m.created_at)`, 'desc')
    .limit(20)
    .execute();
  return rows.map(({ status, ...caller }) => ({ ...caller, active: status === 'active' }));
}

/** Where this caller was last seen: the reference a short Plus Code is read against. */
export async function lastKnownPosition(
  db: Database,
  caller: { sessionId: string; callerId: string },
): Promise<{ latitude: number; longitude: number } | null> {
  // By session first: the primary key's prefix, so only the session's fixes are read.
  const row = await db
    .selectFrom('location_fixes')
    .select(['latitude', 'longitude'])
    .where('session_id', '=', caller.sessionId)
    .where('caller_id', '=', caller.callerId)
    .orderBy('captured_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * True when the caller's page already delivered a fix taken in this second (a text repeats it).
 * Redis knows it first (`TextMarks`); this covers a Redis that lost its data.
 */
export async function pageFixInSecond(
  db: Database,
  caller: { sessionId: string; callerId: string },
  capturedAt: number,
): Promise<boolean> {
  const start = Math.floor(capturedAt / 1000) * 1000;
  const row = await db
    .selectFrom('location_fixes')
    .select('seq')
    .where('session_id', '=', caller.sessionId)
    .where('caller_id', '=', caller.callerId)
    .where('delivered_by', 'is', null)
    .where('source', '=', 'TEXT_MESSAGE')
    .where('captured_at', '>=', new Date(start))
    .where('captured_at', '<', new Date(start + 1000))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
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

/** The note of an inbound text being handled; replaced by what it became. */
export const handlingNote = 'Being handled.';
/** A text still "being handled" after this long was left half-way (a crash): handle it again. */
const abandonedAfterSeconds = 30;

/**
 * Records an inbound text once: Twilio retries a webhook it got no answer to. Answers the row,
 * whether it is new, and whether it is handled (or being handled) already: a retry while the
 * first delivery is still at work does nothing, one after a delivery abandoned half-way does it
 * again.
 */
export async function insertInboundSms(
  db: Database,
  input: {
    phoneNumber: string;
    body: string;
    providerMessageId: string | null;
    sessionId: string | null;
    callerId: string | null;
  },
): Promise<{ id: string; fresh: boolean; handled: boolean }> {
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
      note: handlingNote,
    })
    .onConflict((oc) =>
      oc.column('provider_message_id').where('provider_message_id', 'is not', null).doNothing(),
    )
    .returning('id')
    .executeTakeFirst();
  if (inserted) return { id: inserted.id, fresh: true, handled: false };
  // Taken over only if nobody finished it and its handler is long gone.
  const reclaimed = await db
    .updateTable('sms_messages')
    // Its clock restarts: the age says how long the new handler has had it.
    .set({ note: handlingNote, created_at: sql<Date>`now()` })
    .where('provider_message_id', '=', input.providerMessageId)
    .where('direction', '=', 'inbound')
    .where('note', '=', handlingNote)
    .where('created_at', '<', sql<Date>`now() - make_interval(secs => ${abandonedAfterSeconds})`)
    .returning('id')
    .executeTakeFirst();
  if (reclaimed) return { id: reclaimed.id, fresh: false, handled: false };
  const existing = await db
    .selectFrom('sms_messages')
    .select('id')
    .where('provider_message_id', '=', input.providerMessageId)
    .where('direction', '=', 'inbound')
    .executeTakeFirstOrThrow();
  return { id: existing.id, fresh: false, handled: true };
}

/** What an inbound text became (a location, a duplicate, why not): the end of its handling. */
export async function setInboundNote(db: Database, smsId: string, note: string): Promise<void> {
  await db.updateTable('sms_messages').set({ note }).where('id', '=', smsId).execute();
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
): Promise<{ id: string; sessionId: string | null; callerId: string | null } | undefined> {
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
    .returning(['id', 'session_id', 'caller_id'])
    .executeTakeFirst();
  return row ? { id: row.id, sessionId: row.session_id, callerId: row.caller_id } : undefined;
}

export async function holdsProviderMessage(
  db: Database,
  providerMessageId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('sms_messages')
    .select('id')
    .where('provider_message_id', '=', providerMessageId)
    .where('direction', '=', 'outbound')
    .executeTakeFirst();
  return row !== undefined;
}

/** An outbound text whose status moved past what its session was last told. */
export interface UnreportedSms {
  id: string;
  sessionId: string;
  callerId: string | null;
  status: string;
  error: string | null;
  /** What the session was last told ('queued': only that it is on its way). */
  reportedStatus: string;
  /** Whether the provider ever took it (the worker stamps `sent_at` then). */
  wentOut: boolean;
}

const unreported = (db: Database) =>
  db
    .selectFrom('sms_messages')
    .where('direction', '=', 'outbound')
    .where('status', '<>', 'queued')
    .where('session_id', 'is not', null)
    // Null for history and seeds: only texts this API wrote are reported.
    .where('reported_status', 'is not', null)
    .where(sql<boolean>`reported_status <> status`);

/**
 * The texts of the last day whose sessions have news to hear, oldest first. Older rows are
 * history (imported or seeded), and no dispatcher waits for them.
 */
export async function unreportedSmsIds(db: Database, limit = 100): Promise<string[]> {
  const rows = await unreported(db)
    .where('created_at', '>', sql<Date>`now() - interval '1 day'`)
    .select('id')
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Locks a text to report, unless another API instance is reporting it right now (then none).
 * The lock lasts as long as the caller's transaction, so a report is told once, and again only
 * when an instance dies between telling it and committing.
 */
export async function lockUnreportedSms(
  trx: Database,
  smsId: string,
): Promise<UnreportedSms | undefined> {
  const row = await unreported(trx)
    .select(['id', 'session_id', 'caller_id', 'status', 'error', 'reported_status', 'sent_at'])
    .where('id', '=', smsId)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
  return row
    ? {
        id: row.id,
        sessionId: row.session_id!,
        callerId: row.caller_id,
        status: row.status,
        error: row.error,
        reportedStatus: row.reported_status!,
        wentOut: row.sent_at !== null,
      }
    : undefined;
}

export async function markSmsReported(trx: Database, smsId: string, status: string): Promise<void> {
  await trx
    .updateTable('sms_messages')
    .set({ reported_status: status })
    .where('id', '=', smsId)
    .execute();
}

/**
 * A delivery report for a message id no row holds yet: Twilio can report before the worker has
 * stored the id its request returned. Kept until the worker stores it (then applied there,
 * `services/worker/src/jobs/sms/repo.ts`); a report for a message that is not ours is purged
 * with the early reports older than a day.
 */
export async function keepEarlyReport(
  db: Database,
  report: { providerMessageId: string; status: string; error: string | null },
): Promise<void> {
  await db
    .insertInto('sms_early_reports')
    .values({
      provider_message_id: report.providerMessageId,
      status: report.status,
      error: report.error,
    })
    .onConflict((conflict) => conflict.columns(['provider_message_id', 'status']).doNothing())
    .execute();
  await db
    .deleteFrom('sms_early_reports')
    .where('received_at', '<', sql<Date>`now() - interval '1 day'`)
    .execute();
}
