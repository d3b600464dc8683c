import type { Database } from '@locus/db';
import { sql } from 'kysely';

export async function findLookup(db: Database, lookupId: string) {
  return db
    .selectFrom('location_lookups as l')
    .innerJoin('session_callers as c', 'c.id', 'l.caller_id')
    .select(['l.id', 'l.status', 'c.phone_number'])
    .where('l.id', '=', lookupId)
    .executeTakeFirst();
}

export type LookupAnswer =
  | {
      status: 'found';
      latitude: number;
      longitude: number;
      uncertaintyRadiusM: number;
      altitude: number | null;
      address: string | null;
      capturedAt: Date;
    }
  | { status: 'not-found' }
  | { status: 'failed' | 'timed-out'; error: string };

/** Only a pending lookup is answered: the API may already have given up on it. */
export async function answerLookup(
  db: Database,
  lookupId: string,
  answer: LookupAnswer,
): Promise<boolean> {
  const found = answer.status === 'found' ? answer : undefined;
  const result = await db
    .updateTable('location_lookups')
    .set({
      status: answer.status,
      error: 'error' in answer ? answer.error : null,
      latitude: found?.latitude ?? null,
      longitude: found?.longitude ?? null,
      uncertainty_radius_m: found?.uncertaintyRadiusM ?? null,
      altitude: found?.altitude ?? null,
      address: found?.address ?? null,
      captured_at: found?.capturedAt ?? null,
      answered_at: sql<Date>`now()`,
    })
    .where('id', '=', lookupId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
