import { requestIdFrom, withRequestId } from '@locus/telemetry';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';

/**
 * Request ids: a sane incoming `x-request-id` (a load balancer's) is kept, anything else gets a
 * new UUID, unique across instances (Fastify's default counts from 1 in every process).
 */
export const requestIdOptions = {
  requestIdHeader: false,
  genReqId: (request) => requestIdFrom(request.headers['x-request-id']),
} satisfies Pick<FastifyServerOptions, 'requestIdHeader' | 'genReqId'>;

/**
 * Answers each request with its id and runs the rest of it as part of that id, so that every
 * job it enqueues carries the id into the worker's log lines (`@locus/telemetry`).
 */
export function installRequestIds(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    withRequestId(request.id, done);
  });
}
