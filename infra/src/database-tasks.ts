import { createDb, migrateToLatest, parseFccPsapCsv, seedDemo, upsertPsaps } from '@locus/db';
import { readFileSync } from 'node:fs';

async function withDb<T>(
  databaseUrl: string,
  task: (db: ReturnType<typeof createDb>['db']) => Promise<T>,
): Promise<T> {
  const { db } = createDb({
    connectionString: databaseUrl,
    maxConnections: 2,
    applicationName: 'locus-cli',
  });
  try {
    return await task(db);
  } finally {
    await db.destroy();
  }
}

export async function migrate(databaseUrl: string): Promise<void> {
  const applied = await withDb(databaseUrl, migrateToLatest);
  console.log(applied.length > 0 ? `migrated: ${applied.join(', ')}` : 'schema is up to date');
}

export async function seed(databaseUrl: string): Promise<void> {
  const report = await withDb(databaseUrl, (db) => seedDemo(db));
  console.log(
    `demo data: ${report.usersCreated} users and ${report.teamsCreated} teams created (existing ones kept)`,
  );
}

export async function importPsaps(databaseUrl: string, file: string): Promise<void> {
  const { rows, skipped } = parseFccPsapCsv(readFileSync(file, 'utf8'));
  for (const skip of skipped) console.warn(`line ${skip.line} skipped: ${skip.reason}`);
  const result = await withDb(databaseUrl, (db) => upsertPsaps(db, rows));
  console.log(
    `PSAPs: ${result.inserted} inserted, ${result.updated} updated, ${result.deleted} deleted, ${skipped.length} skipped`,
  );
}
