import { mfaContract } from '@locus/contract';
import type { FastifyInstance } from 'fastify';
import { registerContract } from '../../http/contract-routes';
import type { AppDeps } from '../../platform/deps';
import { setSessionCookie } from '../auth/cookie';
import { requireUser } from '../auth/guard';
import { rateLimitAuthScope, signInLockoutFor } from '../auth/auth-scope';
import { withRetryAfter } from '../auth/sign-in-guard';
import { MfaService } from './service';

/** Enrolment and sign-in's second step, rate-limited per client address like the other auth routes. */
export async function mfaRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { config } = deps;
  // The same counts as the password step's (auth/routes.ts): a wrong code is a failed sign-in.
  const service = new MfaService(deps, signInLockoutFor(deps));
  const secureCookie = config.NODE_ENV === 'production';

  await app.register(async (scope) => {
    await rateLimitAuthScope(scope, deps);

    registerContract(scope, mfaContract, {
      signInWithCode: async ({ body }, { request, reply }) => {
        const token = await withRetryAfter(reply, () =>
          service.signIn(body, { ip: request.ip, userAgent: request.headers['user-agent'] }),
        );
        setSessionCookie(reply, token.token, token.expiresAt, secureCookie);
        return { status: 200, body: token };
      },
      status: async (_input, { request }) => ({
        status: 200,
        body: await service.status(await requireUser(request)),
      }),
      startTotp: async ({ body }, { request }) => ({
        status: 200,
        body: await service.startTotp(await requireUser(request), body.password, request.ip),
      }),
      confirmTotp: async ({ body }, { request }) => ({
        status: 200,
        body: await service.confirmTotp(await requireUser(request), body.code),
      }),
      disableTotp: async ({ body }, { request }) => ({
        status: 200,
        body: await service.disableTotp(await requireUser(request), body.code, request.ip),
      }),
    });
  });
}
