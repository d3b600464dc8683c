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

/** A chunk sent again (a retried request) replaces the stored one. */
export async function upsertChunk(
  db: Database,
  chunk: { recordingId: string; index: number; bytes: number; sha256: string; storageKey: string },
): Promise<void> {
  await db
    .insertInto('session_recording_chunks')
    .values({
      recording_id: chunk.recordingId,
      index: chunk.index,
      bytes: chunk.bytes,
      sha256: chunk.sha256,
      storage_key: chunk.storageKey,
    })
    .onConflict((oc) =>
      oc.columns(['recording_id', 'index']).doUpdateSet({
        bytes: chunk.bytes,
        sha256: chunk.sha256,
        uploaded_at: sql<Date>`now()`,
      }),
    )
    .execute();
}

export async function recordingChunks(db: Database, recordingId: string) {
  return db
    .selectFrom('session_recording_chunks')
    .select(['index', 'bytes', 'storage_key'])
    .where('recording_id', '=', recordingId)
    .orderBy('index')
    .execute();
}

/** Finished once: a second finish leaves the first one's numbers. */
export async function markFinished(
  db: Database,
  id: string,
  totals: { bytes: number; sha256: string },
): Promise<void> {
  await db
    .updateTable('session_recordings')
    .set({ ended_at: sql<Date>`now()`, bytes: totals.bytes, sha256: totals.sha256 })
    .where('id', '=', id)
    .where('ended_at', 'is', null)
    .execute();
}
