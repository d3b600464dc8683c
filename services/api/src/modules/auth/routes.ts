import { authContract } from '@locus/contract';
import type { FastifyInstance } from 'fastify';
import { registerContract } from '../../http/contract-routes';
import type { AppDeps } from '../../platform/deps';
import { Mailer } from '../email/service';
import { loadCurrentUser } from '../users/service';
import { listUsers } from '../users-admin/service';
import { clearSessionCookie, setSessionCookie } from './cookie';
import { requireAdmin, requireUser } from './guard';
import { rateLimitAuthScope, signInLockoutFor } from './auth-scope';
import { changePassword } from './change-password';
import { AuthService } from './service';
import { withRetryAfter } from './sign-in-guard';

/** Reads by signed-in users (every page load asks for the current user) get more headroom. */
const READ_ROUTES = new Set<string>([authContract.currentUser.path, authContract.users.path]);
const READ_MULTIPLIER = 10;

/**
 * Every endpoint of SPEC.md §7 Authentication. All of them are rate-limited per client address
 * and route, counted in Redis so that every instance shares the count.
 */
export async function authRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { config } = deps;
  const lockout = signInLockoutFor(deps);
  const service = new AuthService(deps, new Mailer(deps.queues, deps.log), lockout);
  const secureCookie = config.NODE_ENV === 'production';

  // Its own scope, so the limiter applies to these routes only.
  await app.register(async (scope) => {
    // A scope's onClose runs before the root's, which closes Postgres and the queues.
    scope.addHook('onClose', () => service.background.drain());
    await rateLimitAuthScope(scope, deps, (request) =>
      READ_ROUTES.has(request.routeOptions.url ?? '')
        ? config.AUTH_RATE_LIMIT_MAX * READ_MULTIPLIER
        : config.AUTH_RATE_LIMIT_MAX,
    );

    registerContract(scope, authContract, {
      signIn: async ({ body }, { request, reply }) => {
        const answer = await withRetryAfter(reply, () =>
          service.signIn(body, request.ip, request.headers['user-agent']),
        );
        // A challenge for the second factor is not a session: no cookie until the code is right.
        if ('token' in answer)
          setSessionCookie(reply, answer.token, answer.expiresAt, secureCookie);
        return { status: 200, body: answer };
      },
      signOut: async (_input, { request, reply }) => {
        await service.signOut(await requireUser(request));
        clearSessionCookie(reply, secureCookie);
        return { status: 204, body: undefined };
      },
      register: async ({ body }, { request }) => ({
        status: 201,
        body: await service.register(body, request.ip),
      }),
      groupRegister: async ({ body }, { request }) => ({
        status: 200,
        body: await service.groupRegister(await requireUser(request), body, request.ip),
      }),
      acceptInvitation: async ({ body }) => ({
        status: 200,
        body: await service.acceptInvitation(body.invitationCode),
      }),
      completeRegistration: async ({ body }, { request }) => ({
        status: 200,
        body: await service.completeRegistration(await requireUser(request), body),
      }),
      joinUnlisted: async ({ body }, { request }) => ({
        status: 200,
        body: await service.joinUnlisted(await requireUser(request), body),
      }),
      completeRegistrationUscg: async ({ body }, { request }) => ({
        status: 200,
        body: await service.completeRegistrationUscg(await requireUser(request), body),
      }),
      resendEmailConfirmation: async ({ body }) => ({
        status: 202,
        body: await service.resendConfirmation(body.email),
      }),
      confirmEmail: async ({ body }) => ({
        status: 200,
        body: await service.confirmEmail(body.verificationCode),
      }),
      forgotPassword: async ({ body }) => ({
        status: 202,
        body: await service.forgotPassword(body.email),
      }),
      updatePassword: async ({ body }) => ({
        status: 200,
        body: await service.updatePassword(body.resetCode, body.password),
      }),
      changePassword: async ({ body }, { request, reply }) => {
        const principal = await requireUser(request);
        return {
          status: 200,
          body: await withRetryAfter(reply, () =>
            changePassword(deps, lockout, principal, body, request.ip),
          ),
        };
      },
      currentUser: async (_input, { request }) => {
        const principal = await requireUser(request);
        const user = await loadCurrentUser(deps.db, principal.userId);
        // The team's requirement is met by this session's second step, not the user's factors.
        const mfaRequired = principal.mfaRequiredByTeam && !principal.mfaVerified;
        return { status: 200, body: { ...user, mfaRequired } };
      },
      users: async ({ query }, { request }) => ({
        status: 200,
        body: await listUsers(deps.db, await requireAdmin(request), query),
      }),
      demoRequest: async ({ body }, { request }) => ({
        status: 202,
        body: await service.demoRequest(body, request.ip),
      }),
    });
  });
}
