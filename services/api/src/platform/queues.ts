import { bullPrefix, jobs, queueNames, type JobKey, type JobPayload } from '@locus/contract';
import { jobOriginOptions } from '@locus/telemetry';
import { Queue, QueueEvents, type Job } from 'bullmq';
import type { Redis } from 'ioredis';

/** Queues whose jobs a request waits for (an interactive lookup, a text message to a caller). */
const awaitedQueues: string[] = [jobs.locationLookup.queue, jobs.smsSend.queue];

export type JobOutcome = 'completed' | 'failed' | 'timeout';

/** The API's handle on every queue: it enqueues, the worker processes. */
export function createQueues(
  connection: Redis,
  redisKeyPrefix: string,
  /** Their connections' errors (Redis restarting): logged, where BullMQ would print them raw. */
  onError: (error: Error, queue: string) => void,
) {
  const prefix = bullPrefix(redisKeyPrefix);
  const queues = new Map(
    queueNames.map((name) => [
      name,
      new Queue(name, { connection, prefix }).on('error', (error) => onError(error, name)),
    ]),
  );
  // QueueEvents blocks on its connection (XREAD); BullMQ duplicates the shared one for that.
  const events = new Map(
    awaitedQueues.map((name) => [
      name,
      new QueueEvents(name, { connection, prefix }).on('error', (error) => onError(error, name)),
    ]),
  );
  return {
    all: [...queues.values()],
    /** Resolves once the job-completion listeners are running, so that no outcome is missed. */
    ready: () =>
      Promise.all([...events.values()].map((queueEvents) => queueEvents.waitUntilReady())),
    /**
     * Enqueues a job with its contract options; `jobId` makes a re-enqueue of the same row a no-op.
     * Every job carries the request id and trace context it was enqueued under (`jobOriginOptions`).
     */
    async enqueue<K extends JobKey>(
      key: K,
      payload: JobPayload<K>,
      jobId?: string,
      delayMs?: number,
    ): Promise<void> {
      const job = jobs[key];
      const queue = queues.get(job.queue)!;
      await queue.add(job.name, job.payload.parse(payload), {
        ...job.options,
        ...(jobId ? { jobId } : {}),
        ...(delayMs ? { delay: delayMs } : {}),
        ...jobOriginOptions(),
      });
    },
    /**
     * Enqueues a job and waits until the worker has finished it (every attempt, for a failure),
     * or `timeoutMs`. The job's row holds the outcome; this only says when to read it.
     */
    async enqueueAndWait<K extends JobKey>(
      key: K,
      payload: JobPayload<K>,
      jobId: string,
      timeoutMs: number,
    ): Promise<JobOutcome> {
      const definition = jobs[key];
      const queueEvents = events.get(definition.queue);
      if (!queueEvents) throw new Error(`jobs of queue ${definition.queue} cannot be awaited`);
      const job = await queues
        .get(definition.queue)!
        .add(definition.name, definition.payload.parse(payload), {
          ...definition.options,
          jobId,
          ...jobOriginOptions(),
        });
      return finished(job, queueEvents, timeoutMs);
    },
    close: async () => {
      await Promise.all([...events.values()].map((queueEvents) => queueEvents.close()));
      await Promise.all([...queues.values()].map((queue) => queue.close()));
    },
  };
}
export type Queues = ReturnType<typeof createQueues>;

async function finished(
  job: Job,
  queueEvents: QueueEvents,
  timeoutMs: number,
): Promise<JobOutcome> {
  try {
    await job.waitUntilFinished(queueEvents, timeoutMs);
    return 'completed';
  } catch (error) {
    return error instanceof Error && /timed out/i.test(error.message) ? 'timeout' : 'failed';
  }
}
