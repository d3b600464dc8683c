import type { Database } from '@locus/db';
import { sql } from 'kysely';

export async function pingDatabase(db: Database): Promise<void> {
  await sql`select 1`.execute(db);
}
