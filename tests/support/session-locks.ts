import type { Database } from '@locus/db';
import { sql } from 'kysely';

/**
 * Locks the sessions' rows until `release()`: every batch of fixes touching one of them waits
 * meanwhile (the batch writer locks its sessions first), as it would behind a slow Postgres.
 * Releasing twice is harmless.
 */
export async function holdSessionRows(
  db: Database,
  sessionIds: string[],
): Promise<{ release(): Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const transaction = db.transaction().execute(async (trx) => {
    await sql`select id from tracking_sessions where id = any(${sessionIds}::uuid[]) for update`.execute(
      trx,
    );
    locked();
    await released;
  });
  await isLocked;
  return {
    release: async () => {
      release();
      await transaction;
    },
  };
}
