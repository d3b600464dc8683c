import { partnerWebhooksContract } from '@locus/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { registerContract } from '../../http/contract-routes';
import type { AppDeps } from '../../platform/deps';
import {
  createPartnerWebhook,
  deletePartnerWebhook,
  partnerWebhooks,
  resendDelivery,
  updatePartnerWebhook,
  webhookDeliveries,
} from './service';

/** The partner API's webhook endpoints and their delivery log (issue 15): thin handlers. */
export function partnerWebhookRoutes(app: FastifyInstance, { db, config }: AppDeps): void {
  const policy = { allowHttp: config.WEBHOOK_ALLOW_HTTP === 'true' };
  const partner = (request: FastifyRequest, reply: FastifyReply) =>
    request.partnerAuth.require('webhooks:manage', reply);
  registerContract(app, partnerWebhooksContract, {
    list: async (_input, { request, reply }) => ({
      status: 200,
      body: { webhooks: await partnerWebhooks(db, await partner(request, reply)) },
    }),
    create: async ({ body }, { request, reply }) => ({
      status: 201,
      body: await createPartnerWebhook(db, await partner(request, reply), body, policy),
    }),
    update: async ({ params, body }, { request, reply }) => ({
      status: 200,
      body: await updatePartnerWebhook(db, await partner(request, reply), params.id, body, policy),
    }),
    remove: async ({ params }, { request, reply }) => {
      await deletePartnerWebhook(db, await partner(request, reply), params.id);
      return { status: 204, body: undefined };
    },
    deliveries: async ({ params, query }, { request, reply }) => ({
      status: 200,
      body: {
        deliveries: await webhookDeliveries(
          db,
          await partner(request, reply),
          params.id,
          query.limit,
        ),
      },
    }),
    resend: async ({ params }, { request, reply }) => ({
      status: 202,
      body: await resendDelivery(db, await partner(request, reply), params.id, params.deliveryId),
    }),
  });
}
