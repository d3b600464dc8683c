import { deliveryLatencyBucketsMs } from '@locus/contract';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Prometheus metrics of one API process, served at /metrics. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
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
