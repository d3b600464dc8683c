import type { Database } from '@locus/db';
import { sql } from 'kysely';

/** A session as a partner key of its team reads it (issue 15). */
export interface TeamSessionRow {
  id: string;
  teamId: string;
  status: string;
  startedBy: 'partner' | 'dispatcher';
  externalReference: string | null;
  createdAt: Date;
  endedAt: Date | null;
}

/**
 * The session if it belongs to `teamId`. A session of another team (or a practice session,
 * which has none) is undefined, indistinguishable from one that does not exist.
 */
export async function findTeamSession(
  db: Database,
  sessionId: string,
  teamId: string,
): Promise<TeamSessionRow | undefined> {
  const row = await db
    .selectFrom('tracking_sessions')
    .select([
      'id',
      'team_id',
      'status',
      'created_by',
      'partner_key_id',
      'external_reference',
      'created_at',
      'ended_at',
    ])
    .where('id', '=', sessionId)
    .where('team_id', '=', teamId)
    .where('practice', '=', false)
    .executeTakeFirst();
  if (!row?.team_id) return undefined;
  return {
    id: row.id,
    teamId: row.team_id,
    status: row.status,
    // Keys are revoked, never deleted (only with their team and its sessions); a dispatcher's
    // account may be deleted, which empties created_by, so that is not the sign.
    startedBy: row.partner_key_id === null ? 'dispatcher' : 'partner',
    externalReference: row.external_reference,
    createdAt: row.created_at,
    endedAt: row.ended_at,
  };
}

export interface PartnerCallerRow {
  id: string;
  phoneNumber: string;
  language: 'en' | 'es' | 'fr' | 'zh';
  firstTextAt: Date | null;
  textDeliveredAt: Date | null;
  linkOpenedAt: Date | null;
  sharedAt: Date | null;
  deniedAt: Date | null;
  /** The newest outbound text's status (`queued`, `sent`, `delivered`, `failed`…), if any. */
  lastTextStatus: string | null;
}

export async function findPartnerCallers(
  db: Database,
  sessionId: string,
): Promise<PartnerCallerRow[]> {
  const rows = await db
    .selectFrom('session_callers as c')
    .select([
      'c.id',
      'c.phone_number',
      'c.language',
      'c.first_text_at',
      'c.text_delivered_at',
      'c.link_opened_at',
      'c.shared_at',
      'c.denied_at',
      (eb) =>
        eb
          .selectFrom('sms_messages as m')
          .select('m.status')
          .whereRef('m.caller_id', '=', 'c.id')
          .where('m.direction', '=', 'outbound')
          .orderBy('m.created_at', 'desc')
          .limit(1)
          .as('last_text_status'),
    ])
    .where('c.session_id', '=', sessionId)
    .orderBy('c.created_at')
    .orderBy('c.id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    phoneNumber: row.phone_number,
    language: row.language as PartnerCallerRow['language'],
    firstTextAt: row.first_text_at,
    textDeliveredAt: row.text_delivered_at,
    linkOpenedAt: row.link_opened_at,
    sharedAt: row.shared_at,
    deniedAt: row.denied_at,
    lastTextStatus: row.last_text_status,
  }));
}

export interface PartnerFixRow {
  seq: number;
  callerId: string;
  latitude: number;
  longitude: number;
  uncertaintyRadiusM: number;
  altitude: number | null;
  address: string | null;
  source: 'TEXT_MESSAGE' | 'RAPID_SOS';
  capturedAt: Date;
  receivedAt: Date;
}

const fixColumns = [
  'seq',
  'caller_id',
  'latitude',
  'longitude',
  'uncertainty_radius_m',
  'altitude',
  'address',
  'source',
  'captured_at',
  'received_at',
] as const;

type FixSelection = {
  seq: number;
  caller_id: string;
  latitude: number;
  longitude: number;
  uncertainty_radius_m: number;
  altitude: number | null;
  address: string | null;
  source: string;
  captured_at: Date;
  received_at: Date;
};

const toFix = (row: FixSelection): PartnerFixRow => ({
  seq: row.seq,
  callerId: row.caller_id,
  latitude: row.latitude,
  longitude: row.longitude,
  uncertaintyRadiusM: row.uncertainty_radius_m,
  altitude: row.altitude,
  address: row.address,
  source: row.source as PartnerFixRow['source'],
  capturedAt: row.captured_at,
  receivedAt: row.received_at,
});

/** Each caller's newest position (by when it was taken). */
export async function findLatestFixPerCaller(
  db: Database,
  sessionId: string,
): Promise<PartnerFixRow[]> {
  const rows = await db
    .selectFrom('location_fixes')
    .distinctOn('caller_id')
    .select(fixColumns)
    .where('session_id', '=', sessionId)
    .orderBy('caller_id')
    .orderBy('captured_at', 'desc')
    .orderBy('seq', 'desc')
    .execute();
  return rows.map(toFix);
}

/** Up to `limit` fixes after `afterSeq`, in the order they arrived. */
export async function findFixesAfter(
  db: Database,
  sessionId: string,
  afterSeq: number,
  upToSeq: number,
  limit: number,
): Promise<PartnerFixRow[]> {
  const rows = await db
    .selectFrom('location_fixes')
    .select(fixColumns)
    .where('session_id', '=', sessionId)
    .where('seq', '>', afterSeq)
    .where('seq', '<=', upToSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map(toFix);
}

/**
 * The highest seq after `afterSeq` up to which the session's record is settled: every seq in
 * between is stored (a fix, another event, or a chat message). Batch writers of several API
 * instances commit out of seq order; a cursor moved past a seq another instance has not written
 * yet would skip that fix for good. A gap whose next row was stored (by Postgres's clock,
 * `stored_at`) over `lostAfterSeconds` ago is taken as lost (an instance that died with it) and
 * passed, so one lost seq does not stop the list. Looks at most `probe` seqs ahead
 * (`probeFull`: there may be more beyond).
 */
export async function settledSeq(
  db: Database,
  sessionId: string,
  afterSeq: number,
  probe: number,
  lostAfterSeconds: number,
): Promise<{ settled: number; probeFull: boolean }> {
  const { rows } = await sql<{ settled: number; probeFull: boolean }>`
    with stored as (
      (select seq, stored_at as at from location_fixes
        where session_id = ${sessionId} and seq > ${afterSeq} order by seq limit ${probe})
      union all
      (select seq, stored_at from session_events
        where session_id = ${sessionId} and seq > ${afterSeq} order by seq limit ${probe})
      union all
      (select seq, sent_at from chat_messages
        where session_id = ${sessionId} and seq > ${afterSeq} order by seq limit ${probe})
    ),
    seqs as (
      select seq, min(at) as at, row_number() over (order by seq) as n
      from stored group by seq order by seq limit ${probe}
    )
    select greatest(
      ${afterSeq}::int,
      (select max(seq) from seqs where seq = ${afterSeq}::int + n),
      (select max(seq) from seqs where at < now() - make_interval(secs => ${lostAfterSeconds}))
    )::int as settled,
    (select count(*) from seqs) >= ${probe} as "probeFull"
  `.execute(db);
  return rows[0] ?? { settled: afterSeq, probeFull: false };
}

export type IdempotencyClaim =
  | { kind: 'claimed' }
  | { kind: 'replay'; status: number; body: unknown }
  | { kind: 'reused' }
  | { kind: 'in-progress'; retryAfterSeconds: number }
  /** The first attempt stopped after it opened its session (the process died): answer that. */
  | { kind: 'orphaned'; sessionId: string };

/**
 * Claims an `Idempotency-Key` of a partner key for a request (its hash), or says what the first
 * request with it became. Keys older than `keepHours` are forgotten first. An attempt holds the
 * key for `lockSeconds`; one that stopped without an answer is taken over after that.
 */
export async function claimIdempotencyKey(
  db: Database,
  claim: {
    keyId: string;
    idempotencyKey: string;
    requestHash: Buffer;
    keepHours: number;
    lockSeconds: number;
  },
): Promise<IdempotencyClaim> {
  return db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('partner_idempotency_keys')
      .where('key_id', '=', claim.keyId)
      .where('idempotency_key', '=', claim.idempotencyKey)
      .where('created_at', '<', sql<Date>`now() - make_interval(hours => ${claim.keepHours})`)
      .execute();
    const lockedUntil = sql<Date>`now() + make_interval(secs => ${claim.lockSeconds})`;
    const inserted = await trx
      .insertInto('partner_idempotency_keys')
      .values({
        key_id: claim.keyId,
        idempotency_key: claim.idempotencyKey,
        request_hash: claim.requestHash,
        locked_until: lockedUntil,
      })
      .onConflict((oc) => oc.columns(['key_id', 'idempotency_key']).doNothing())
      .returning('key_id')
      .executeTakeFirst();
    if (inserted) return { kind: 'claimed' };
    // Someone holds it: read it under a row lock, so that only one attempt takes it over.
    const row = await trx
      .selectFrom('partner_idempotency_keys')
      .select([
        'request_hash',
        'response_status',
        'response_body',
        'session_id',
        sql<number>`ceil(extract(epoch from locked_until - now()))::int`.as('locked_for'),
      ])
      .where('key_id', '=', claim.keyId)
      .where('idempotency_key', '=', claim.idempotencyKey)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (!row.request_hash.equals(claim.requestHash)) return { kind: 'reused' };
    if (row.response_status !== null)
      return { kind: 'replay', status: row.response_status, body: row.response_body };
    if (row.locked_for > 0) return { kind: 'in-progress', retryAfterSeconds: row.locked_for };
    await trx
      .updateTable('partner_idempotency_keys')
      .set({ locked_until: lockedUntil })
      .where('key_id', '=', claim.keyId)
      .where('idempotency_key', '=', claim.idempotencyKey)
      .execute();
    return row.session_id ? { kind: 'orphaned', sessionId: row.session_id } : { kind: 'claimed' };
  });
}

type IdempotencyRef = { keyId: string; idempotencyKey: string };

/** The session the claimed request opened, kept so that a takeover answers it. */
export async function noteIdempotentSession(
  db: Database,
  ref: IdempotencyRef,
  sessionId: string,
): Promise<void> {
  await db
    .updateTable('partner_idempotency_keys')
    .set({ session_id: sessionId })
    .where('key_id', '=', ref.keyId)
    .where('idempotency_key', '=', ref.idempotencyKey)
    .execute();
}

/** The claimed request's answer, to be given again to every retry. */
export async function storeIdempotentAnswer(
  db: Database,
  ref: IdempotencyRef,
  answer: { status: number; body: unknown },
): Promise<void> {
  await db
    .updateTable('partner_idempotency_keys')
    .set({ response_status: answer.status, response_body: JSON.stringify(answer.body) })
    .where('key_id', '=', ref.keyId)
    .where('idempotency_key', '=', ref.idempotencyKey)
    .execute();
}

/**
 * The claimed request failed before it opened a session: a retry may run it afresh. (One that
 * opened its session keeps the claim even if its commit's answer was lost: the retry after the
 * hold answers that session.)
 */
export async function releaseIdempotencyKey(db: Database, ref: IdempotencyRef): Promise<void> {
  await db
    .deleteFrom('partner_idempotency_keys')
    .where('key_id', '=', ref.keyId)
    .where('idempotency_key', '=', ref.idempotencyKey)
    .where('response_status', 'is', null)
    .where('session_id', 'is', null)
    .execute();
}
