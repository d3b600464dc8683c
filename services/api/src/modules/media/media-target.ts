import type { Database } from '@locus/db';

/** Whether `callerId` is a caller of `sessionId`, and whether that session still runs. */
export async function findMediaTarget(
  db: Database,
  sessionId: string,
  callerId: string,
): Promise<{ sessionActive: boolean } | undefined> {
  const row = await db
    .selectFrom('session_callers as c')
    .innerJoin('tracking_sessions as s', 's.id', 'c.session_id')
    .select('s.status')
    .where('c.id', '=', callerId)
    .where('c.session_id', '=', sessionId)
    .executeTakeFirst();
  return row ? { sessionActive: row.status === 'active' } : undefined;
}
