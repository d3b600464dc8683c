import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';

export const QUEUE_BOARD_PATH = '/admin/queues';

/**
 * The BullMQ board. Mounted only when QUEUE_BOARD_ENABLED is set: until sign-in exists there
 * is no way to restrict it to platform admins, so it stays off by default.
 */
export async function registerQueueBoard(app: FastifyInstance, queues: Queue[]): Promise<void> {
  const serverAdapter = new FastifyAdapter();
  createBullBoard({ queues: queues.map((queue) => new BullMQAdapter(queue)), serverAdapter });
  serverAdapter.setBasePath(QUEUE_BOARD_PATH);
  await app.register(serverAdapter.registerPlugin(), { prefix: QUEUE_BOARD_PATH });
}
