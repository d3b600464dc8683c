import type { Database } from '@locus/db';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors';
import { QUEUE_BOARD_PATH } from '../../http/queue-board';
import type { IdleDefaults } from '../auth-sessions/policy';
import { assertMfaSatisfied, checkToken, type RealtimeRevoker } from './guard';

/**
 * The session token as a cookie, for the one page a browser opens without our JavaScript: the
 * queue board. Scoped to its path and read nowhere else, so the REST API stays bearer-only and
 * cannot be driven by cross-site requests.
 */
export const SESSION_COOKIE = 'locus_session';

export function setSessionCookie(
  reply: FastifyReply,
  token: string,
  expiresAt: string,
  secure: boolean,
): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: QUEUE_BOARD_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure,
    expires: new Date(expiresAt),
  });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(SESSION_COOKIE, {
    path: QUEUE_BOARD_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure,
  });
}

/**
 * The queue board's gate: the session cookie of a platform admin. Returns the refusal (401
 * without a valid session, 403 for anyone else, 403 `mfa-required` for a session that has not
 * met a team's MFA requirement), or undefined to let the request through. `idle`: the same
 * idle timeout as the bearer token's (`installBearerAuth`).
 */
export function queueBoardAccess(
  db: Database,
  revokeRealtime?: RealtimeRevoker,
  idle?: IdleDefaults,
): (request: FastifyRequest) => Promise<ApiError | undefined> {
  return async (request) => {
    const token = request.cookies[SESSION_COOKIE];
    if (!token) return new ApiError(401, 'unauthorized', 'Sign in as a platform admin first.');
    const check = await checkToken(db, token, {
      ...(revokeRealtime ? { revokeRealtime } : {}),
      ...(idle ? { idle } : {}),
    });
    if ('error' in check)
      return new ApiError(401, check.error, 'Your session has ended. Sign in again.');
    if (!check.principal.isPlatformAdmin)
      return new ApiError(403, 'forbidden', 'The queue board is for platform admins.');
    try {
      assertMfaSatisfied(check.principal);
    } catch (error) {
      if (error instanceof ApiError) return error;
      throw error;
    }
    return undefined;
  };
}
