import type { ErrorBody, ErrorCode } from '@locus/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodError } from 'zod';
import { classifyDatabaseError } from './database-errors';

/** How long a client should wait before retrying while Postgres or Redis is unreachable. */
export const unavailableRetryAfterSeconds = 5;

/** Thrown by services; the error handler turns it into `{ error, message }` with `status`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly issues?: ErrorBody['issues'],
  ) {
    super(message);
  }
}

export function zodIssues(error: ZodError): NonNullable<ErrorBody['issues']> {
  return error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
}

export function validationError(where: string, error: ZodError): ApiError {
  return new ApiError(400, 'validation-failed', `The ${where} is not valid.`, zodIssues(error));
}

/**
 * One error shape for every route, including Fastify's own errors. Installed before any route
 * or scope is registered, so that every one of them inherits it.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      const body: ErrorBody = { error: error.code, message: error.message };
      if (error.issues) body.issues = error.issues;
      return reply.status(error.status).send(body);
    }
    const status = error.statusCode ?? 500;
    if (status === 429) {
      return reply
        .status(429)
        .send({ error: 'rate-limited', message: 'Too many requests. Try again shortly.' });
    }
    if (status >= 400 && status < 500) {
      // Malformed JSON, a body over the limit, a wrong content type: the client's to fix.
      return reply.status(status).send({ error: 'validation-failed', message: error.message });
    }
    const database = classifyDatabaseError(error);
    if (database === 'invalid-value') {
      request.log.warn({ err: error }, 'a value passed validation but the database refused it');
      return reply
        .status(400)
        .send({ error: 'validation-failed', message: 'A value in the request is out of range.' });
    }
    if (database === 'unavailable') {
      request.log.error({ err: error }, 'database unavailable');
      return reply.status(503).header('retry-after', String(unavailableRetryAfterSeconds)).send({
        error: 'service-unavailable',
        message: 'Locus cannot reach its database. Try again in a few seconds.',
      });
    }
    request.log.error({ err: error }, 'request failed');
    return reply
      .status(500)
      .send({ error: 'internal-error', message: 'Something went wrong on our side.' });
  });
}

/** Unknown paths: the web app's page for browser navigation, else the one error shape. */
export function installNotFoundHandler(
  app: FastifyInstance,
  pageFallback?: (request: FastifyRequest, reply: FastifyReply) => boolean,
): void {
  app.setNotFoundHandler((request, reply) => {
    if (pageFallback?.(request, reply)) return;
    reply.status(404).send({
      error: 'not-found',
      message: `No route for ${request.method} ${request.url.split('?')[0]}.`,
    });
  });
}
