import { signWebhook } from '@locus/client/webhooks';
import type { JobPayload } from '@locus/contract';
import type { JobContext } from '../../processor';
import { postWebhook } from '../../providers/webhook-http';
import { findPendingDelivery, recordAttempt, releaseLease } from './repo';

/**
 * `webhook.deliver`: one signed attempt at one delivery (Standard Webhooks headers, the same
 * `webhook-id` every time). Every attempt is recorded; a failure waits WEBHOOK_RETRY_BASE_MS,
 * doubling each time, and after WEBHOOK_MAX_ATTEMPTS the delivery fails and its endpoint is
 * turned off (the team sees why, and turns it back on).
 */
export async function webhookDeliver(
  { deliveryId }: JobPayload<'webhookDeliver'>,
  { db, config, log }: JobContext,
): Promise<{ outcome: string }> {
  const delivery = await findPendingDelivery(db, deliveryId);
  if (!delivery) {
    await releaseLease(db, deliveryId);
    return { outcome: 'not pending' };
  }
  // Turned off since it was leased: it waits, pending, for the endpoint to be turned on.
  if (!delivery.enabled) {
    await releaseLease(db, deliveryId);
    return { outcome: 'endpoint turned off' };
  }
  const attempt = delivery.attempts + 1;
  // Counted from the last resend, which starts a whole new round.
  const round = attempt - delivery.resendBase;
  const last = round >= config.WEBHOOK_MAX_ATTEMPTS;
  const started = Date.now();
  const response = await postWebhook(
    delivery.url,
    { ...signWebhook(delivery.secret, { id: delivery.id, body: delivery.body }) },
    delivery.body,
    {
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      allowHttp: config.WEBHOOK_ALLOW_HTTP,
    },
  );
  const retryInMs = response.ok || last ? null : config.WEBHOOK_RETRY_BASE_MS * 2 ** (round - 1);
  await recordAttempt(db, delivery, {
    attempt,
    statusCode: response.statusCode,
    error: response.ok ? null : response.error,
    durationMs: Date.now() - started,
    delivered: response.ok,
    retryInMs,
    disableReason: `Turned off after ${round} failed attempts at one delivery (the last: ${
      response.ok ? '' : response.error
    }).`,
  });
  if (!response.ok)
    log.warn({ deliveryId, attempt, error: response.error }, 'webhook attempt failed');
  return { outcome: response.ok ? 'delivered' : retryInMs === null ? 'failed' : 'retrying' };
}
