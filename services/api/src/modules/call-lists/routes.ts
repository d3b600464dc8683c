import { callListsContract } from '@locus/contract';
import type { FastifyInstance } from 'fastify';
import { registerContract } from '../../http/contract-routes';
import type { AppDeps } from '../../platform/deps';
import { requireUser } from '../auth/guard';
import {
  addCallListNumber,
  addCallListUsers,
  attachableUsers,
  callListNumbers,
  callListUsers,
  callListWithTeam,
  createCallList,
  deleteCallList,
  deployableCallLists,
  numbersToLocate,
  removeCallListNumbers,
  removeCallListUsers,
  renameCallList,
  searchCallLists,
  teamCallLists,
} from './service';

/** SPEC.md §7 "Call lists": thin handlers over `service.ts`, which checks who may do what. */
export function callListRoutes(app: FastifyInstance, { db }: Pick<AppDeps, 'db'>): void {
  registerContract(app, callListsContract, {
    teamLists: async ({ params }, { request }) => ({
      status: 200,
      body: await teamCallLists(db, await requireUser(request), params.teamId),
    }),
    listWithTeam: async ({ params }, { request }) => ({
      status: 200,
      body: await callListWithTeam(db, await requireUser(request), params.id),
    }),
    listUsers: async ({ params }, { request }) => ({
      status: 200,
      body: await callListUsers(db, await requireUser(request), params.id),
    }),
    numbers: async ({ params }, { request }) => ({
      status: 200,
      body: await numbersToLocate(db, await requireUser(request), params.listIds),
    }),
    deployable: async ({ params }, { request }) => ({
      status: 200,
      body: await deployableCallLists(db, await requireUser(request), params.id),
    }),
    create: async ({ params, body }, { request }) => ({
      status: 201,
      body: await createCallList(db, await requireUser(request), params.id, body),
    }),
    search: async ({ query }, { request }) => ({
      status: 200,
      body: await searchCallLists(db, await requireUser(request), query.search),
    }),
    addUsers: async ({ params }, { request }) => ({
      status: 200,
      body: await addCallListUsers(db, await requireUser(request), params.a, params.b),
    }),
    removeUsers: async ({ params, body }, { request }) => ({
      status: 200,
      body: await removeCallListUsers(db, await requireUser(request), params.id, body.userIds),
    }),
    remove: async ({ params }, { request }) => {
      await deleteCallList(db, await requireUser(request), params.id);
      return { status: 200, body: { deleted: true } };
    },
    addNumber: async ({ params, body }, { request }) => ({
      status: 200,
      body: await addCallListNumber(db, await requireUser(request), params.id, {
        phoneNumber: body.phoneNumber,
        label: body.label ?? null,
      }),
    }),
    rename: async ({ params, body }, { request }) => ({
      status: 200,
      body: await renameCallList(db, await requireUser(request), params.id, body.callListName),
    }),
    removeNumbers: async ({ params, body }, { request }) => ({
      status: 200,
      body: await removeCallListNumbers(
        db,
        await requireUser(request),
        params.id,
        body.phoneNumbers,
      ),
    }),
    listNumbers: async ({ params }, { request }) => ({
      status: 200,
      body: await callListNumbers(db, await requireUser(request), params.id),
    }),
    teamUsers: async ({ params }, { request }) => ({
      status: 200,
      body: await attachableUsers(db, await requireUser(request), params.teamId),
    }),
  });
}
