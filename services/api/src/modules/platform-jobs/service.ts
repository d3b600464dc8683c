import type { FailedJob } from '@locus/contract';
import type { Database } from '@locus/db';
import { Job, type Queue } from 'bullmq';
import { ApiError } from '../../http/errors';
import type { Queues } from '../../platform/queues';
import { recordAudit } from '../audit/repo';
import type { Principal } from '../auth/guard';
import { redactUrlCredentials } from './redact-config';

/**
 * The operations console's failed jobs (issue 22): list, Retry, Discard. Callers have passed
 * `requirePlatformAdmin`. Every state check is repeated atomically by BullMQ's own scripts
 * (a Retry of a job no longer failed, a removal of a locked one), and their refusals are mapped
 * to 409: two operators clicking at once, or the worker picking a job up between our check and
 * the action, change nothing and get a clear answer.
 */

interface Acting {
  principal: Principal;
  ip: string;
}

function queueNamed(queues: Queues, name: string): Queue {
  const queue = queues.all.find((each) => each.name === name);
  // The contract's enum let only known queues through; this is a bug if it happens.
  if (!queue) throw new Error(`no queue ${name}`);
  return queue;
}

/**
 * Job payloads hold ids only by design, but an error message may quote a provider's answer
 * with a phone number or an e-mail address in it, or a connection string with its password (a
 * driver's error): those are replaced before anything is shown or audited.
 */
export function scrubReason(reason: string): string {
  return redactUrlCredentials(reason)
    .text.replace(/[^\s@"'<>()[\]]+@[^\s@"'<>()[\]]+\.[a-z]{2,}/gi, '[email]')
    .replace(/\+\d{7,15}\b/g, '[phone]');
}

/** A failed job as the console lists it: never its payload (`data`). */
function failedJobOf(queue: string, job: Job): FailedJob {
  return {
    queue,
    id: String(job.id),
    name: job.name,
    failedReason: scrubReason(job.failedReason ?? ''),
    attemptsMade: job.attemptsMade,
    maxAttempts: job.opts.attempts ?? 1,
    failedAt: job.finishedOn ? new Date(job.finishedOn).toISOString() : null,
  };
}

/** Newest first; equal times by queue then id, so that a job is never on two pages. */
function newestFirst(a: FailedJob, b: FailedJob): number {
  const byTime = (b.failedAt ?? '').localeCompare(a.failedAt ?? '');
  if (byTime !== 0) return byTime;
  return a.queue.localeCompare(b.queue) || b.id.localeCompare(a.id);
}

export async function failedJobs(
  queues: Queues,
  query: { queue?: string | undefined; page: number; pageSize: number },
): Promise<{ items: FailedJob[]; total: number; page: number; pageSize: number }> {
  const { page, pageSize } = query;
  const start = (page - 1) * pageSize;
  const chosen = query.queue ? [queueNamed(queues, query.queue)] : queues.all;
  const totals = await Promise.all(chosen.map((queue) => queue.getFailedCount()));
  const total = totals.reduce((sum, count) => sum + count, 0);
  if (start >= total) return { items: [], total, page, pageSize };
  // BullMQ's failed set is ordered by the time each job failed (newest last). One queue: read
  // the page itself. Several: the page's rows are among the first start + pageSize of each
  // queue, merged by time.
  const ranges = await Promise.all(
    chosen.map(async (queue) => {
      const jobs =
        chosen.length === 1
          ? await queue.getJobs(['failed'], start, start + pageSize - 1, false)
          : await queue.getJobs(['failed'], 0, start + pageSize - 1, false);
      // A job removed between reading the ids and the jobs comes back empty.
      return jobs.filter(Boolean).map((job) => failedJobOf(queue.name, job as Job));
    }),
  );
  const merged = ranges.flat().sort(newestFirst);
  const items = chosen.length === 1 ? merged : merged.slice(start, start + pageSize);
  return { items, total, page, pageSize };
}

function conflict(message: string): ApiError {
  return new ApiError(409, 'conflict', message);
}

/** BullMQ's refusal codes (its `ErrorCode`): the job vanished, is locked, or changed state. */
const refusalCodes = new Set([-1, -2, -3, -6, -8]);

function isRefusal(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'number' && refusalCodes.has(code)) return true;
  // `Job#remove` reports a locked (running) job without a code.
  return /could not be removed because it is locked|job scheduler/i.test(error.message);
}

async function existingJob(queue: Queue, jobId: string): Promise<Job> {
  const job = await Job.fromId(queue, jobId);
  if (!job)
    throw conflict(
      `Job ${queue.name}/${jobId} no longer exists: it was discarded or has expired. Nothing was changed.`,
    );
  return job;
}

export async function retryJob(
  db: Database,
  queues: Queues,
  acting: Acting,
  queueName: string,
  jobId: string,
): Promise<{ queue: string; id: string }> {
  const queue = queueNamed(queues, queueName);
  const job = await existingJob(queue, jobId);
  const state = await job.getState();
  if (state !== 'failed')
    throw conflict(
      `Job ${queueName}/${jobId} is ${state}, not failed: only a failed job can be retried. Nothing was changed.`,
    );
  try {
    // Atomic in Redis: refused if the job is no longer in the failed set (another operator's
    // Retry or Discard won the race). The attempt count is kept, so the list shows the total.
    await job.retry('failed');
  } catch (error) {
    if (!isRefusal(error)) throw error;
    throw conflict(
      `Job ${queueName}/${jobId} was retried or discarded meanwhile: only a failed job can be retried. Nothing was changed.`,
    );
  }
  await recordAudit(db, {
    actorUserId: acting.principal.userId,
    action: 'job.retried',
    subject: `${queueName}/${jobId}`,
    detail: {
      name: job.name,
      failedReason: scrubReason(job.failedReason ?? ''),
      attemptsMade: job.attemptsMade,
    },
    teamId: null,
    ip: acting.ip,
  });
  return { queue: queueName, id: jobId };
}

export async function discardJob(
  db: Database,
  queues: Queues,
  acting: Acting,
  queueName: string,
  jobId: string,
): Promise<void> {
  const queue = queueNamed(queues, queueName);
  const job = await existingJob(queue, jobId);
  const state = await job.getState();
  const running = conflict(
    `Job ${queueName}/${jobId} is running: it can be discarded once it has finished or failed. Nothing was changed.`,
  );
  if (state === 'active') throw running;
  try {
    // Refused by BullMQ while a worker holds the job's lock (it started after our check).
    await job.remove();
  } catch (error) {
    if (!isRefusal(error)) throw error;
    if (/scheduler/i.test((error as Error).message))
      throw conflict(
        `Job ${queueName}/${jobId} is the next run of a schedule and cannot be discarded. Nothing was changed.`,
      );
    throw running;
  }
  await recordAudit(db, {
    actorUserId: acting.principal.userId,
    action: 'job.discarded',
    subject: `${queueName}/${jobId}`,
    detail: {
      name: job.name,
      state,
      failedReason: job.failedReason ? scrubReason(job.failedReason) : null,
      attemptsMade: job.attemptsMade,
    },
    teamId: null,
    ip: acting.ip,
  });
}
