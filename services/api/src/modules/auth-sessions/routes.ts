import { authSessionsContract } from '@locus/contract';
import type { FastifyInstance } from 'fastify';
import { registerContract } from '../../http/contract-routes';
import type { AppDeps } from '../../platform/deps';
import { requireUser } from '../auth/guard';
import { listSessions, setTeamSecurity, signOutOtherSessions, teamSecurity } from './service';

/**
 * The user's sessions, the idle policy and its activity ping, and a team's security policy. The
 * ping is a POST: any request that is not a read counts as activity (`installBearerAuth`).
 */
export function authSessionRoutes(app: FastifyInstance, deps: AppDeps): void {
  registerContract(app, authSessionsContract, {
    list: async (_input, { request }) => ({
      status: 200,
      body: await listSessions(deps.db, await requireUser(request)),
    }),
    signOutOthers: async (_input, { request }) => ({
      status: 200,
      body: await signOutOtherSessions(deps, await requireUser(request)),
    }),
    policy: async (_input, { request }) => ({
      status: 200,
      body: (await requireUser(request)).sessionPolicy,
    }),
    activity: async (_input, { request }) => {
      await requireUser(request);
      return { status: 204, body: undefined };
    },
    teamSecurity: async ({ params }, { request }) => ({
      status: 200,
      body: await teamSecurity(deps.db, await requireUser(request), params.id),
    }),
    setTeamSecurity: async ({ params, body }, { request }) => ({
      status: 200,
      body: await setTeamSecurity(deps.db, await requireUser(request), params.id, body, request.ip),
    }),
  });
}
