import type { Database } from '@locus/db';
import { sql } from 'kysely';

const recordingColumns = [
  'id',
  'session_id',
  'caller_id',
  'content_type',
  'started_at',
  'ended_at',
  'bytes',
  'sha256',
] as const;

export type RecordingRow = NonNullable<Awaited<ReturnType<typeof findRecording>>>;

/** Whether the session's team records video as evidence (`teams.record_media`). */
export async function teamRecordsMedia(db: Database, teamId: string | null): Promise<boolean> {
  if (teamId === null) return false;
  const row = await db
    .selectFrom('teams')
    .select('record_media')
    .where('id', '=', teamId)
    .executeTakeFirst();
  return row?.record_media ?? false;
}

export async function insertRecording(
  db: Database,
  recording: { sessionId: string; callerId: string; recordedBy: string; contentType: string },
) {
  return db
    .insertInto('session_recordings')
    .values({
      session_id: recording.sessionId,
      caller_id: recording.callerId,
      recorded_by: recording.recordedBy,
      content_type: recording.contentType,
    })
    .returning(recordingColumns)
    .executeTakeFirstOrThrow();
}

export async function findRecording(db: Database, id: string) {
  return db
    .selectFrom('session_recordings')
    .select(recordingColumns)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function listRecordings(db: Database, sessionId: string) {
  return db
    .selectFrom('session_recordings')
    .select(recordingColumns)
    .where('session_id', '=', sessionId)
    .orderBy('started_at')
    .orderBy('id')
    .execute();
}

/** The highest chunk index stored so far, or -1. */
export async function lastChunkIndex(db: Database, recordingId: string): Promise<number> {
  const row = await db
    .selectFrom('session_recording_chunks')
    .select(sql<number | null>`max(index)`.as('last'))
    .where('recording_id', '=', recordingId)
    .executeTakeFirst();
  return row?.last ?? -1;
}

/**
 * Stores a chunk's row, unless its recording is finished (checked under a share lock that
 * `finishLocked`'s update lock waits for, so no chunk lands after the hash was taken) or the
 * index is taken. A stored chunk never changes: a retried request with the same bytes is the
 * same chunk (`stored`); other bytes for a taken index are `taken`.
 */
export async function insertChunk(
  db: Database,
  chunk: { recordingId: string; index: number; bytes: number; sha256: string; storageKey: string },
): Promise<'stored' | 'finished' | 'taken'> {
  return db.transaction().execute(async (trx) => {
    const recording = await trx
      .selectFrom('session_recordings')
      .select('ended_at')
      .where('id', '=', chunk.recordingId)
      .forShare()
      .executeTakeFirst();
    if (!recording || recording.ended_at) return 'finished';
    const inserted = await trx
      .insertInto('session_recording_chunks')
      .values({
        recording_id: chunk.recordingId,
        index: chunk.index,
        bytes: chunk.bytes,
        sha256: chunk.sha256,
        storage_key: chunk.storageKey,
      })
      .onConflict((oc) => oc.columns(['recording_id', 'index']).doNothing())
      .returning('index')
      .executeTakeFirst();
    if (inserted) return 'stored';
    const existing = await trx
      .selectFrom('session_recording_chunks')
      .select('sha256')
      .where('recording_id', '=', chunk.recordingId)
      .where('index', '=', chunk.index)
      .executeTakeFirstOrThrow();
    return existing.sha256 === chunk.sha256 ? 'stored' : 'taken';
  });
}

/**
 * Finishes a recording once, under an update lock on its row: `totals` reads and hashes the
 * chunks while no chunk can be added (`insertChunk` waits). A second finish leaves the first's.
 */
export async function finishLocked(
  db: Database,
  id: string,
  totals: (chunks: { index: number; storage_key: string }[]) => Promise<{
    bytes: number;
    sha256: string;
  }>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const recording = await trx
      .selectFrom('session_recordings')
      .select('ended_at')
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!recording || recording.ended_at) return;
    const chunks = await trx
      .selectFrom('session_recording_chunks')
      .select(['index', 'storage_key'])
      .where('recording_id', '=', id)
      .orderBy('index')
      .execute();
    const { bytes, sha256 } = await totals(chunks);
    await trx
      .updateTable('session_recordings')
      .set({ ended_at: sql<Date>`now()`, bytes, sha256 })
      .where('id', '=', id)
      .execute();
  });
}

export async function recordingChunks(db: Database, recordingId: string) {
  return db
    .selectFrom('session_recording_chunks')
    .select(['index', 'bytes', 'storage_key'])
    .where('recording_id', '=', recordingId)
    .orderBy('index')
    .execute();
}
