import { passkeysContract } from '@locus/contract';
import type { FastifyInstance } from 'fastify';
import { registerContract } from '../../http/contract-routes';
import type { AppDeps } from '../../platform/deps';
import { setSessionCookie } from '../auth/cookie';
import { requireUser } from '../auth/guard';
import { rateLimitAuthScope, signInLockoutFor } from '../auth/auth-scope';
import { withRetryAfter } from '../auth/sign-in-guard';
import { PasskeyService } from './service';

/** Passkeys in the profile and sign-in's second step with one, rate-limited like the other auth routes. */
export async function passkeyRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { config } = deps;
  // The same counts as the password and code steps: a refused passkey is a failed sign-in.
  const service = new PasskeyService(deps, signInLockoutFor(deps));
  const secureCookie = config.NODE_ENV === 'production';

  await app.register(async (scope) => {
    await rateLimitAuthScope(scope, deps);

    registerContract(scope, passkeysContract, {
      list: async (_input, { request }) => ({
        status: 200,
        body: await service.list(await requireUser(request)),
      }),
      registrationOptions: async ({ body }, { request }) => ({
        status: 200,
        body: await service.registrationOptions(
          await requireUser(request),
          body.password,
          request.ip,
        ),
      }),
      add: async ({ body }, { request }) => ({
        status: 201,
        body: await service.add(await requireUser(request), body),
      }),
      remove: async ({ params }, { request }) => {
        await service.remove(await requireUser(request), params.id);
        return { status: 204, body: undefined };
      },
      signInOptions: async ({ body }) => ({
        status: 200,
        body: await service.signInOptions(body.challenge),
      }),
      signIn: async ({ body }, { request, reply }) => {
        const token = await withRetryAfter(reply, () =>
          service.signIn(body, { ip: request.ip, userAgent: request.headers['user-agent'] }),
        );
        setSessionCookie(reply, token.token, token.expiresAt, secureCookie);
        return { status: 200, body: token };
      },
    });
  });
}
