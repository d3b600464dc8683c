import { teamsContract } from '@locus/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerContract } from '../../http/contract-routes';
import type { AppDeps } from '../../platform/deps';
import { requireUser } from '../auth/guard';
import {
  addPsapToTeam,
  checkPermissionLevel,
  createTeam,
  editCustomContent,
  getCustomContent,
  getTeam,
  listManagedTeams,
  listTeamPsaps,
  patchTeam,
  removePsapsFromTeam,
  userTeam,
  type Actor,
} from './service';

async function actor(request: FastifyRequest): Promise<Actor> {
  return { principal: await requireUser(request), ip: request.ip };
}

/**
 * SPEC.md §7 Teams (but the members and security calls): thin handlers over `service.ts`, which
 * checks who may do what. find-my-way matches a static segment (`get-user-team`,
 * `checkPermissionLevel`, `editCustomContent`, `getCustomContent`) before `:id`.
 */
export function teamRoutes(app: FastifyInstance, { db }: Pick<AppDeps, 'db'>): void {
  registerContract(app, teamsContract, {
    list: async ({ query }, { request }) => ({
      status: 200,
      body: await listManagedTeams(db, await requireUser(request), query),
    }),
    create: async ({ body }, { request }) => ({
      status: 201,
      body: await createTeam(db, await actor(request), body),
    }),
    get: async ({ params }, { request }) => ({
      status: 200,
      body: await getTeam(db, await requireUser(request), params.id),
    }),
    update: async ({ params, body }, { request }) => ({
      status: 200,
      body: await patchTeam(db, await actor(request), params.id, body),
    }),
    editCustomContent: async ({ params, body }, { request }) => ({
      status: 200,
      body: await editCustomContent(db, await actor(request), params.id, body),
    }),
    getCustomContent: async ({ params }, { request }) => ({
      status: 200,
      body: await getCustomContent(db, await requireUser(request), params.id),
    }),
    psaps: async ({ params }, { request }) => ({
      status: 200,
      body: await listTeamPsaps(db, await requireUser(request), params.id),
    }),
    addPsap: async ({ params }, { request }) => ({
      status: 200,
      body: await addPsapToTeam(db, await actor(request), params.id, params.psapId),
    }),
    removePsaps: async ({ params, query }, { request }) => ({
      status: 200,
      body: await removePsapsFromTeam(db, await actor(request), params.id, query.psapIds),
    }),
    userTeam: async ({ params }, { request }) => ({
      status: 200,
      body: await userTeam(db, await requireUser(request), params.id),
    }),
    checkPremiere: async ({ params }, { request }) => ({
      status: 200,
      body: await checkPermissionLevel(db, await requireUser(request), params.teamName, 'premiere'),
    }),
    checkEnterprise: async ({ params }, { request }) => ({
      status: 200,
      body: await checkPermissionLevel(
        db,
        await requireUser(request),
        params.teamName,
        'enterprise',
      ),
    }),
  });
}
