import { Migrator, type MigrationResultSet } from 'kysely/migration';
import type { Database } from './connection';
import { migrations } from './migrations';

function migrator(db: Database): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => migrations } });
}

function check({ error, results }: MigrationResultSet): string[] {
  const applied = (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  const failed = (results ?? []).find((r) => r.status === 'Error');
  if (error) {
    const where = failed ? ` in ${failed.migrationName}` : '';
    throw new Error(
      `migration failed${where}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return applied;
}

/** Brings the schema up to date; returns the names of the migrations it applied. */
export async function migrateToLatest(db: Database): Promise<string[]> {
  return check(await migrator(db).migrateToLatest());
}

/** Undoes the most recent migration. */
export async function migrateDown(db: Database): Promise<string[]> {
  return check(await migrator(db).migrateDown());
}
