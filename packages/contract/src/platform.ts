import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { PageQuery, pageOf } from './admin-common';
import { ErrorBody } from './errors';
import { queueNames } from './jobs';

const c = initContract();
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/**
 * The operations console's calls (`/admin/dev`, SPEC.md §5 DEV): the platform's health, failed
 * jobs, the configuration with its secrets redacted. Platform admins only (admin flag and a
 * member of the platform owner's team); anyone else gets 403 `forbidden`.
 */
const ACCESS =
  "The platform owner's company only (a platform admin); anyone else gets 403 `forbidden`.";

/** A figure's standing against its threshold. */
export const StatusLevel = z.enum(['green', 'amber', 'red']);
export type StatusLevel = z.infer<typeof StatusLevel>;

/**
 * Where a figure turns amber and red. `above`: at or above `amber` is amber, at or above `red`
 * is red (a lag, a queue depth); `below`: at or below (a success rate).
 */
export const Threshold = z.object({
  amber: z.number(),
  red: z.number(),
  direction: z.enum(['above', 'below']).default('above'),
});
export type Threshold = z.infer<typeof Threshold>;

/**
 * Every threshold of the status screen, and of the Prometheus alert rules built from the same
 * values (one source: `STATUS_THRESHOLDS` overrides any of them, as JSON, in the API's
 * configuration). Times in milliseconds, sizes in bytes, ratios from 0 to 1.
 */
export const statusThresholdDefaults = {
  /** Since an instance's last heartbeat (it is beaten every 5 s). */
  heartbeatAgeMs: { amber: 7_500, red: 12_000, direction: 'above' },
  /** An instance's event-loop delay (p99 over its last heartbeat interval). */
  eventLoopLagMs: { amber: 100, red: 500, direction: 'above' },
  /** An instance's resident memory. */
  memoryRssBytes: { amber: 1_073_741_824, red: 1_610_612_736, direction: 'above' },
  /** One `select 1`. */
  postgresRoundTripMs: { amber: 50, red: 250, direction: 'above' },
  /** Server connections in use of `max_connections`. */
  postgresConnectionsRatio: { amber: 0.7, red: 0.9, direction: 'above' },
  /** One `PING`. */
  redisRoundTripMs: { amber: 20, red: 100, direction: 'above' },
  /** Used of `maxmemory` (when one is set). */
  redisMemoryRatio: { amber: 0.7, red: 0.9, direction: 'above' },
  /** Jobs waiting in one queue. */
  queueWaiting: { amber: 100, red: 1_000, direction: 'above' },
  /** Age of a queue's oldest waiting job. */
  queueOldestWaitingMs: { amber: 30_000, red: 120_000, direction: 'above' },
  /** Failed jobs kept in one queue. */
  queueFailed: { amber: 1, red: 25, direction: 'above' },
  /** From a fix accepted to its frame written to a dispatcher socket, p99 over the last minute. */
  deliveryP99Ms: { amber: 250, red: 1_000, direction: 'above' },
  /** Fixes and events accepted but not yet in Postgres, all instances. */
  persistencePendingRows: { amber: 5_000, red: 50_000, direction: 'above' },
  /** How long the oldest of them has waited. */
  persistenceOldestMs: { amber: 2_000, red: 5_000, direction: 'above' },
  /** Texts that failed, of those sent in the last hour. */
  smsFailureRatio: { amber: 0.05, red: 0.2, direction: 'above' },
  /** E-mails that failed, of those sent in the last hour. */
  emailFailureRatio: { amber: 0.05, red: 0.2, direction: 'above' },
  /** Location-provider lookups that found the device, of those answered in the last hour. */
  lookupSuccessRatio: { amber: 0.9, red: 0.7, direction: 'below' },
  /** The location provider's p95 answer time over the last hour. */
  lookupP95Ms: { amber: 3_000, red: 8_000, direction: 'above' },
} as const satisfies Record<string, z.input<typeof Threshold>>;

export type StatusThresholdKey = keyof typeof statusThresholdDefaults;
export const StatusThresholds = z.object(
  Object.fromEntries(
    Object.entries(statusThresholdDefaults).map(([key, value]) => [key, Threshold.default(value)]),
  ) as { [K in StatusThresholdKey]: z.ZodDefault<typeof Threshold> },
);
export type StatusThresholds = z.infer<typeof StatusThresholds>;

/** The standing of `value` against `threshold`; null (not measured) is green. */
export function statusLevelOf(value: number | null, threshold: Threshold): StatusLevel {
  if (value === null) return 'green';
  const beyond = (limit: number) =>
    threshold.direction === 'above' ? value >= limit : value <= limit;
  if (beyond(threshold.red)) return 'red';
  if (beyond(threshold.amber)) return 'amber';
  return 'green';
}

/** The worst of several levels. */
export function worstLevel(levels: readonly StatusLevel[]): StatusLevel {
  if (levels.includes('red')) return 'red';
  if (levels.includes('amber')) return 'amber';
  return 'green';
}

/**
 * Every API instance and worker beats every `intervalMs` into its own Redis key, which expires
 * after `expireMs`: a process that dies stops being alive by itself, with nothing configured.
 * One that has stopped beating is still listed (red) for `forgetAfterMs`, then forgotten. One
 * that stopped cleanly (SIGTERM: a deploy, a scale-down) says so as it goes: it is listed amber
 * while another process of its role is alive (red when none is), for `forgetStoppedAfterMs`, so
 * that a rolling deploy does not keep the screen red for ten minutes.
 */
export const instanceHeartbeat = {
  intervalMs: 5_000,
  expireMs: 15_000,
  forgetAfterMs: 10 * 60_000,
  forgetStoppedAfterMs: 2 * 60_000,
} as const;

/**
 * Upper bounds (ms) of the delivery-latency buckets (`locus_delivery_seconds`, in seconds there);
 * a heartbeat's `deliveryBuckets` has one count more, for everything beyond the last.
 */
export const deliveryLatencyBucketsMs = [
  5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000,
] as const;

/**
 * What each process writes into its heartbeat key (`@locus/heartbeat`), as JSON. The status
 * call reads it back; the figures of an API instance's last minute are its own, summed there.
 */
export const InstanceHeartbeat = z.object({
  id: z.string(),
  role: z.enum(['api', 'worker']),
  version: z.string(),
  hostname: z.string(),
  pid: z.number().int(),
  startedAt: z.string().datetime(),
  /** When this beat was written. */
  at: z.string().datetime(),
  /** Written by a process that stopped cleanly, as its last beat. */
  stoppedAt: z.string().datetime().optional(),
  /** p99 of the event-loop delay over the interval since the previous beat. */
  eventLoopLagMs: z.number(),
  memoryRssBytes: z.number(),
  heapUsedBytes: z.number(),
  /** API instances only. */
  api: z
    .object({
      /** Open sockets on this instance, by kind (`caller`, `dispatcher`, …). */
      sockets: z.record(z.string(), z.number().int()),
      /** Fixes accepted since this instance started. */
      fixesAccepted: z.number(),
      /** Fixes accepted over the last `windowMs` (a minute, less while the instance is young). */
      fixesInWindow: z.number(),
      windowMs: z.number(),
      /** Rows this instance accepted and has not yet written to Postgres, and the oldest's age. */
      persistencePendingRows: z.number().int(),
      persistenceOldestMs: z.number(),
      /** Deliveries over `windowMs` per bucket of `deliveryLatencyBucketsMs` (+ one beyond). */
      deliveryBuckets: z.array(z.number().int()),
    })
    .optional(),
  /** Workers only: the providers this worker sends through. */
  worker: z.object({ sms: z.string(), email: z.string(), lookup: z.string() }).optional(),
});
export type InstanceHeartbeat = z.infer<typeof InstanceHeartbeat>;

/** What each card carries: its standing, and a sentence for each figure beyond green. */
const Standing = {
  level: StatusLevel,
  /** Why the card is amber or red, one sentence per figure ("Eviction policy allkeys-lru: …"). */
  notes: z.array(z.string()),
};

export const InstanceStatus = z.object({
  id: z.string(),
  role: z.enum(['api', 'worker']),
  version: z.string(),
  hostname: z.string(),
  pid: z.number().int(),
  startedAt: z.string().datetime(),
  lastHeartbeatAt: z.string().datetime(),
  /** Its heartbeat key still exists (it beat within `instanceHeartbeat.expireMs`). */
  alive: z.boolean(),
  /** When it stopped cleanly (shut down on purpose); null while alive or after a crash. */
  stoppedAt: z.string().datetime().nullable(),
  eventLoopLagMs: z.number(),
  memoryRssBytes: z.number(),
  heapUsedBytes: z.number(),
  ...Standing,
});
export type InstanceStatus = z.infer<typeof InstanceStatus>;

export const PostgresStatus = z.object({
  reachable: z.boolean(),
  roundTripMs: z.number().nullable(),
  /** This API instance's pool. */
  pool: z.object({ inUse: z.number().int(), open: z.number().int(), max: z.number().int() }),
  /** The server's connections (every client) of its `max_connections`. */
  server: z.object({ connections: z.number().int(), maxConnections: z.number().int() }).nullable(),
  largestTables: z.array(z.object({ name: z.string(), bytes: z.number() })),
  ...Standing,
});

export const RedisStatus = z.object({
  reachable: z.boolean(),
  roundTripMs: z.number().nullable(),
  usedMemoryBytes: z.number().nullable(),
  /** Null when no `maxmemory` is set. */
  maxMemoryBytes: z.number().nullable(),
  connectedClients: z.number().int().nullable(),
  /** Anything but `noeviction` is red: BullMQ and the replay streams would lose data. */
  evictionPolicy: z.string().nullable(),
  ...Standing,
});

export const QueueStatus = z.object({
  name: z.string(),
  waiting: z.number().int(),
  active: z.number().int(),
  delayed: z.number().int(),
  failed: z.number().int(),
  completedLastMinute: z.number().int(),
  /** Null when nothing waits. */
  oldestWaitingAgeMs: z.number().nullable(),
  ...Standing,
});

export const RealtimeStatus = z.object({
  /** Open sockets on the alive API instances, by kind. */
  sockets: z.record(z.string(), z.number().int()),
  /** Fixes accepted per second, all instances, over the last minute. */
  fixesPerSecond: z.number(),
  /** From a fix accepted to its frame written to a dispatcher socket, last minute; null when none. */
  deliveryP50Ms: z.number().nullable(),
  deliveryP99Ms: z.number().nullable(),
  /** Fixes and events accepted but not yet in Postgres (the Redis stream holds them). */
  persistencePendingRows: z.number().int(),
  /** Age of the oldest of them; 0 when none waits. */
  persistenceOldestMs: z.number(),
  ...Standing,
});

const Deliveries = z.object({
  provider: z.string(),
  sent: z.number().int(),
  delivered: z.number().int(),
  failed: z.number().int(),
});
export const MessagingStatus = z.object({
  /** The last hour, by provider. */
  sms: z.array(Deliveries),
  email: z.array(Deliveries),
  ...Standing,
});

export const LookupStatus = z.object({
  provider: z.string(),
  /** The last hour. */
  lookups: z.number().int(),
  succeeded: z.number().int(),
  /** Null when there was none. */
  successRatio: z.number().nullable(),
  p95Ms: z.number().nullable(),
  ...Standing,
});

/**
 * One point of the last hour's sparklines (one every `statusSampleIntervalMs`). A figure whose
 * source did not answer (Postgres down, say) is null: the line has a gap, the other lines go on.
 */
export const StatusSample = z.object({
  at: z.string().datetime(),
  fixesPerSecond: z.number().nullable(),
  deliveryP99Ms: z.number().nullable(),
  /** Jobs waiting or delayed in every queue. */
  queueDepth: z.number().int().nullable(),
  /**
   * Outbound texts of the last hour that have failed, at the sample's time: a carrier reports a
   * failure seconds to minutes after the text was written, so it shows when it is reported.
   */
  smsFailures: z.number().int().nullable(),
});
export type StatusSample = z.infer<typeof StatusSample>;
export const statusSampleIntervalMs = 10_000;

export const PlatformStatus = z.object({
  generatedAt: z.string().datetime(),
  /** The worst card. */
  level: StatusLevel,
  instances: z.array(InstanceStatus),
  /** Red when no worker is alive (no text, e-mail or lookup goes out). */
  workers: z.object({ alive: z.number().int(), ...Standing }),
  postgres: PostgresStatus,
  redis: RedisStatus,
  queues: z.array(QueueStatus),
  realtime: RealtimeStatus,
  messaging: MessagingStatus,
  lookups: LookupStatus,
  /** The last hour, oldest first. */
  history: z.array(StatusSample),
  thresholds: StatusThresholds,
  /** Texts and e-mails go to the dev outbox instead of leaving (a demo deployment). */
  devOutbox: z.boolean(),
});
export type PlatformStatus = z.infer<typeof PlatformStatus>;

export const QueueName = z.enum(queueNames as [string, ...string[]]);

export const FailedJob = z.object({
  queue: z.string(),
  id: z.string(),
  name: z.string(),
  /** The last error. */
  failedReason: z.string(),
  attemptsMade: z.number().int(),
  maxAttempts: z.number().int(),
  failedAt: z.string().datetime().nullable(),
});
export type FailedJob = z.infer<typeof FailedJob>;

export const FailedJobsQuery = PageQuery.extend({ queue: QueueName.optional() });
const JobParams = z.object({ queue: QueueName, jobId: z.string().min(1).max(200) });

export const ConfigEntry = z.object({
  key: z.string(),
  /** The value as configured; null when unset. Secrets read "[redacted]". */
  value: z.string().nullable(),
  redacted: z.boolean(),
});

/** The status screen's one read (`modules/platform-status/`). */
export const platformStatusContract = c.router(
  {
    status: {
      method: 'GET',
      path: '/api/v1/platform/status',
      summary: "The platform's health: instances, Postgres, Redis, queues, realtime, texts",
      description:
        'Every figure has a level (green, amber, red) against the thresholds it returns; a card ' +
        `lists why it is not green. The history holds the last hour's samples. ${ACCESS}`,
      responses: { 200: PlatformStatus, ...errors },
    },
  },
  { strictStatusCodes: true },
);

/** Failed jobs and the redacted configuration (`modules/platform-jobs/`). */
export const platformJobsContract = c.router(
  {
    failedJobs: {
      method: 'GET',
      path: '/api/v1/platform/jobs/failed',
      summary: 'Failed background jobs, newest first, of every queue or one',
      description: ACCESS,
      query: FailedJobsQuery,
      responses: { 200: pageOf(FailedJob), ...errors },
    },
    retryJob: {
      method: 'POST',
      path: '/api/v1/platform/jobs/:queue/:jobId/retry',
      summary: 'Runs a failed job again (audited `job.retried`)',
      description: `A job that no longer exists or has not failed: 409 \`conflict\`, nothing changed. ${ACCESS}`,
      pathParams: JobParams,
      body: c.noBody(),
      responses: {
        200: z.object({ queue: z.string(), id: z.string() }),
        409: ErrorBody,
        ...errors,
      },
    },
    discardJob: {
      method: 'DELETE',
      path: '/api/v1/platform/jobs/:queue/:jobId',
      summary: 'Discards a job that is not running (audited `job.discarded`)',
      description: `An active job, or one that no longer exists: 409 \`conflict\`, nothing changed. ${ACCESS}`,
      pathParams: JobParams,
      body: c.noBody(),
      responses: { 204: c.noBody(), 409: ErrorBody, ...errors },
    },
    config: {
      method: 'GET',
      path: '/api/v1/platform/config',
      summary: "This API instance's configuration, every key, password and token redacted",
      description: ACCESS,
      responses: { 200: z.object({ entries: z.array(ConfigEntry) }), ...errors },
    },
  },
  { strictStatusCodes: true },
);
