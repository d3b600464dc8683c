import type { Database, DB } from '@locus/db';
import { sql, type Transaction } from 'kysely';

/**
 * The caller a link token opens, while it may still send: the token is neither revoked nor
 * expired, the session is active and the number has not texted STOP (as the caller's page and
 * socket see it).
 */
export async function findUploadingCaller(db: Database, hash: Buffer) {
  return db
    .selectFrom('connection_tokens as t')
    .innerJoin('tracking_sessions as s', 's.id', 't.session_id')
    .innerJoin('session_callers as c', 'c.id', 't.caller_id')
    .leftJoin('sms_opt_outs as o', 'o.phone_number', 'c.phone_number')
    .select(['s.id as session_id', 'c.id as caller_id', 's.team_id'])
    .where('t.token_hash', '=', hash)
    .where('t.kind', '=', 'caller')
    .where('t.revoked_at', 'is', null)
    .where('t.expires_at', '>', sql<Date>`now()`)
    .where((eb) =>
      eb.or([eb('t.hard_expires_at', 'is', null), eb('t.hard_expires_at', '>', sql<Date>`now()`)]),
    )
    .where('s.status', '=', 'active')
    .where('o.phone_number', 'is', null)
    .executeTakeFirst();
}

/** A caller of the session (a snapshot names one). */
export async function findSessionCaller(db: Database, sessionId: string, callerId: string) {
  return db
    .selectFrom('session_callers')
    .select(['id'])
    .where('id', '=', callerId)
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
}

/** Pictures of one kind a caller has in the session (the photo limit counts `photo` only). */
export async function countCallerMedia(
  db: Database | Transaction<DB>,
  sessionId: string,
  callerId: string,
  kind: 'photo' | 'still',
): Promise<number> {
  return (await usedCallerMedia(db, sessionId, callerId, kind)).count;
}

/** How many files of a kind the caller has in the session, and their bytes. */
async function usedCallerMedia(
  db: Database | Transaction<DB>,
  sessionId: string,
  callerId: string,
  kind: 'photo' | 'still' | 'snapshot',
): Promise<{ count: number; bytes: number }> {
  return db
    .selectFrom('session_media')
    .select([
      sql<number>`count(*)::int`.as('count'),
      sql<number>`coalesce(sum(bytes), 0)::bigint`.as('bytes'),
    ])
    .where('session_id', '=', sessionId)
    .where('caller_id', '=', callerId)
    .where('kind', '=', kind)
    .executeTakeFirstOrThrow()
    .then((row) => ({ count: row.count, bytes: Number(row.bytes) }));
}

/** When the caller's last still arrived (stills are rate-limited, not counted). */
export async function lastStillAt(
  db: Database,
  sessionId: string,
  callerId: string,
): Promise<Date | null> {
  const row = await db
    .selectFrom('session_media')
    .select(sql<Date | null>`max(uploaded_at)`.as('at'))
    .where('session_id', '=', sessionId)
    .where('caller_id', '=', callerId)
    .where('kind', '=', 'still')
    .executeTakeFirst();
  return row?.at ?? null;
}

export interface NewMedia {
  id: string;
  sessionId: string;
  callerId: string;
  kind: 'photo' | 'still' | 'snapshot';
  uploadedBy: string | null;
  contentType: string;
  bytes: number;
  width: number | null;
  height: number | null;
  takenAt: Date;
  position: {
    latitude: number;
    longitude: number;
    uncertaintyRadiusInMeters: number | null;
  } | null;
  sha256: string;
  storageKey: string;
}

/**
 * Stores the row unless the caller already has `limit` pictures of its kind: the caller's row is
 * locked first, so two uploads at once cannot both be the tenth. Returns the row, or null when
 * the limit was reached (nothing written).
 */
/**
 * What one caller may have of a kind in a session: at most `most` files, or `bytes` in all
 * (stills). Null: no limit.
 */
export type MediaAllowance = { most: number } | { bytes: number } | null;

export async function insertMediaWithin(db: Database, media: NewMedia, allowance: MediaAllowance) {
  return db.transaction().execute(async (trx) => {
    await trx
      .selectFrom('session_callers')
      .select('id')
      .where('id', '=', media.callerId)
      .forUpdate()
      .executeTakeFirst();
    if (allowance) {
      const used = await usedCallerMedia(trx, media.sessionId, media.callerId, media.kind);
      const full =
        'most' in allowance
          ? used.count >= allowance.most
          : used.bytes + media.bytes > allowance.bytes;
      if (full) return null;
    }
    return trx
      .insertInto('session_media')
      .values({
        id: media.id,
        session_id: media.sessionId,
        caller_id: media.callerId,
        kind: media.kind,
        uploaded_by: media.uploadedBy,
        content_type: media.contentType,
        bytes: media.bytes,
        width: media.width,
        height: media.height,
        taken_at: media.takenAt,
        latitude: media.position?.latitude ?? null,
        longitude: media.position?.longitude ?? null,
        uncertainty_radius_m: media.position?.uncertaintyRadiusInMeters ?? null,
        sha256: media.sha256,
        storage_key: media.storageKey,
      })
      .returning(mediaColumns)
      .executeTakeFirstOrThrow();
  });
}

const mediaColumns = [
  'id',
  'session_id',
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
] as const;

export type MediaRow = Awaited<ReturnType<typeof findMedia>> & object;

/** The `photo-added` event's seq, kept on the row (the export orders pictures by it). */
export async function setMediaSeq(db: Database, id: string, seq: number): Promise<void> {
  await db.updateTable('session_media').set({ seq }).where('id', '=', id).execute();
}

export async function listSessionMedia(db: Database, sessionId: string) {
  return db
    .selectFrom('session_media')
    .select(mediaColumns)
    .where('session_id', '=', sessionId)
    .orderBy('uploaded_at')
    .orderBy('id')
    .execute();
}

export async function findMedia(db: Database, id: string) {
  return db
    .selectFrom('session_media')
    .select(mediaColumns)
    .where('id', '=', id)
    .executeTakeFirst();
}
