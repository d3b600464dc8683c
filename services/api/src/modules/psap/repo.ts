import type { Psap } from '@locus/contract';
import type { Database } from '@locus/db';
import { sql } from 'kysely';

/** Escapes LIKE's wildcards so that a search term matches literally. */
export function likePattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** Agencies whose name contains the term, ignoring case, by name. */
export async function searchPsaps(db: Database, term: string, limit: number): Promise<Psap[]> {
  return db
    .selectFrom('psaps')
    .select(['id', 'name', 'state'])
    .where(sql`lower(name)`, 'like', likePattern(term))
    .orderBy('name')
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function findPsap(db: Database, id: number): Promise<Psap | undefined> {
  return db
    .selectFrom('psaps')
    .select(['id', 'name', 'state'])
    .where('id', '=', id)
    .executeTakeFirst();
}
