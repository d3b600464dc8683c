import type { Database } from '@locus/db';
import { sql } from 'kysely';

/** Deletes the fixes and events of sessions that ended before the cut-off; returns rows deleted. */
export async function deleteHistoryEndedBefore(db: Database, cutoff: Date): Promise<number> {
  const ended = db.selectFrom('tracking_sessions').select('id').where('ended_at', '<', cutoff);
  const fixes = await db
    .deleteFrom('location_fixes')
    .where('session_id', 'in', ended)
    .executeTakeFirst();
  const events = await db
    .deleteFrom('session_events')
    .where('session_id', 'in', ended)
    .executeTakeFirst();
  return Number(fixes.numDeletedRows) + Number(events.numDeletedRows);
}

export async function databaseNow(db: Database): Promise<Date> {
  const { rows } = await sql<{ now: Date }>`select now() as now`.execute(db);
  return rows[0]!.now;
}
