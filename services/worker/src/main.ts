import { startTracing } from '@locus/telemetry/tracing';
import { pino } from 'pino';
import { parseWorkerConfig } from './config';

let config;
try {
  config = parseWorkerConfig();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

// Tracing hooks the modules it instruments as they load: they are imported only after it.
const tracing = await startTracing({
  endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
  protocol: config.OTEL_EXPORTER_OTLP_PROTOCOL,
  serviceName: config.OTEL_SERVICE_NAME,
  fastify: false,
});
const [{ createDb }, { Redis }, { startWorkers }, { createWorkerMetrics, serveWorkerMetrics }] =
  await Promise.all([
    import('@locus/db'),
    import('ioredis'),
    import('./worker'),
    import('./metrics'),
  ]);

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
const metrics = config.WORKER_METRICS_PORT ? createWorkerMetrics() : undefined;
const workers = await startWorkers(config, { db, connection, log, metrics });
const metricsServer =
  metrics && config.WORKER_METRICS_PORT
    ? await serveWorkerMetrics(metrics, config.WORKER_METRICS_PORT, log)
    : null;
log.info('worker ready');

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'worker shutting down: letting running jobs finish');
  try {
    await workers.close();
    metricsServer?.close();
    await connection.quit();
    await db.destroy();
    await tracing?.shutdown();
    process.exit(0);
  } catch (error) {
    log.error({ err: error }, 'worker did not shut down cleanly');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
