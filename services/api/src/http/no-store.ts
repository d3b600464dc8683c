import type { FastifyInstance } from 'fastify';
import { QUEUE_BOARD_PATH } from './queue-board';

/**
 * ASVS 8.2.1: an answer to a signed-in request (bearer token or the queue board's cookie) may
 * hold a caller's position or a user's details; no browser, proxy or shared computer keeps it.
 * A route that set its own `Cache-Control` keeps it.
 */
export function noStoreForSignedInAnswers(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const signedIn =
      request.headers.authorization !== undefined || request.url.startsWith(QUEUE_BOARD_PATH);
    if (signedIn && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
