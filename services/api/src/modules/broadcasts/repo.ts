import type { Broadcast, BroadcastLevel } from '@locus/contract';
import type { Database } from '@locus/db';
import { sql } from 'kysely';

/** The broadcasts showing now (not withdrawn, not ended), newest first, as the contract has them. */
export async function currentBroadcasts(db: Database): Promise<Broadcast[]> {
  const rows = await db
    .selectFrom('broadcasts as b')
    .leftJoin('users as u', 'u.id', 'b.created_by')
    .select([
      'b.id',
      'b.level',
      'b.text',
      'b.created_at',
      'b.ends_at',
      sql<string | null>`u.first_name || ' ' || u.last_name`.as('posted_by'),
    ])
    .where('b.withdrawn_at', 'is', null)
    .where((eb) => eb.or([eb('b.ends_at', 'is', null), eb('b.ends_at', '>', sql<Date>`now()`)]))
    .orderBy('b.created_at', 'desc')
    .orderBy('b.id', 'desc')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    level: row.level as BroadcastLevel,
    text: row.text,
    startsAt: row.created_at.toISOString(),
    endsAt: row.ends_at?.toISOString() ?? null,
    postedBy: row.posted_by,
  }));
}

export async function insertBroadcast(
  db: Database,
  values: { level: BroadcastLevel; text: string; endsAt: Date | null; createdBy: string },
): Promise<string> {
  const row = await db
    .insertInto('broadcasts')
    .values({
      level: values.level,
      text: values.text,
      ends_at: values.endsAt,
      created_by: values.createdBy,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Withdraws a broadcast that is still showing; false when it is unknown, withdrawn or ended. */
export async function withdrawBroadcast(
  db: Database,
  id: string,
  withdrawnBy: string,
): Promise<{ text: string } | undefined> {
  return db
    .updateTable('broadcasts')
    .set({ withdrawn_at: sql<Date>`now()`, withdrawn_by: withdrawnBy })
    .where('id', '=', id)
    .where('withdrawn_at', 'is', null)
    .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', sql<Date>`now()`)]))
    .returning('text')
    .executeTakeFirst();
}

/**
 * Which of these sign-ins (auth sessions) still work: not revoked, not expired. A console socket
 * belongs to the sign-in that asked for its ticket, and closes when that sign-in ends.
 */
export async function liveSignIns(db: Database, authSessionIds: string[]): Promise<Set<string>> {
  if (authSessionIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('auth_sessions')
    .select('id')
    .where('id', 'in', authSessionIds)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .execute();
  return new Set(rows.map((row) => row.id));
}
