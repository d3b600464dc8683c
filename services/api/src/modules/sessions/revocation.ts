import type { Database } from '@locus/db';
import type { Redis } from 'ioredis';
import type { ApiConfig } from '../../config';
import { SessionKeys } from '../realtime/sequencer';
import { revokeDispatcherTokens } from './repo';

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

/** What travels on the `control:users-revoked` channel (between our own instances). */
export interface UserRevoked {
  userId: string;
  reason: RealtimeRevocationReason;
}

/** A message from the channel, or undefined for one that is not ours to act on. */
export function parseUserRevoked(message: string): UserRevoked | undefined {
  try {
    const { userId, reason } = JSON.parse(message) as Partial<Record<keyof UserRevoked, unknown>>;
    if (
      typeof userId !== 'string' ||
      typeof reason !== 'string' ||
      !Object.hasOwn(revocationMessages, reason)
    )
      return undefined;
    return { userId, reason: reason as RealtimeRevocationReason };
  } catch {
    return undefined;
  }
}

export interface RevocationDeps {
  db: Database;
  redis: Redis;
  config: Pick<ApiConfig, 'REDIS_KEY_PREFIX'>;
}

/**
 * Ends everything realtime a user holds, at once, on every instance: every dispatcher socket
 * token issued to them (start-stream, rejoin) is revoked in Postgres, so no socket opens with it
 * again, and every instance is told to close the user's open dispatcher sockets (close 4401,
 * reason `revoked`). Sign-out, a password change and a removal call it, after their own
 * transaction has committed: an instance re-checks a new socket's token once it is listed, and
 * must then see it revoked. Returns how many tokens were revoked.
 *
 * A token is the user's, not one console's: signing out of one console closes the user's
 * sockets on every console (another signed-in console rejoins with a fresh token).
 */
export async function revokeUserRealtimeAccess(
  deps: RevocationDeps,
  userId: string,
  reason: RealtimeRevocationReason,
): Promise<number> {
  const revoked = await revokeDispatcherTokens(deps.db, userId);
  const message: UserRevoked = { userId, reason };
  await deps.redis.publish(
    new SessionKeys(deps.config.REDIS_KEY_PREFIX).usersRevoked(),
    JSON.stringify(message),
  );
  return revoked;
}
