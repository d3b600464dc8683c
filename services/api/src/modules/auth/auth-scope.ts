import rateLimit from '@fastify/rate-limit';
import { signInLockout } from '@locus/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors';
import type { AppDeps } from '../../platform/deps';
import { signInThrottleFromConfig } from './address-throttle';
import { SignInLockout } from './lockout';

/**
 * The one set of sign-in counts (per account, per address and account) that the password, code
 * and passkey steps share: a failure at any step counts toward the same lock.
 */
export function signInLockoutFor(deps: AppDeps): SignInLockout {
  const { config } = deps;
  return new SignInLockout(
    deps.redis,
    config.REDIS_KEY_PREFIX,
    signInLockout,
    signInThrottleFromConfig(config),
  );
}

/**
 * Rate-limits every route of an auth scope per client address and route, counted in Redis so
 * that every instance shares the count. `max` may depend on the route.
 */
export async function rateLimitAuthScope(
  scope: FastifyInstance,
  deps: AppDeps,
  max: number | ((request: FastifyRequest) => number) = deps.config.AUTH_RATE_LIMIT_MAX,
): Promise<void> {
  const { config } = deps;
  await scope.register(rateLimit, {
    global: true,
    redis: deps.redis,
    nameSpace: `${config.REDIS_KEY_PREFIX}rate-limit:`,
    max: typeof max === 'number' ? max : (request) => max(request),
    timeWindow: config.AUTH_RATE_LIMIT_WINDOW_SECONDS * 1000,
    keyGenerator: (request) => `${request.method}:${request.routeOptions.url}:${request.ip}`,
    errorResponseBuilder: (_request, context) =>
      new ApiError(429, 'rate-limited', `Too many requests. Try again in ${context.after}.`),
  });
}
