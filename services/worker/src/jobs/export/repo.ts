import type { Database } from '@locus/db';
import { sql } from 'kysely';

/**
 * The session's export, unless the retention purge deleted its history: a job queued before
 * the purge must not replace the signed export with one that lacks it.
 */
export async function findPendingExport(db: Database, sessionId: string) {
  return db
    .selectFrom('session_exports as x')
    .innerJoin('tracking_sessions as s', 's.id', 'x.session_id')
    .select(['x.session_id', 'x.team_id', 'x.stored_at', 'x.expected_seq'])
    .where('x.session_id', '=', sessionId)
    .where('s.history_purged_at', 'is', null)
    .executeTakeFirst();
}

/** An attempt begins: what a user sees while it runs. */
export async function markWriting(db: Database, sessionId: string): Promise<void> {
  await db
    .updateTable('session_exports')
    .set({
      state: 'writing',
      attempts: sql<number>`attempts + 1`,
      last_attempt_at: sql<Date>`now()`,
    })
    .where('session_id', '=', sessionId)
    .execute();
}

/** An attempt failed: `retrying` while BullMQ has attempts left, `failed` after the last. */
export async function markAttemptFailed(
  db: Database,
  sessionId: string,
  state: 'retrying' | 'failed',
  error: string,
): Promise<void> {
  await db
    .updateTable('session_exports')
    .set({ state, last_error: error.slice(0, 1000) })
    .where('session_id', '=', sessionId)
    .execute();
}

/**
 * The sequence numbers up to `upTo` that are not (yet) in Postgres: every seq is a fix
 * (`location_fixes`) or another event (`session_events`); a chat message's row (`chat_messages`,
 * committed before its event is written) counts too, since the evidence file is built from it.
 * A gap is something an instance's batch writer still holds. At most `limit`, lowest first.
 */
export async function missingSeqs(
  db: Database,
  sessionId: string,
  upTo: number,
  limit = 20,
): Promise<number[]> {
  const { rows } = await sql<{ seq: number }>`
    select expected.seq from generate_series(1, ${upTo}::int) as expected(seq)
    where not exists (select 1 from location_fixes f where f.session_id = ${sessionId} and f.seq = expected.seq)
      and not exists (select 1 from session_events e where e.session_id = ${sessionId} and e.seq = expected.seq)
      and not exists (select 1 from chat_messages m where m.session_id = ${sessionId} and m.seq = expected.seq)
    order by expected.seq
    limit ${limit}
  `.execute(db);
  return rows.map((row) => row.seq);
}

/** The highest seq in Postgres: what the export waits for when the counter was not recorded. */
export async function highestStoredSeq(db: Database, sessionId: string): Promise<number> {
  const { rows } = await sql<{ seq: number | null }>`
    select greatest(
      (select max(seq) from location_fixes where session_id = ${sessionId}),
      (select max(seq) from session_events where session_id = ${sessionId})
    ) as seq
  `.execute(db);
  return rows[0]?.seq ?? 0;
}

/** What the evidence file says about the session itself. */
export async function evidenceSession(db: Database, sessionId: string) {
  return db
    .selectFrom('tracking_sessions as s')
    .leftJoin('teams as t', 't.id', 's.team_id')
    .select([
      's.id',
      's.team_id',
      't.team_name',
      's.created_at',
      's.ended_at',
      's.external_reference',
    ])
    .where('s.id', '=', sessionId)
    .executeTakeFirstOrThrow();
}

/** Every event of the session but fixes, in seq order (chat messages appear here too). */
export async function sessionEvents(db: Database, sessionId: string) {
  return db
    .selectFrom('session_events as e')
    .innerJoin('session_callers as c', 'c.id', 'e.caller_id')
    .select(['e.seq', 'e.event', 'e.payload', 'e.created_at', 'c.phone_number'])
    .where('e.session_id', '=', sessionId)
    .orderBy('e.seq')
    .execute();
}

/** The chat as stored (sender, words, translation), keyed by the seq it was announced with. */
export async function sessionChat(db: Database, sessionId: string) {
  return db
    .selectFrom('chat_messages as m')
    .innerJoin('session_callers as c', 'c.id', 'm.caller_id')
    .select([
      'm.seq',
      'm.sender',
      'm.sender_name',
      'c.phone_number',
      'm.body',
      'm.language',
      'm.quick_reply',
      'm.translation_language',
      'm.translation_text',
      'm.translation_status',
      'm.sent_at',
    ])
    .where('m.session_id', '=', sessionId)
    .orderBy('m.seq')
    .execute();
}

/**
 * Every fix of the session, oldest first, with its number and dispatcher: the one who ran it at
 * the end (`dispatcher_id`, after any case transfer).
 */
export async function exportFixes(db: Database, sessionId: string) {
  return db
    .selectFrom('location_fixes as f')
    .innerJoin('session_callers as c', 'c.id', 'f.caller_id')
    .innerJoin('tracking_sessions as s', 's.id', 'f.session_id')
    .leftJoin('users as u', 'u.id', 's.dispatcher_id')
    .select([
      'u.first_name',
      'u.last_name',
      'c.phone_number',
      'f.longitude',
      'f.latitude',
      'f.uncertainty_radius_m',
      'f.altitude',
      'f.address',
      'f.source',
      'f.captured_at',
      'f.seq',
      'f.received_at',
    ])
    .where('f.session_id', '=', sessionId)
    .orderBy('f.captured_at')
    .orderBy('f.seq')
    .execute();
}

export async function markExported(
  db: Database,
  sessionId: string,
  file: {
    fileName: string | null;
    storageKey: string | null;
    storage: string;
    evidenceKey: string | null;
    chainHead: string | null;
    signingKeyId: string | null;
  },
): Promise<void> {
  await db
    .updateTable('session_exports')
    .set({
      state: 'stored',
      last_error: null,
      file_name: file.fileName,
      storage_key: file.storageKey,
      storage: file.storage,
      evidence_key: file.evidenceKey,
      chain_head: file.chainHead,
      signing_key_id: file.signingKeyId,
      stored_at: sql<Date>`now()`,
    })
    .where('session_id', '=', sessionId)
    .execute();
}

/** A key that signs evidence files, recorded once (the API lists them for auditors). */
export async function registerSigningKey(
  db: Database,
  keyId: string,
  publicKeyPem: string,
): Promise<void> {
  await db
    .insertInto('evidence_signing_keys')
    .values({ key_id: keyId, public_key_pem: publicKeyPem })
    .onConflict((oc) => oc.column('key_id').doNothing())
    .execute();
}

/** The session's photos, stills and snapshots (issue 19), in the order they were stored. */
export async function exportMedia(db: Database, sessionId: string) {
  return db
    .selectFrom('session_media')
    .select([
      'id',
      'caller_id',
      'kind',
      'content_type',
      'bytes',
      'width',
      'height',
      'taken_at',
      'uploaded_at',
      'latitude',
      'longitude',
      'uncertainty_radius_m',
      'sha256',
      'storage_key',
      'seq',
    ])
    .where('session_id', '=', sessionId)
    .orderBy('uploaded_at')
    .orderBy('id')
    .execute();
}

/** The session's recordings, each with its chunks in order. */
export async function exportRecordings(db: Database, sessionId: string) {
  const recordings = await db
    .selectFrom('session_recordings')
    .select(['id', 'caller_id', 'content_type', 'started_at', 'ended_at', 'sha256'])
    .where('session_id', '=', sessionId)
    .orderBy('started_at')
    .orderBy('id')
    .execute();
  const chunks =
    recordings.length === 0
      ? []
      : await db
          .selectFrom('session_recording_chunks')
          .select(['recording_id', 'index', 'storage_key', 'bytes', 'sha256'])
          .where(
            'recording_id',
            'in',
            recordings.map((recording) => recording.id),
          )
          .orderBy('recording_id')
          .orderBy('index')
          .execute();
  return recordings.map((recording) => ({
    ...recording,
    chunks: chunks.filter((chunk) => chunk.recording_id === recording.id),
  }));
}
