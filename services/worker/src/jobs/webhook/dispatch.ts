import { jobs, type JobPayload } from '@locus/contract';
import type { JobContext } from '../../processor';
import { leaseDueDeliveries } from './repo';

const BATCH = 500;
/** Longer than one attempt can take: a delivery whose job was lost is picked up again after it. */
const LEASE_SECONDS = 120;

/**
 * `webhook.dispatch` (every WEBHOOK_DISPATCH_EVERY_MS): enqueues `webhook.deliver` for each due
 * delivery. The job id names the attempt, so that a lease that ran out while its job was still
 * waiting does not send it twice.
 */
export async function webhookDispatch(
  _payload: JobPayload<'webhookDispatch'>,
  { db, queues, config }: JobContext,
): Promise<{ enqueued: number }> {
  const due = await leaseDueDeliveries(
    db,
    BATCH,
    LEASE_SECONDS,
    config.WEBHOOK_CONCURRENCY_PER_ENDPOINT,
  );
  if (due.length === 0) return { enqueued: 0 };
  await queues.queueOf('webhookDeliver').addBulk(
    due.map((delivery) => ({
      name: jobs.webhookDeliver.name,
      data: { deliveryId: delivery.id },
      opts: { ...jobs.webhookDeliver.options, jobId: `${delivery.id}-a${delivery.attempts + 1}` },
    })),
  );
  return { enqueued: due.length };
}
