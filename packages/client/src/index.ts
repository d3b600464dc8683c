import { partnerContract, partnerWebhooksContract } from '@locus/contract';
import { initClient } from '@ts-rest/core';

export { signWebhook, verifyWebhook, WebhookVerificationError } from './webhooks';
export type { WebhookHeaders } from './webhooks';

/**
 * A typed client for the partner API, built from the same contract the API validates against:
 * every route's input and answers are typed, and `status` tells them apart.
 *
 *     const locus = createLocusClient({ baseUrl: 'https://locus.example', apiKey: 'lk_…' });
 *     const started = await locus.partner.locate({
 *       body: { phoneNumber: '+12025550121' },
 *       headers: { 'idempotency-key': crypto.randomUUID() },
 *     });
 *     if (started.status === 201) console.log(started.body.callers[0]?.link.stage);
 */
export function createLocusClient(options: { baseUrl: string; apiKey: string }) {
  const clientOptions = {
    baseUrl: options.baseUrl,
    baseHeaders: { authorization: `Bearer ${options.apiKey}` },
    throwOnUnknownStatus: false,
  } as const;
  return {
    partner: initClient(partnerContract, clientOptions),
    webhooks: initClient(partnerWebhooksContract, clientOptions),
  };
}
export type LocusClient = ReturnType<typeof createLocusClient>;
