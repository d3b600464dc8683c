import { bullPrefix, jobs, queueNames, type JobKey, type JobPayload } from '@locus/contract';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';

/** States in which a job will still run by itself: re-adding it would change nothing. */
const pending = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

/** The worker's own handle on the queues, for sweepers and schedules. */
export function createWorkerQueues(
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
  const queueOf = (key: JobKey) => queues.get(jobs[key].queue)!;
  return {
    queueOf,
    /**
     * Enqueues a row's job again unless it is still pending. A finished or failed job with the
     * same id would make BullMQ ignore the add, so it is removed first.
     */
    async requeue<K extends JobKey>(key: K, payload: JobPayload<K>, jobId: string) {
      const queue = queueOf(key);
      const existing = await queue.getJob(jobId);
      if (existing) {
        if (pending.has(await existing.getState())) return false;
        await existing.remove();
      }
      await queue.add(jobs[key].name, jobs[key].payload.parse(payload), {
        ...jobs[key].options,
        jobId,
      });
      return true;
    },
    close: () => Promise.all([...queues.values()].map((queue) => queue.close())),
  };
}
export type WorkerQueues = ReturnType<typeof createWorkerQueues>;
