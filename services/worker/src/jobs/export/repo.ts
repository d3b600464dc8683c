import type { Database } from '@locus/db';
import { sql } from 'kysely';

export async function findPendingExport(db: Database, sessionId: string) {
  return db
    .selectFrom('session_exports')
    .select(['session_id', 'team_id', 'stored_at'])
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
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
    ])
    .where('f.session_id', '=', sessionId)
    .orderBy('f.captured_at')
    .orderBy('f.seq')
    .execute();
}

export async function markExported(
  db: Database,
  sessionId: string,
  file: { fileName: string | null; storageKey: string | null },
): Promise<void> {
  await db
    .updateTable('session_exports')
    .set({ file_name: file.fileName, storage_key: file.storageKey, stored_at: sql<Date>`now()` })
    .where('session_id', '=', sessionId)
    .execute();
}
