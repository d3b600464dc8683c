/**
 * The production migration, run once per release before the new API and worker start: in the
 * Locus image `node --import tsx deploy/migrate.ts` (compose's `migrate` service, the Helm
 * chart's pre-install/pre-upgrade Job). Unlike `npm run migrate`, it never starts an embedded
 * Postgres: without DATABASE_URL it fails, so a missing setting cannot migrate a throw-away
 * database and report success. Kysely's migrator takes a lock, so two runs at once are safe.
 */
import { createDb, migrateToLatest } from '../packages/db/src/index';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('migrate: DATABASE_URL is required');
  process.exit(2);
}

const { db } = createDb({
  connectionString: url,
  maxConnections: 1,
  applicationName: 'locus-migrate',
});
try {
  const applied = await migrateToLatest(db);
  process.stdout.write(
    applied.length > 0 ? `migrated: ${applied.join(', ')}\n` : 'schema is up to date\n',
  );
} catch (error) {
  console.error(`migrate: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await db.destroy();
}
