// Starts a throwaway Postgres (migrated) and Redis for trying the bench by hand, prints the
// variables to export, and keeps them running until Ctrl-C. `npm run bench` does not use it:
// the infra CLI hands run.ts its own private services.
import { localServices } from '../../infra/src/local-services';
import { createDb } from '../../packages/db/src/connection';
import { migrateToLatest } from '../../packages/db/src/migrate';

const services = await localServices({
  dataRoot: '/work/main/.data/bench-dev',
  persistent: false,
  useExternal: false,
});
const { db } = createDb({ connectionString: services.databaseUrl });
await migrateToLatest(db);
await db.destroy();

console.log(`export DATABASE_URL=${services.databaseUrl}`);
console.log(`export REDIS_URL=${services.redisUrl}`);

const stop = async (): Promise<void> => {
  await services.stop();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
