import { broadcastsContract } from '@locus/contract';
import type { FastifyInstance } from 'fastify';
import { registerContract } from '../../http/contract-routes';
import type { AppDeps } from '../../platform/deps';
import { requirePlatformAdmin, requireUser } from '../auth/guard';
import { CONSOLE_TICKET_TTL_SECONDS, type ConsoleTickets } from './console-tickets';
import { currentBroadcasts } from './repo';
import { postBroadcast, withdrawCurrentBroadcast } from './service';

/**
 * Maintenance broadcasts (issue 22) and the console socket's tickets: thin handlers; posting and
 * withdrawing are for the platform owner's company only.
 */
export function broadcastRoutes(
  app: FastifyInstance,
  deps: Pick<AppDeps, 'db' | 'redis' | 'config' | 'log'> & { consoleTickets: ConsoleTickets },
): void {
  registerContract(app, broadcastsContract, {
    post: async ({ body }, { request }) => ({
      status: 201,
      body: await postBroadcast(deps, await requirePlatformAdmin(request), body, request.ip),
    }),
    withdraw: async ({ params }, { request }) => {
      await withdrawCurrentBroadcast(
        deps,
        await requirePlatformAdmin(request),
        params.id,
        request.ip,
      );
      return { status: 204, body: undefined };
    },
    current: async (_input, { request }) => {
      await requireUser(request);
      return { status: 200, body: { current: await currentBroadcasts(deps.db) } };
    },
    consoleTicket: async (_input, { request }) => {
      const principal = await requireUser(request);
      const ticket = await deps.consoleTickets.issue({
        userId: principal.userId,
        authSessionId: principal.sessionId,
      });
      return { status: 200, body: { ticket, expiresInSeconds: CONSOLE_TICKET_TTL_SECONDS } };
    },
  });
}
