import { verificationContract } from '@locus/contract';
import type { FastifyInstance } from 'fastify';
import { registerContract } from '../../http/contract-routes';
import type { AppDeps } from '../../platform/deps';
import { requirePlatformAdmin } from '../auth/guard';
import { VerificationService } from './service';

/** The platform owner's verification screen: thin handlers, platform admins only. */
export function verificationRoutes(app: FastifyInstance, deps: AppDeps): void {
  const service = new VerificationService(deps);
  registerContract(app, verificationContract, {
    queue: async ({ query }, { request }) => {
      await requirePlatformAdmin(request);
      return { status: 200, body: await service.queue(query) };
    },
    teams: async (_input, { request }) => {
      await requirePlatformAdmin(request);
      return { status: 200, body: await service.teams() };
    },
    approve: async ({ params, body }, { request }) => ({
      status: 200,
      body: await service.approve(await requirePlatformAdmin(request), params.id, body, request.ip),
    }),
    reject: async ({ params, body }, { request }) => ({
      status: 200,
      body: await service.reject(
        await requirePlatformAdmin(request),
        params.id,
        body.reason,
        request.ip,
      ),
    }),
    domains: async (_input, { request }) => {
      await requirePlatformAdmin(request);
      return { status: 200, body: await service.domains() };
    },
    addDomain: async ({ body }, { request }) => ({
      status: 201,
      body: await service.addDomain(await requirePlatformAdmin(request), body.domain, request.ip),
    }),
    removeDomain: async ({ params }, { request }) => {
      await service.removeDomain(await requirePlatformAdmin(request), params.domain, request.ip);
      return { status: 204, body: undefined };
    },
  });
}
