import { demoRequestsContract } from '@locus/contract';
import type { FastifyInstance } from 'fastify';
import { registerContract } from '../../http/contract-routes';
import type { AppDeps } from '../../platform/deps';
import { requirePlatformAdmin } from '../auth/guard';
import { listDemoRequests } from './repo';

/** Demo requests are stored by POST /auth/demo-request (the auth module); admins list them here. */
export function demoRequestRoutes(app: FastifyInstance, { db }: AppDeps): void {
  registerContract(app, demoRequestsContract, {
    list: async (_input, { request }) => {
      await requirePlatformAdmin(request);
      return { status: 200, body: await listDemoRequests(db, 500) };
    },
  });
}
