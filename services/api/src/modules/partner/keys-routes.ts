import { apiKeysContract } from '@locus/contract';
import type { FastifyInstance } from 'fastify';
import { registerContract } from '../../http/contract-routes';
import type { AppDeps } from '../../platform/deps';
import { requireUser } from '../auth/guard';
import { createApiKey, listApiKeys, revokeApiKey } from './keys-service';

/** /admin/admin-api's routes (issue 15): a team's partner API keys. */
export function apiKeyRoutes(app: FastifyInstance, { db }: Pick<AppDeps, 'db'>): void {
  registerContract(app, apiKeysContract, {
    list: async ({ params }, { request }) => ({
      status: 200,
      body: await listApiKeys(db, await requireUser(request), params.teamId),
    }),
    create: async ({ params, body }, { request }) => ({
      status: 201,
      body: await createApiKey(
        db,
        { principal: await requireUser(request), ip: request.ip },
        params.teamId,
        body,
      ),
    }),
    revoke: async ({ params }, { request }) => ({
      status: 200,
      body: await revokeApiKey(
        db,
        { principal: await requireUser(request), ip: request.ip },
        params.teamId,
        params.id,
      ),
    }),
  });
}
