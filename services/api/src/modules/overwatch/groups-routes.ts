import { overwatchContract } from '@locus/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { registerContract } from '../../http/contract-routes';
import type { AppDeps } from '../../platform/deps';
import { requireUser } from '../auth/guard';
import {
  createOverwatchGroup,
  listOverwatchGroups,
  readOverwatchGroup,
  setOverwatchGroupArchived,
  updateOverwatchGroup,
} from './groups-service';

/**
 * The group routes of the Overwatch contract (issue 14); starting a watch is registered
 * elsewhere. The create and update bodies reach the service unparsed: it parses them with the
 * contract's `OverwatchGroupInput` itself, so that the 400 message names the problem (a
 * self-intersecting geofence, say) and not only its `issues`.
 */
const groupsRouter = {
  groups: overwatchContract.groups,
  group: overwatchContract.group,
  createGroup: { ...overwatchContract.createGroup, body: z.unknown() },
  updateGroup: { ...overwatchContract.updateGroup, body: z.unknown() },
  archiveGroup: overwatchContract.archiveGroup,
  restoreGroup: overwatchContract.restoreGroup,
};

export function overwatchGroupRoutes(app: FastifyInstance, { db }: Pick<AppDeps, 'db'>): void {
  registerContract(app, groupsRouter, {
    groups: async ({ query }, { request }) => ({
      status: 200,
      body: await listOverwatchGroups(db, await requireUser(request), query.archived === 'true'),
    }),
    group: async ({ params }, { request }) => ({
      status: 200,
      body: await readOverwatchGroup(db, await requireUser(request), params.id),
    }),
    createGroup: async ({ body }, { request }) => ({
      status: 201,
      body: await createOverwatchGroup(
        db,
        { principal: await requireUser(request), ip: request.ip },
        body,
      ),
    }),
    updateGroup: async ({ params, body }, { request }) => ({
      status: 200,
      body: await updateOverwatchGroup(
        db,
        { principal: await requireUser(request), ip: request.ip },
        params.id,
        body,
      ),
    }),
    archiveGroup: async ({ params }, { request }) => ({
      status: 200,
      body: await setOverwatchGroupArchived(
        db,
        { principal: await requireUser(request), ip: request.ip },
        params.id,
        true,
      ),
    }),
    restoreGroup: async ({ params }, { request }) => ({
      status: 200,
      body: await setOverwatchGroupArchived(
        db,
        { principal: await requireUser(request), ip: request.ip },
        params.id,
        false,
      ),
    }),
  });
}
