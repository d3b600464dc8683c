import { deliveryLatencyBucketsMs } from '@locus/contract';
import type { Queue } from 'bullmq';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** What the scrape-time gauges read: shared state, the same from every API instance. */
export interface ScrapeSources {
  queues: readonly Queue[];
  smsByStatus: () => Promise<{ status: string; count: number }[]>;
}

/** BullMQ job states worth a series each (completed jobs are removed or only kept as history). */
export const queueStates = [
  'waiting',
  'active',
  'delayed',
  'prioritized',
  'waiting-children',
  'failed',
] as const;

/** The outbound statuses of `sms_messages`, reported at zero when no text has them. */
export const smsStatuses = ['queued', 'sent', 'delivered', 'undelivered', 'failed'] as const;

/** A scrape must not wait on a Redis or Postgres that does not answer. */
const SCRAPE_READ_TIMEOUT_MS = 2_000;

function withinScrape<T>(read: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), SCRAPE_READ_TIMEOUT_MS);
  });
  return Promise.race([read, timeout]).finally(() => clearTimeout(timer));
}

/** Prometheus metrics of one API process, served at /metrics. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  let sources: ScrapeSources | null = null;
  const scrapeFailures = new Counter({
    name: 'locus_scrape_read_failures_total',
    help: 'Scrape-time reads (queue depths, texts) that failed or timed out; their gauges are left empty',
    labelNames: ['source'] as const,
    registers: [registry],
  });
  return {
    registry,
    /** Where the scrape-time gauges read from; until it is called they stay empty. */
    readAtScrape(from: ScrapeSources): void {
      sources = from;
    },
    queueJobs: new Gauge({
      name: 'locus_queue_jobs',
      help: 'Jobs in each BullMQ queue, by state, read at scrape time (the same from every API instance)',
      labelNames: ['queue', 'state'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        if (!sources) return;
        try {
          const counts = await withinScrape(
            Promise.all(sources.queues.map((queue) => queue.getJobCounts(...queueStates))),
          );
          sources.queues.forEach((queue, index) => {
            for (const state of queueStates)
              this.set({ queue: queue.name, state }, counts[index]![state] ?? 0);
          });
        } catch {
          scrapeFailures.inc({ source: 'queues' });
        }
      },
    }),
    smsLastHour: new Gauge({
      name: 'locus_sms_last_hour',
      help: 'Outbound texts written in the last hour, by their status now, read at scrape time (the same from every API instance)',
      labelNames: ['status'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        if (!sources) return;
        try {
          const rows = await withinScrape(sources.smsByStatus());
          for (const status of smsStatuses) this.set({ status }, 0);
          for (const row of rows) this.set({ status: row.status }, row.count);
        } catch {
          scrapeFailures.inc({ source: 'sms' });
        }
      },
    }),
    fixesAccepted: new Counter({
      name: 'locus_fixes_accepted_total',
      help: 'Caller fixes accepted and published',
      registers: [registry],
    }),
    fixesDuplicate: new Counter({
      name: 'locus_fixes_duplicate_total',
      help: 'Caller fixes dropped as not newer than the last one',
      registers: [registry],
    }),
    journalRecovered: new Counter({
      name: 'locus_journal_rows_recovered_total',
      help: 'Rows another instance numbered and never wrote, written here from its write journal',
      registers: [registry],
    }),
    framesRejected: new Counter({
      name: 'locus_frames_rejected_total',
      help: 'Caller or dispatcher frames refused, by reason',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    sockets: new Gauge({
      name: 'locus_sockets',
      help: 'Open sockets, by kind',
      labelNames: ['kind'] as const,
      registers: [registry],
    }),
    conflated: new Counter({
      name: 'locus_dispatcher_conflated_total',
      help: 'Events replaced by a newer one for a slow dispatcher socket',
      registers: [registry],
    }),
    replayed: new Counter({
      name: 'locus_replayed_events_total',
      help: 'Events replayed to dispatchers that reconnected or fell behind',
      registers: [registry],
    }),
    gapsRecovered: new Counter({
      name: 'locus_dispatcher_gaps_recovered_total',
      help: 'Gaps in the live seqs of a dispatcher socket, filled from the replay stream',
      registers: [registry],
    }),
    batchFlush: new Histogram({
      name: 'locus_persist_batch_seconds',
      help: 'Time to persist one batch of fixes and events',
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers: [registry],
    }),
    /** Fed once per fix frame and instance by the fan-out (see `stampAccepted` in frames.ts). */
    delivery: new Histogram({
      name: 'locus_delivery_seconds',
      help: 'From a fix accepted to its frame written to the dispatcher sockets of an instance',
      buckets: deliveryLatencyBucketsMs.map((ms) => ms / 1000),
      registers: [registry],
    }),
    batchRows: new Counter({
      name: 'locus_persisted_rows_total',
      help: 'Fixes and events persisted to Postgres',
      registers: [registry],
    }),
  };
}
export type Metrics = ReturnType<typeof createMetrics>;
