import { bullPrefix, jobs, queueNames, type JobKey, type JobPayload } from '@locus/contract';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';

/** The API's handle on every queue: it enqueues, the worker processes. */
export function createQueues(connection: Redis, redisKeyPrefix: string) {
  const queues = new Map(
    queueNames.map((name) => [
      name,
      new Queue(name, { connection, prefix: bullPrefix(redisKeyPrefix) }),
    ]),
  );
  return {
    all: [...queues.values()],
    /** Enqueues a job with its contract options; `jobId` makes a re-enqueue of the same row a no-op. */
    async enqueue<K extends JobKey>(key: K, payload: JobPayload<K>, jobId?: string): Promise<void> {
      const job = jobs[key];
      const queue = queues.get(job.queue)!;
      await queue.add(job.name, job.payload.parse(payload), {
        ...job.options,
        ...(jobId ? { jobId } : {}),
      });
    },
    close: () => Promise.all([...queues.values()].map((queue) => queue.close())),
  };
}
export type Queues = ReturnType<typeof createQueues>;
