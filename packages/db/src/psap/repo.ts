import { sql, type Kysely } from 'kysely';
import type { DB } from '../generated/types';
import { demoAgencies } from './demo-agencies';
import type { PsapImportRow } from './fcc-csv';

// Keeps each statement well under Postgres's 65,535 bind-parameter limit (5 per row).
const CHUNK_SIZE = 500;

/** A parsed registry row; `deleted` may be left out for plain upserts such as the demo seed. */
export type PsapUpsertRow = Omit<PsapImportRow, 'deleted' | 'county' | 'city'> & {
  county?: string | null;
  city?: string | null;
  deleted?: boolean;
};

export interface PsapUpsertResult {
  inserted: number;
  /** Rows whose name, state, county or city changed; identical rows are left untouched. */
  updated: number;
  deleted: number;
}

/**
 * Inserts or updates PSAPs by FCC id and deletes those marked deleted, all in one transaction
 * so a failed import leaves the table as it was. Deleting a PSAP unlinks its users
 * (`users.psap_id` is `on delete set null`).
 */
export async function upsertPsaps(
  db: Kysely<DB>,
  rows: ReadonlyArray<PsapUpsertRow>,
): Promise<PsapUpsertResult> {
  // A statement may not upsert one key twice, so the last row for each id wins.
  const byId = new Map<string, PsapUpsertRow>();
  for (const row of rows) byId.set(row.fccPsapId, row);
  const live = [...byId.values()].filter((row) => !row.deleted);
  const deletedIds = [...byId.values()].filter((row) => row.deleted).map((row) => row.fccPsapId);

  // Kysely cannot nest transactions; a caller's transaction is used as is.
  if (db.isTransaction) return write(db, live, deletedIds);
  return db.transaction().execute((trx) => write(trx, live, deletedIds));
}

/**
 * Upserts the fictional demo agencies; running it again changes nothing. Returns how many demo
 * agencies there are, all of which now exist.
 */
export async function seedDemoAgencies(db: Kysely<DB>): Promise<number> {
  await upsertPsaps(db, demoAgencies);
  return demoAgencies.length;
}

async function write(
  db: Kysely<DB>,
  live: PsapUpsertRow[],
  deletedIds: string[],
): Promise<PsapUpsertResult> {
  const result: PsapUpsertResult = { inserted: 0, updated: 0, deleted: 0 };

  for (const chunk of chunks(live)) {
    const returned = await db
      .insertInto('psaps')
      .values(
        chunk.map((row) => ({
          fcc_psap_id: row.fccPsapId,
          name: row.name,
          state: row.state,
          county: row.county ?? null,
          city: row.city ?? null,
        })),
      )
      .onConflict((oc) =>
        oc
          .column('fcc_psap_id')
          .doUpdateSet((eb) => ({
            name: eb.ref('excluded.name'),
            state: eb.ref('excluded.state'),
            county: eb.ref('excluded.county'),
            city: eb.ref('excluded.city'),
            updated_at: sql<Date>`now()`,
          }))
          // Skipping unchanged rows keeps updated_at meaning "last changed", not "last imported".
          .where((eb) =>
            eb.or([
              eb('psaps.name', 'is distinct from', eb.ref('excluded.name')),
              eb('psaps.state', 'is distinct from', eb.ref('excluded.state')),
              eb('psaps.county', 'is distinct from', eb.ref('excluded.county')),
              eb('psaps.city', 'is distinct from', eb.ref('excluded.city')),
            ]),
          ),
      )
      // xmax is 0 on a freshly inserted row version and set on one written by the update.
      .returning(sql<boolean>`xmax = 0`.as('inserted'))
      .execute();
    for (const row of returned) {
      if (row.inserted) result.inserted++;
      else result.updated++;
    }
  }

  for (const ids of chunks(deletedIds)) {
    const deleted = await db.deleteFrom('psaps').where('fcc_psap_id', 'in', ids).executeTakeFirst();
    result.deleted += Number(deleted.numDeletedRows);
  }
  return result;
}

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK_SIZE) out.push(items.slice(i, i + CHUNK_SIZE));
  return out;
}
