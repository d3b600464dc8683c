import type { SessionPolicy } from '@locus/contract';
import type { Database } from '@locus/db';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors';
import { recordAudit } from '../audit/repo';
import {
  idleDefaults,
  idlePolicy,
  serverIdleLimitSeconds,
  type IdleDefaults,
} from '../auth-sessions/policy';
import { revokeDispatcherTokens, type RevocationScope } from '../sessions/repo';
import type { RealtimeRevocationReason } from '../sessions/revocation';
import { hashToken, looksLikeToken } from '../sessions/tokens';
import {
  findAuthSession,
  findPrincipal,
  recordSessionActivity,
  revokeAuthSession,
  touchAuthSession,
} from './repo';

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
  /** The auth session's public id (the profile's list of sessions). */
  sessionId: string;
  /** An authenticator app is enrolled, or a passkey registered. */
  mfaEnabled: boolean;
  /** A team of the user requires multi-factor authentication. */
  mfaRequiredByTeam: boolean;
  /** This session was started through sign-in's second step (or enrolled the first factor). */
  mfaVerified: boolean;
  /** The idle timeout that applies to this user. */
  sessionPolicy: SessionPolicy;
}

export type TokenCheck = { principal: Principal } | { error: 'unauthorized' | 'session-expired' };

/** Ends a user's socket tokens in scope and closes their sockets (`revokeUserRealtimeAccess`). */
export type RealtimeRevoker = (
  userId: string,
  scope: RevocationScope,
  reason: RealtimeRevocationReason,
) => Promise<number>;

export interface TokenCheckOptions {
  idle?: IdleDefaults;
  /** The request is the user acting (not a read a page may repeat on its own): not idle. */
  activity?: boolean;
  /**
   * Ends an idle-expired session's socket tokens and sockets on every instance. Without it, the
   * tokens are revoked in Postgres only (no new socket opens with them; open ones stay).
   */
  revokeRealtime?: RealtimeRevoker;
}

/** Resolves a session token (bearer or queue-board cookie) to its user. */
export async function checkToken(
  db: Database,
  token: string,
  options: TokenCheckOptions = {},
): Promise<TokenCheck> {
  if (!looksLikeToken(token)) return { error: 'unauthorized' };
  const hash = hashToken(token);
  const session = await findAuthSession(db, hash);
  if (!session || session.revoked) return { error: 'unauthorized' };
  if (session.expired) return { error: 'session-expired' };
  const found = await findPrincipal(db, session.user_id);
  if (!found) return { error: 'unauthorized' };
  const { user, teams } = found;
  const sessionPolicy = idlePolicy(
    options.idle ?? idleDefaults,
    teams.map((team) => team.idle_timeout_minutes),
  );
  // CJIS 5.5.5: the console signs out an idle user; this is the backstop for any other client.
  if (session.idle_seconds > serverIdleLimitSeconds(sessionPolicy)) {
    await revokeAuthSession(db, hash);
    // With the socket tokens this session was issued, and the sockets opened with them.
    const scope = { authSessionId: session.id };
    const socketTokensRevoked = options.revokeRealtime
      ? await options.revokeRealtime(session.user_id, scope, 'idle-timeout')
      : await revokeDispatcherTokens(db, session.user_id, scope);
    await recordAudit(db, {
      actorUserId: null,
      action: 'session.revoked',
      subject: session.user_id,
      detail: {
        reason: 'idle',
        sessionId: session.id,
        idleSeconds: Math.round(session.idle_seconds),
        socketTokensRevoked,
      },
    });
    return { error: 'session-expired' };
  }
  if (options.activity) await recordSessionActivity(db, hash);
  // Recorded at most every few minutes: a session is not a write per request.
  else if (session.stale_use) await touchAuthSession(db, hash);
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
      sessionId: session.id,
      mfaEnabled: Boolean(user.has_mfa),
      mfaRequiredByTeam: teams.some((team) => team.require_mfa),
      mfaVerified: session.mfa_verified,
      sessionPolicy,
    },
  };
}

const messages = {
  unauthorized: 'Sign in to continue.',
  'session-expired': 'Your session has expired. Sign in again.',
} as const;

/** Reads never count as the user's activity: a page polling on its own must not stay signed in. */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The request's bearer token, resolved at most once and only when a route asks who is calling. */
export class RequestAuth {
  private resolved: Promise<Principal> | undefined;

  constructor(
    private readonly db: Database,
    private readonly header: string | undefined,
    private readonly options: TokenCheckOptions = {},
  ) {}

  /** The signed-in user, or a 401 `unauthorized` / `session-expired`. */
  principal(): Promise<Principal> {
    this.resolved ??= this.resolve();
    return this.resolved;
  }

  private async resolve(): Promise<Principal> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(this.header ?? '');
    if (!match?.[1]) throw new ApiError(401, 'unauthorized', messages.unauthorized);
    const check = await checkToken(this.db, match[1], this.options);
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
 * to a public route is not an error there). Any request that is not a read counts as the user's
 * activity for the idle timeout.
 */
export function installBearerAuth(
  app: FastifyInstance,
  db: Database,
  idle: IdleDefaults = idleDefaults,
  revokeRealtime?: RealtimeRevoker,
): void {
  app.decorateRequest('auth', null as unknown as RequestAuth);
  app.addHook('onRequest', async (request) => {
    request.auth = new RequestAuth(db, request.headers.authorization, {
      idle,
      activity: !READ_METHODS.has(request.method),
      ...(revokeRealtime ? { revokeRealtime } : {}),
    });
  });
}

/**
 * What a user whose team requires multi-factor authentication may still do before enrolling:
 * see who they are, enrol, manage their sessions, sign out.
 */
const reachableWithoutMfa = new Set<string>([
  '/api/v1/auth/current-user',
  '/api/v1/auth/sign-out',
  '/api/v1/users/:id/teams',
  '/api/v1/auth/mfa',
  '/api/v1/auth/mfa/totp',
  '/api/v1/auth/mfa/totp/confirm',
  '/api/v1/auth/mfa/passkeys',
  '/api/v1/auth/mfa/passkeys/options',
  '/api/v1/auth/sessions',
  '/api/v1/auth/sessions/sign-out-others',
  '/api/v1/auth/sessions/policy',
  '/api/v1/auth/sessions/activity',
]);

/**
 * 403 `mfa-required` when a team of the user requires a second factor and this session did not
 * pass one: the requirement is about the session, so a password-only session started before the
 * user enrolled does not count once they have.
 */
export function assertMfaSatisfied(principal: Principal): void {
  if (principal.mfaRequiredByTeam && !principal.mfaVerified) {
    throw new ApiError(
      403,
      'mfa-required',
      principal.mfaEnabled
        ? 'Your team requires two-step sign-in. Sign in again with your second step.'
        : 'Your team requires two-step sign-in. Set up an authenticator app or a passkey in your profile first.',
    );
  }
}

/** The signed-in user; everything but enrolment waits until a team's MFA requirement is met. */
export async function requireUser(request: FastifyRequest): Promise<Principal> {
  const principal = await request.auth.principal();
  if (!reachableWithoutMfa.has(request.routeOptions.url ?? '')) assertMfaSatisfied(principal);
  return principal;
}

/**
 * SPEC.md §6 for one team: a platform admin, the team's admin, or a user with the admin flag who
 * is on the team.
 */
export function administersTeam(principal: Principal, teamId: string): boolean {
  return (
    principal.isPlatformAdmin ||
    principal.adminTeamIds.includes(teamId) ||
    (principal.isAdmin && principal.teamIds.includes(teamId))
  );
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
