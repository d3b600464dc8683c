import { bullPrefix, jobs, queueNames, type JobKey } from '@locus/contract';
import type { Database } from '@locus/db';
import { jobOrigin, traceJob, type JobOrigin } from '@locus/telemetry';
import { Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { WorkerConfig } from './config';
import type { JobContext } from './processor';
import { emailProviderFromConfig } from './providers/email';
import { lookupProviderFromConfig } from './providers/location';
import { smsProviderFromConfig } from './providers/sms';
import { evidenceSigningKey } from './providers/evidence-key';
import { exportStorageFromConfig, workerMediaStorage } from './providers/storage';
import { startWorkerHeartbeat } from './heartbeat';
import type { WorkerMetrics } from './metrics';
import { createWorkerQueues } from './queues';
import { missingProcessors, processors } from './registry';

const keyByName = new Map<string, JobKey>(
  (Object.keys(jobs) as JobKey[]).map((key) => [jobs[key].name, key]),
);

/**
 * Starts one BullMQ worker per queue. Each job's payload is validated again against the
 * contract before its processor runs: a malformed job fails at once, never half-runs.
 */
export async function startWorkers(
  config: WorkerConfig,
  deps: { db: Database; connection: Redis; log: Logger; metrics?: WorkerMetrics },
) {
  const missing = missingProcessors();
  if (missing.length > 0) throw new Error(`no processor for job(s): ${missing.join(', ')}`);
  const prefix = bullPrefix(config.REDIS_KEY_PREFIX);
  const email = emailProviderFromConfig(config);
  const lookup = lookupProviderFromConfig(config);
  const sms = smsProviderFromConfig(config);
  const storage = exportStorageFromConfig(config);
  const mediaStorage = workerMediaStorage(config);
  const evidenceKey = await evidenceSigningKey(config, deps);
  const queueError = (error: Error, queue: string) =>
    deps.log.warn({ err: error, queue }, 'queue error');
  const queues = createWorkerQueues(deps.connection, config.REDIS_KEY_PREFIX, queueError);

  const run = async (job: Job, origin: JobOrigin) => {
    const key = keyByName.get(job.name);
    if (!key) throw new Error(`unknown job ${job.name}`);
    const payload = jobs[key].payload.parse(job.data);
    const log = deps.log.child({
      job: job.name,
      jobId: job.id,
      attempt: job.attemptsMade + 1,
      // The id of the HTTP request that enqueued the job, under the API's own log key.
      ...(origin.requestId ? { reqId: origin.requestId } : {}),
    });
    const processor = processors[key] as (
      payload: unknown,
      context: JobContext,
    ) => Promise<unknown>;
    return processor(payload, {
      db: deps.db,
      log,
      config,
      email,
      queues,
      lookup,
      sms,
      storage,
      mediaStorage,
      evidenceKey,
      job,
    });
  };
  // Each attempt as a span of the enqueuing request's trace (when tracing is on), and timed.
  const process = async (job: Job) => {
    const started = performance.now();
    let outcome: 'completed' | 'failed' = 'failed';
    try {
      const origin = jobOrigin(job.opts.telemetry?.metadata);
      const result = await traceJob(job, origin, () => run(job, origin));
      outcome = 'completed';
      return result;
    } finally {
      const seconds = (performance.now() - started) / 1000;
      deps.metrics?.jobRan(job.queueName, job.name, outcome, seconds);
    }
  };

  const workers = queueNames.map(
    (queue) =>
      new Worker(queue, process, {
        connection: deps.connection,
        prefix,
        // Deliveries wait on other people's servers, not on our CPU or database.
        concurrency:
          queue === jobs.webhookDeliver.queue
            ? config.WEBHOOK_CONCURRENCY
            : config.WORKER_CONCURRENCY,
        // A worker that dies mid-job (SIGKILL, OOM, a lost node) holds its jobs until their lock
        // runs out and another worker's stall check hands them back: 10 + 5 s instead of
        // BullMQ's 30 + 30, so a caller's text waits seconds, not a minute. The lock is renewed
        // every 5 s while the job runs, so only a process stuck that long loses it.
        lockDuration: 10_000,
        stalledInterval: 5_000,
        // BullMQ's 1 fails a job the second time its worker dies under it, without the job's
        // own last-attempt handling (a text's row would stay queued): a few deaths are allowed.
        maxStalledCount: 3,
      }),
  );
  for (const worker of workers) {
    worker.on('error', (error) => queueError(error, worker.name));
    worker.on('failed', (job, error) => {
      const requestId = jobOrigin(job?.opts.telemetry?.metadata).requestId;
      deps.log.error(
        { err: error, job: job?.name, jobId: job?.id, ...(requestId ? { reqId: requestId } : {}) },
        'job failed',
      );
      // BullMQ sets finishedOn only when it gives up: no attempt left, or an unrecoverable error.
      if (job) deps.metrics?.jobFailed(worker.name, job.name, job.finishedOn !== undefined);
    });
  }

  // Repeatable jobs are declared here, idempotently: every worker upserts the same schedules.
  await queues.queueOf('retentionPurge').upsertJobScheduler(
    'retention-purge-daily',
    { pattern: config.RETENTION_PURGE_CRON, tz: 'UTC' },
    {
      name: jobs.retentionPurge.name,
      data: { olderThanDays: config.LOCATION_RETENTION_DAYS },
      opts: jobs.retentionPurge.options,
    },
  );
  await queues
    .queueOf('accountsPurge')
    .upsertJobScheduler(
      'accounts-purge',
      { pattern: config.ACCOUNTS_PURGE_CRON, tz: 'UTC' },
      { name: jobs.accountsPurge.name, data: {}, opts: jobs.accountsPurge.options },
    );
  await queues
    .queueOf('emailSweep')
    .upsertJobScheduler(
      'email-sweep',
      { every: 60_000 },
      { name: jobs.emailSweep.name, data: {}, opts: jobs.emailSweep.options },
    );

  await queues
    .queueOf('webhookDispatch')
    .upsertJobScheduler(
      'webhook-dispatch',
      { every: config.WEBHOOK_DISPATCH_EVERY_MS },
      { name: jobs.webhookDispatch.name, data: {}, opts: jobs.webhookDispatch.options },
    );

  const heartbeat = startWorkerHeartbeat(config, deps.connection, deps.log);

  return {
    /** Lets running jobs finish, then disconnects. */
    close: async () => {
      // First: the status lists this worker as stopped at once, not after its key expires.
      await heartbeat.stop();
      await Promise.all(workers.map((worker) => worker.close()));
      await queues.close();
      await email.close();
    },
  };
}
