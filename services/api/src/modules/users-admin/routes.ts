import { usersAdminContract } from '@locus/contract';
import type { FastifyInstance } from 'fastify';
import { registerContract } from '../../http/contract-routes';
import type { AppDeps } from '../../platform/deps';
import { signInLockoutFor } from '../auth/auth-scope';
import { requireAdmin } from '../auth/guard';
import {
  listUsers,
  searchUsers,
  teamUsers,
  unlistedUsers,
  unlockUser,
  userDetail,
} from './service';

/** SPEC.md §7 "Users" (the admin reads and the unlock): thin handlers over `service.ts`. */
export function usersAdminRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db } = deps;
  const admin = { db, lockout: signInLockoutFor(deps) };
  registerContract(app, usersAdminContract, {
    list: async ({ query }, { request }) => ({
      status: 200,
      body: await listUsers(db, await requireAdmin(request), query),
    }),
    search: async ({ query }, { request }) => ({
      status: 200,
      body: await searchUsers(db, await requireAdmin(request), query),
    }),
    clientUsers: async ({ params, query }, { request }) => ({
      status: 200,
      body: await teamUsers(
        db,
        await requireAdmin(request),
        params.teamId,
        { page: params.page, pageSize: query.pageSize },
        false,
      ),
    }),
    newClientUsers: async ({ params, query }, { request }) => ({
      status: 200,
      body: await teamUsers(
        db,
        await requireAdmin(request),
        params.teamId,
        { page: params.page, pageSize: query.pageSize },
        true,
      ),
    }),
    unlistedUsers: async ({ query }, { request }) => ({
      status: 200,
      body: await unlistedUsers(db, await requireAdmin(request), query),
    }),
    detail: async ({ params }, { request }) => ({
      status: 200,
      body: await userDetail(admin, await requireAdmin(request), params.id),
    }),
    unlock: async ({ params }, { request }) => ({
      status: 200,
      body: await unlockUser(admin, await requireAdmin(request), params.id, request),
    }),
  });
}
