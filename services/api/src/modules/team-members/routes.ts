import { teamMembersContract } from '@locus/contract';
import type { FastifyInstance } from 'fastify';
import { registerContract } from '../../http/contract-routes';
import type { AppDeps } from '../../platform/deps';
import { requireAdmin } from '../auth/guard';
import {
  addTeamMember,
  changeTeamMemberRole,
  getTeamMember,
  listTeamMembers,
  removeTeamMember,
} from './service';

/** SPEC.md §7 Teams, the members calls: thin handlers over `service.ts`. */
export function teamMemberRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db } = deps;
  registerContract(app, teamMembersContract, {
    list: async ({ params, query }, { request }) => ({
      status: 200,
      body: await listTeamMembers(db, await requireAdmin(request), params.id, query),
    }),
    add: async ({ params, body }, { request }) => ({
      status: 201,
      body: await addTeamMember(
        db,
        { principal: await requireAdmin(request), ip: request.ip },
        params.id,
        params.userId,
        body.role,
      ),
    }),
    get: async ({ params }, { request }) => ({
      status: 200,
      body: await getTeamMember(db, await requireAdmin(request), params.id, params.userId),
    }),
    changeRole: async ({ params, body }, { request }) => ({
      status: 200,
      body: await changeTeamMemberRole(
        deps,
        { principal: await requireAdmin(request), ip: request.ip },
        params.id,
        params.userId,
        body.role,
      ),
    }),
    remove: async ({ params }, { request }) => {
      await removeTeamMember(
        deps,
        { principal: await requireAdmin(request), ip: request.ip },
        params.id,
        params.userId,
      );
      return { status: 204, body: undefined };
    },
  });
}
