import type { Database } from '@locus/db';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors';
import { hashToken, looksLikeToken } from '../sessions/tokens';
import { findAuthSession, findPrincipal, touchAuthSession } from './repo';

/** Who is signed in, and what that lets them do. */
export interface Principal {
  userId: string;
  email: string;
  fullName: string;
  /** The user's admin flag (SPEC.md §6 isAdmin). */
  isAdmin: boolean;
  /** isAdmin and a member of the platform owner's team. */
  isPlatformAdmin: boolean;
  teamIds: string[];
  /** Teams on which the user has the admin role. */
  adminTeamIds: string[];
  /** Coast-guard teams on which the user has the admin role. */
  coastGuardAdminTeamIds: string[];
  tokenHash: Buffer;
}

export type TokenCheck = { principal: Principal } | { error: 'unauthorized' | 'session-expired' };

/** Resolves a session token (bearer or queue-board cookie) to its user. */
export async function checkToken(db: Database, token: string): Promise<TokenCheck> {
  if (!looksLikeToken(token)) return { error: 'unauthorized' };
  const hash = hashToken(token);
  const session = await findAuthSession(db, hash);
  if (!session || session.revoked) return { error: 'unauthorized' };
  if (session.expired) return { error: 'session-expired' };
  const found = await findPrincipal(db, session.user_id);
  if (!found) return { error: 'unauthorized' };
  // Recorded at most every few minutes: a session is not a write per request.
  if (session.stale_use) await touchAuthSession(db, hash);
  const { user, teams } = found;
  const admin = teams.filter((team) => team.role === 'admin');
  return {
    principal: {
      userId: user.id,
      email: user.email,
      fullName: `${user.first_name} ${user.last_name}`,
      isAdmin: user.is_admin,
      isPlatformAdmin: user.is_admin && teams.some((team) => team.is_platform_owner),
      teamIds: teams.map((team) => team.id),
      adminTeamIds: admin.map((team) => team.id),
      coastGuardAdminTeamIds: admin.filter((team) => team.is_coast_guard).map((team) => team.id),
      tokenHash: hash,
    },
  };
}

const messages = {
  unauthorized: 'Sign in to continue.',
  'session-expired': 'Your session has expired. Sign in again.',
} as const;

/** The request's bearer token, resolved at most once and only when a route asks who is calling. */
export class RequestAuth {
  private resolved: Promise<Principal> | undefined;

  constructor(
    private readonly db: Database,
    private readonly header: string | undefined,
  ) {}

  /** The signed-in user, or a 401 `unauthorized` / `session-expired`. */
  principal(): Promise<Principal> {
    this.resolved ??= this.resolve();
    return this.resolved;
  }

  private async resolve(): Promise<Principal> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(this.header ?? '');
    if (!match?.[1]) throw new ApiError(401, 'unauthorized', messages.unauthorized);
    const check = await checkToken(this.db, match[1]);
    if ('error' in check) throw new ApiError(401, check.error, messages[check.error]);
    return check.principal;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: RequestAuth;
  }
}

/**
 * Attaches `request.auth` to every request from its `Authorization: Bearer <token>` header. The
 * lookup runs when a route first asks (public routes never pay for it, and a stale token sent
 * to a public route is not an error there).
 */
export function installBearerAuth(app: FastifyInstance, db: Database): void {
  app.decorateRequest('auth', null as unknown as RequestAuth);
  app.addHook('onRequest', async (request) => {
    request.auth = new RequestAuth(db, request.headers.authorization);
  });
}

export function requireUser(request: FastifyRequest): Promise<Principal> {
  return request.auth.principal();
}

/** SPEC.md §6: the admin flag, or the admin role on any team. */
export async function requireAdmin(request: FastifyRequest): Promise<Principal> {
  const principal = await requireUser(request);
  if (!principal.isAdmin && principal.adminTeamIds.length === 0)
    throw new ApiError(403, 'forbidden', 'Only admins can do this.');
  return principal;
}

/** Admins of the platform owner's own team. */
export async function requirePlatformAdmin(request: FastifyRequest): Promise<Principal> {
  const principal = await requireUser(request);
  if (!principal.isPlatformAdmin)
    throw new ApiError(403, 'forbidden', 'Only platform admins can do this.');
  return principal;
}
