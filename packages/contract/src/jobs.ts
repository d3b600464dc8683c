import { z } from 'zod';

/**
 * Background jobs: name, queue, payload schema and options live here so that the API (which
 * enqueues) and the worker (which processes) agree. Payloads carry ids only, never phone
 * numbers. Each job's processor is `services/worker/src/jobs/<queue>/<job>.ts`.
 */
export interface JobDefinition<P extends z.ZodTypeAny> {
  name: string;
  queue: string;
  payload: P;
  options: {
    attempts: number;
    backoff: { type: 'exponential' | 'fixed'; delay: number };
    removeOnComplete: { age: number; count: number } | true;
    /** `true`: removed as soon as it fails. */
    removeOnFail: { age: number } | true;
    stackTraceLimit: number;
  };
}

const keepHistory = {
  removeOnComplete: { age: 7 * 24 * 3600, count: 1000 },
  removeOnFail: { age: 30 * 24 * 3600 },
  // The queue board shows failed jobs to platform admins: their reason, never a stack trace
  // (which names files, versions and internals). The worker's log keeps the whole error.
  stackTraceLimit: 0,
};

export const jobs = {
  /**
   * Deletes the history (fixes, events, lookups, texts, chat, consent receipts) of sessions that
   * ended more than their team's retention period ago, except those under a legal hold; audited
   * per team. `olderThanDays` is the deployment's default (`LOCATION_RETENTION_DAYS`), for teams
   * without their own `retention_days` and for sessions with no team.
   */
  retentionPurge: {
    name: 'retention.purge',
    queue: 'maintenance',
    payload: z.object({ olderThanDays: z.number().int().positive() }).strict(),
    options: { attempts: 5, backoff: { type: 'exponential', delay: 60_000 }, ...keepHistory },
  },
  /** Sends one row of `emails` through the configured provider; `jobId` is the row's id. */
  emailSend: {
    name: 'email.send',
    queue: 'email',
    payload: z.object({ emailId: z.string().uuid() }).strict(),
    options: { attempts: 5, backoff: { type: 'exponential', delay: 10_000 }, ...keepHistory },
  },
  /** Re-enqueues e-mails still queued past their deadline (a lost enqueue, retries used up). */
  emailSweep: {
    name: 'email.sweep',
    queue: 'email',
    payload: z.object({}).strict(),
    options: { attempts: 1, backoff: { type: 'fixed', delay: 0 }, ...keepHistory },
  },
  /** Deletes never-confirmable duplicate accounts and long-dead sessions and codes. */
  accountsPurge: {
    name: 'accounts.purge',
    queue: 'maintenance',
    payload: z.object({}).strict(),
    options: { attempts: 3, backoff: { type: 'exponential', delay: 60_000 }, ...keepHistory },
  },
  /**
   * Asks the emergency-data provider where a phone is. Interactive: the API waits for it, so it is
   * never retried; the outcome is written to its `location_lookups` row (`jobId` = row id).
   */
  locationLookup: {
    name: 'location.lookup',
    queue: 'location',
    payload: z.object({ lookupId: z.string().uuid() }).strict(),
    options: { attempts: 1, backoff: { type: 'fixed', delay: 0 }, ...keepHistory },
  },
  /** Sends one row of `sms_messages` through the configured provider; `jobId` is the row's id. */
  smsSend: {
    name: 'sms.send',
    queue: 'sms',
    payload: z.object({ smsId: z.string().uuid() }).strict(),
    options: { attempts: 5, backoff: { type: 'exponential', delay: 2_000 }, ...keepHistory },
  },
  /** Writes an ended session's export file (SPEC.md §3 Export row) to storage. */
  exportUpload: {
    name: 'export.upload',
    queue: 'export',
    payload: z.object({ sessionId: z.string().uuid() }).strict(),
    options: { attempts: 8, backoff: { type: 'exponential', delay: 30_000 }, ...keepHistory },
  },
  /**
   * Every second: claims the webhook deliveries that are due (new ones, and retries whose time
   * came) and enqueues `webhook.deliver` for each. The outbox rows, not this job, are the truth.
   */
  webhookDispatch: {
    name: 'webhook.dispatch',
    // Its own queue: slow receivers occupying the delivery slots never delay the dispatch.
    queue: 'webhook-dispatch',
    payload: z.object({}).strict(),
    options: {
      attempts: 1,
      backoff: { type: 'fixed', delay: 0 },
      ...keepHistory,
      removeOnComplete: { age: 600, count: 100 },
    },
  },
  /**
   * One attempt at one delivery (`jobId` = `<delivery id>-a<attempt>`). A failure schedules the
   * next attempt on the row (exponential back-off), which `webhook.dispatch` picks up. A job that
   * itself failed (the database away, a stalled worker) is removed at once: a kept one would make
   * BullMQ ignore the dispatch's next add of the same id, and the row would never be sent.
   */
  webhookDeliver: {
    name: 'webhook.deliver',
    queue: 'webhook',
    payload: z.object({ deliveryId: z.string().max(64) }).strict(),
    options: {
      attempts: 1,
      backoff: { type: 'fixed', delay: 0 },
      ...keepHistory,
      // Removed once done, either way: the attempts are rows (`partner_webhook_attempts`), and
      // the job id names the attempt, so a kept job would make BullMQ ignore the same id added
      // again after a lease ran out on a job that ended without an attempt (endpoint turned off
      // meanwhile): its delivery would stay leased, holding one of the endpoint's slots.
      removeOnComplete: true,
      removeOnFail: true,
    },
  },
} as const satisfies Record<string, JobDefinition<z.ZodTypeAny>>;

export type JobKey = keyof typeof jobs;
export type JobPayload<K extends JobKey> = z.infer<(typeof jobs)[K]['payload']>;
export const queueNames = [...new Set(Object.values(jobs).map((job) => job.queue))];

/** BullMQ's key prefix for a deployment's Redis key prefix; API and worker must agree. */
export const bullPrefix = (redisKeyPrefix: string): string => `${redisKeyPrefix}bull`;
