import { uscgContract } from '@locus/contract';
import type { FastifyInstance } from 'fastify';
import { registerContract } from '../../http/contract-routes';
import type { AppDeps } from '../../platform/deps';
import { requireUser } from '../auth/guard';
import { coastGuardConfig } from '../public-config/routes';
import { decideUscgUser, pendingUscgUsers } from './service';

export function uscgRoutes(app: FastifyInstance, { db, config }: AppDeps): void {
  const coastGuard = coastGuardConfig(config);
  registerContract(app, uscgContract, {
    pending: async (_input, { request }) => {
      const principal = await requireUser(request);
      return { status: 200, body: await pendingUscgUsers(db, principal, coastGuard) };
    },
    decide: async ({ params }, { request }) => {
      const principal = await requireUser(request);
      await decideUscgUser(db, principal, coastGuard, params.userId, params.decision);
      return { status: 204, body: undefined };
    },
  });
}
