import { partnerScope, routeSecurity } from '@locus/contract';
import {
  isAppRoute,
  type AppRoute,
  type AppRouter,
  type ServerInferRequest,
  type ServerInferResponses,
} from '@ts-rest/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeAny } from 'zod';
import { ApiError, validationError } from './errors';
import { findControlCharacter } from './input-hygiene';

export type RouteHandler<R extends AppRoute> = (
  input: ServerInferRequest<R>,
  context: { request: FastifyRequest; reply: FastifyReply },
) => Promise<ServerInferResponses<R>>;

export type RouterHandlers<T extends AppRouter> = {
  [K in keyof T]: T[K] extends AppRoute
    ? RouteHandler<T[K]>
    : T[K] extends AppRouter
      ? RouterHandlers<T[K]>
      : never;
};

function isZod(schema: unknown): schema is ZodTypeAny {
  return typeof schema === 'object' && schema !== null && 'safeParse' in schema;
}

function parse(schema: unknown, value: unknown, where: string): unknown {
  const path = findControlCharacter(value);
  if (path !== undefined) {
    throw new ApiError(400, 'validation-failed', `The ${where} is not valid.`, [
      { path, message: 'Must not contain control characters' },
    ]);
  }
  if (!isZod(schema)) return value;
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(where, result.error);
  return result.data;
}

/**
 * Registers a ts-rest router on Fastify 5. (@ts-rest/fastify supports Fastify 4 only.) Every
 * input is parsed with the contract's zod schemas before a handler sees it; a bad one is a 400
 * `validation-failed` that changes nothing. A route the contract does not declare `public` or
 * `callerLink` (`routeSecurity`) needs a signed-in user before any of that; a `partner` route, a
 * partner key or token with the route's scope.
 */
export function registerContract<T extends AppRouter>(
  app: FastifyInstance,
  router: T,
  handlers: RouterHandlers<T>,
): void {
  for (const key of Object.keys(router)) {
    const route = router[key];
    const handler = (handlers as Record<string, unknown>)[key];
    if (!route) continue;
    if (isAppRoute(route)) {
      const implementation = handler as RouteHandler<AppRoute>;
      const security = routeSecurity(route);
      app.route({
        method: route.method,
        url: route.path,
        handler: async (request, reply) => {
          // Who is calling comes before what they sent: an anonymous caller (or a bad token) gets
          // 401 `unauthorized` from every `session` route and never learns its validation rules
          // from a 400. The handler's own `requireUser` / `requireAdmin` still check the second
          // factor and the roles; `principal()` is memoized, so the session is looked up once.
          if (security === 'session') await request.auth.principal();
          // A partner route: the key (or token), its allowance and its scope, before the input.
          const scope = partnerScope(route);
          if (scope) await request.partnerAuth.require(scope, reply);
          const input = {
            params: parse(route.pathParams, request.params, 'path'),
            query: parse(route.query, request.query, 'query string'),
            body: 'body' in route ? parse(route.body, request.body, 'request body') : undefined,
            // Declared headers (e.g. `Idempotency-Key`) are validated like the rest; the others
            // pass through untouched.
            headers: route.headers
              ? {
                  ...request.headers,
                  ...(parse(route.headers, request.headers, 'headers') as object),
                }
              : request.headers,
          } as unknown as ServerInferRequest<AppRoute>;
          const { status, body } = (await implementation(input, { request, reply })) as {
            status: number;
            body: unknown;
          };
          return reply.status(status).send(body);
        },
      });
    } else {
      registerContract(app, route as AppRouter, handler as RouterHandlers<AppRouter>);
    }
  }
}
