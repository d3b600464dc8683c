import type { JobPayload } from '@locus/contract';
import type { JobContext } from '../../processor';
import { failAbandonedEmails, findStuckEmails } from './repo';

const BATCH = 500;

/**
 * `email.sweep` (every minute): an e-mail still queued past its deadline lost its job (Redis
 * restarted, the API died between commit and enqueue) or used up its retries; enqueue it
 * again. After the give-up period it is marked failed instead.
 */
export async function emailSweep(
  _payload: JobPayload<'emailSweep'>,
  { db, log, config, queues }: JobContext,
): Promise<{ requeued: number; gaveUp: number }> {
  const gaveUp = await failAbandonedEmails(db, config.EMAIL_GIVE_UP_HOURS);
  let requeued = 0;
  for (const emailId of await findStuckEmails(db, config.EMAIL_SWEEP_AFTER_SECONDS, BATCH)) {
    if (await queues.requeue('emailSend', { emailId }, emailId)) requeued += 1;
  }
  if (requeued > 0 || gaveUp > 0) log.warn({ requeued, gaveUp }, 'e-mail sweep');
  return { requeued, gaveUp };
}
