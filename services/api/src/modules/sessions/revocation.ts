import type { Database } from '@locus/db';
import type { Redis } from 'ioredis';
import type { ApiConfig } from '../../config';
import { SessionKeys } from '../realtime/sequencer';
import { revokeDispatcherTokens, type RevocationScope } from './repo';

/** Why a user's realtime access ended; the console is told in words (`revocationMessages`). */
export type RealtimeRevocationReason =
  'signed-out' | 'password-changed' | 'account-removed' | 'sessions-revoked' | 'idle-timeout';

export const revocationMessages: Record<RealtimeRevocationReason, string> = {
  'signed-out': 'You signed out, so this connection has ended.',
  'password-changed': 'Your password was changed; sign in again.',
  'account-removed': 'Your account was removed.',
  'sessions-revoked': 'Your sessions were signed out.',
  'idle-timeout': 'You were signed out after a period of inactivity.',
};

/**
 * What travels on the `control:users-revoked` channel (between our own instances): whose
 * dispatcher sockets to close, by the auth session their tokens were issued to.
 */
export interface UserRevoked {
  userId: string;
  reason: RealtimeRevocationReason;
  scope: RevocationScope;
}

/** A message from the channel, or undefined for one that is not ours to act on. */
export function parseUserRevoked(message: string): UserRevoked | undefined {
  try {
    const { userId, reason, scope } = JSON.parse(message) as Partial<
      Record<keyof UserRevoked, unknown>
    >;
    if (
      typeof userId !== 'string' ||
      typeof reason !== 'string' ||
      !Object.hasOwn(revocationMessages, reason)
    )
      return undefined;
    // From an instance not yet updated (a rolling deploy): its revocations were user-wide.
    const parsed = scope === undefined ? { everySession: true as const } : parseScope(scope);
    return parsed
      ? { userId, reason: reason as RealtimeRevocationReason, scope: parsed }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Also on `control:users-revoked`: a case was transferred away from `userId`, whose dispatcher
 * sockets for that session close with 4412 (`transferred`) on every instance, even one that never
 * receives the `case-transfer` frame. Its tokens for the session were revoked with the accept.
 * It has no `reason`, so `parseUserRevoked` ignores it (the user's consoles stay open).
 */
export interface SessionTransferred {
  kind: 'session-transferred';
  sessionId: string;
  userId: string;
}

export function parseSessionTransferred(message: string): SessionTransferred | undefined {
  try {
    const { kind, sessionId, userId } = JSON.parse(message) as Record<string, unknown>;
    return kind === 'session-transferred' &&
      typeof sessionId === 'string' &&
      typeof userId === 'string'
      ? { kind, sessionId, userId }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Tells every instance to close `userId`'s dispatcher sockets for the transferred session. */
export async function announceSessionTransferred(
  deps: Pick<RevocationDeps, 'redis' | 'config'>,
  sessionId: string,
  userId: string,
): Promise<void> {
  const message: SessionTransferred = { kind: 'session-transferred', sessionId, userId };
  await deps.redis.publish(
    new SessionKeys(deps.config.REDIS_KEY_PREFIX).usersRevoked(),
    JSON.stringify(message),
  );
}

function parseScope(scope: unknown): RevocationScope | undefined {
  if (typeof scope !== 'object' || scope === null) return undefined;
  const fields = scope as Record<string, unknown>;
  if (typeof fields.authSessionId === 'string') return { authSessionId: fields.authSessionId };
  if (typeof fields.exceptAuthSessionId === 'string')
    return { exceptAuthSessionId: fields.exceptAuthSessionId };
  if (fields.everySession === true) return { everySession: true };
  return undefined;
}

/** Whether a socket whose token was issued to `authSessionId` (null: unrecorded) is in scope. */
export function inScope(scope: RevocationScope, authSessionId: string | null): boolean {
  if ('authSessionId' in scope) return authSessionId === scope.authSessionId;
  if ('exceptAuthSessionId' in scope) return authSessionId !== scope.exceptAuthSessionId;
  return true;
}

export interface RevocationDeps {
  db: Database;
  redis: Redis;
  config: Pick<ApiConfig, 'REDIS_KEY_PREFIX'>;
}

/**
 * Ends what a user holds in realtime within `scope`, at once, on every instance: the dispatcher
 * socket tokens (start-stream, rejoin) issued to the auth sessions in scope are revoked in
 * Postgres, so no socket opens with them again, and every instance is told to close the user's
 * open dispatcher sockets opened with them (close 4401, reason `revoked`). A sign-out and an
 * idle expiry end that console's (`{ authSessionId }`), "sign out other sessions" every other
 * one's (`{ exceptAuthSessionId }`), a password change or a removal all (`{ everySession }`).
 * Called after the auth sessions' own revocation has committed: a token being issued meanwhile
 * holds its auth session's row, so it is committed before, and revoked here; an instance
 * re-checks a new socket's token once it is listed, and must then see it revoked. Returns how
 * many tokens were revoked.
 */
export async function revokeUserRealtimeAccess(
  deps: RevocationDeps,
  userId: string,
  scope: RevocationScope,
  reason: RealtimeRevocationReason,
): Promise<number> {
  const revoked = await revokeDispatcherTokens(deps.db, userId, scope);
  const message: UserRevoked = { userId, reason, scope };
  await deps.redis.publish(
    new SessionKeys(deps.config.REDIS_KEY_PREFIX).usersRevoked(),
    JSON.stringify(message),
  );
  return revoked;
}
