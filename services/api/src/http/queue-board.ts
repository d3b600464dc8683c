import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { Queue } from 'bullmq';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiError } from './errors';

export const QUEUE_BOARD_PATH = '/admin/queues';

/**
 * The BullMQ board, always mounted, read-only. A browser opens it as a plain page, so it cannot send the
 * bearer token: `authorize` checks the session cookie that sign-in sets for this path, on
 * every request (pages, assets and the board's own API). Refusals are sent from the hook
 * itself: the board's plugin has its own error handler, which would turn them into 500s.
 */
export async function registerQueueBoard(
  app: FastifyInstance,
  queues: Queue[],
  authorize: (request: FastifyRequest) => Promise<ApiError | undefined>,
): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      const refusal = await authorize(request);
      if (refusal) {
        return reply.status(refusal.status).send({ error: refusal.code, message: refusal.message });
      }
    });
    const serverAdapter = new FastifyAdapter();
    // Read-only: retrying or discarding a job is done from /admin/dev, where it is audited.
    createBullBoard({
      queues: queues.map((queue) => new BullMQAdapter(queue, { readOnlyMode: true })),
      serverAdapter,
    });
    serverAdapter.setBasePath(QUEUE_BOARD_PATH);
    await scope.register(serverAdapter.registerPlugin(), { prefix: QUEUE_BOARD_PATH });
  });
}
