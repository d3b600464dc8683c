import { usersContract } from '@locus/contract';
import type { FastifyInstance } from 'fastify';
import { registerContract } from '../../http/contract-routes';
import type { AppDeps } from '../../platform/deps';
import { requireUser } from '../auth/guard';
import { patchUser, teamsOf } from './service';

export function userRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db } = deps;
  registerContract(app, usersContract, {
    patch: async ({ params, body }, { request }) => {
      const caller = await requireUser(request);
      return { status: 200, body: await patchUser(deps, caller, params.id, body) };
    },
    teams: async ({ params }, { request }) => {
      const caller = await requireUser(request);
      return { status: 200, body: await teamsOf(db, caller, params.id) };
    },
  });
}
