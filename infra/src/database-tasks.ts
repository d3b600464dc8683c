import {
  createDb,
  lockDemoAccounts,
  migrateToLatest,
  parseFccPsapCsv,
  seedDemo,
  upsertPsaps,
} from '@locus/db';
import { Redis } from 'ioredis';
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

/**
 * The demo data with its 90 days of history (for the metrics screens), and (given Redis) the
 * demo's locked-out account: the sign-in lock lives in Redis, under the prefix the API uses.
 */
export async function seed(databaseUrl: string, redisUrl?: string): Promise<void> {
  const report = await withDb(databaseUrl, (db) =>
    seedDemo(db, process.env.NODE_ENV, { history: true }),
  );
  console.log(
    `demo data: ${report.usersCreated} users and ${report.teamsCreated} teams created (existing ones kept)` +
      (report.historySessions > 0 ? `, ${report.historySessions} past sessions added` : ''),
  );
  if (redisUrl === undefined) return;
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 3, lazyConnect: true });
  try {
    await redis.connect();
    await lockDemoAccounts(redis, process.env.REDIS_KEY_PREFIX ?? 'locus:');
  } finally {
    redis.disconnect();
  }
}

export async function importPsaps(databaseUrl: string, file: string): Promise<void> {
  const { rows, skipped } = parseFccPsapCsv(readFileSync(file, 'utf8'));
  for (const skip of skipped) console.warn(`line ${skip.line} skipped: ${skip.reason}`);
  const result = await withDb(databaseUrl, (db) => upsertPsaps(db, rows));
  console.log(
    `PSAPs: ${result.inserted} inserted, ${result.updated} updated, ${result.deleted} deleted, ${skipped.length} skipped`,
  );
}
