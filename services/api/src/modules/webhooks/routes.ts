import { partnerWebhooksContract, teamWebhooksContract } from '@locus/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { registerContract } from '../../http/contract-routes';
import type { AppDeps } from '../../platform/deps';
import { requireUser } from '../auth/guard';
import { requireEnterpriseTeamAdmin } from '../partner/team-access';
import {
  changeWebhook,
  createWebhook,
  removeWebhook,
  resendDelivery,
  teamWebhooks,
  webhookDeliveries,
  type WebhookOwner,
} from './service';

/**
 * A team's webhook endpoints and their delivery log (issue 15), twice over the same service:
 * for its partner system (a key with `webhooks:manage`) and for its team admins on the API page.
 */
export function webhookRoutes(app: FastifyInstance, { db, config }: AppDeps): void {
  const policy = { allowHttp: config.WEBHOOK_ALLOW_HTTP === 'true' };

  const partner = async (request: FastifyRequest, reply: FastifyReply): Promise<WebhookOwner> =>
    request.partnerAuth.require('webhooks:manage', reply);
  registerContract(app, partnerWebhooksContract, {
    list: async (_input, { request, reply }) => ({
      status: 200,
      body: { webhooks: await teamWebhooks(db, await partner(request, reply)) },
    }),
    create: async ({ body }, { request, reply }) => ({
      status: 201,
      body: await createWebhook(db, await partner(request, reply), body, policy),
    }),
    update: async ({ params, body }, { request, reply }) => ({
      status: 200,
      body: await changeWebhook(db, await partner(request, reply), params.id, body, policy),
    }),
    remove: async ({ params }, { request, reply }) => {
      await removeWebhook(db, await partner(request, reply), params.id);
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

  /** A team admin's view; adding an endpoint needs the enterprise level, as a key does. */
  const admin = async (
    request: FastifyRequest,
    teamId: string,
    creating = false,
  ): Promise<WebhookOwner> => {
    const team = await requireEnterpriseTeamAdmin(db, await requireUser(request), teamId, {
      creating,
    });
    return { teamId: team.id, keyId: null };
  };
  registerContract(app, teamWebhooksContract, {
    list: async ({ params }, { request }) => ({
      status: 200,
      body: { webhooks: await teamWebhooks(db, await admin(request, params.teamId)) },
    }),
    create: async ({ params, body }, { request }) => ({
      status: 201,
      body: await createWebhook(db, await admin(request, params.teamId, true), body, policy),
    }),
    update: async ({ params, body }, { request }) => ({
      status: 200,
      body: await changeWebhook(db, await admin(request, params.teamId), params.id, body, policy),
    }),
    remove: async ({ params }, { request }) => {
      await removeWebhook(db, await admin(request, params.teamId), params.id);
      return { status: 204, body: undefined };
    },
    deliveries: async ({ params, query }, { request }) => ({
      status: 200,
      body: {
        deliveries: await webhookDeliveries(
          db,
          await admin(request, params.teamId),
          params.id,
          query.limit,
        ),
      },
    }),
    resend: async ({ params }, { request }) => ({
      status: 202,
      body: await resendDelivery(
        db,
        await admin(request, params.teamId),
        params.id,
        params.deliveryId,
      ),
    }),
  });
}
