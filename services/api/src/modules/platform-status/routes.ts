import { platformStatusContract } from '@locus/contract';
import type { FastifyInstance } from 'fastify';
import { registerContract } from '../../http/contract-routes';
import { requirePlatformAdmin } from '../auth/guard';
import { platformStatus, type StatusSources } from './service';

/** `GET /api/v1/platform/status`: platform admins only (401 signed out, 403 anyone else). */
export function platformStatusRoutes(app: FastifyInstance, sources: StatusSources): void {
  registerContract(app, platformStatusContract, {
    status: async (_input, { request }) => {
      await requirePlatformAdmin(request);
      return { status: 200, body: await platformStatus(sources) };
    },
  });
}
