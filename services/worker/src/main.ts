import { createDb } from '@locus/db';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { parseWorkerConfig } from './config';
import { startWorkers } from './worker';

let config;
try {
  config = parseWorkerConfig();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

const log = pino({
  level: config.LOG_LEVEL,
  redact: ['*.phoneNumber', '*.phone_number', '*.token', '*.password'],
});
const { db } = createDb({
  connectionString: config.DATABASE_URL,
  maxConnections: config.DB_POOL_MAX,
  applicationName: 'locus-worker',
  onIdleError: (error) => log.error({ err: error }, 'idle Postgres connection failed'),
});
// BullMQ workers block on Redis; it requires maxRetriesPerRequest: null.
const connection = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });
connection.on('error', (error) => log.error({ err: error }, 'redis error'));
const workers = await startWorkers(config, { db, connection, log });
log.info('worker ready');

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'worker shutting down: letting running jobs finish');
  try {
    await workers.close();
    await connection.quit();
    await db.destroy();
    process.exit(0);
  } catch (error) {
    log.error({ err: error }, 'worker did not shut down cleanly');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
