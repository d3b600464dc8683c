import { sessionLifetimes, type AuthToken } from '@locus/contract';
import type { Database } from '@locus/db';
import { insertAuthSession } from '../auth/repo';
import { newToken } from '../sessions/tokens';

/** The client a session was started from, for the user's list of sessions. */
export interface SessionClient {
  ip?: string | undefined;
  userAgent?: string | undefined;
}

/**
 * A new bearer token: 30 days with "Stay signed in", else 12 hours; idle time counts from now.
 * `mfaVerified`: started through sign-in's second step, so it meets a team's MFA requirement.
 */
export async function startAuthSession(
  db: Database,
  session: { userId: string; staySignedIn: boolean; client?: SessionClient; mfaVerified?: boolean },
): Promise<AuthToken> {
  const { token, hash } = newToken();
  const expiresAt = await insertAuthSession(db, {
    hash,
    userId: session.userId,
    staySignedIn: session.staySignedIn,
    ttlSeconds: session.staySignedIn
      ? sessionLifetimes.staySignedInSeconds
      : sessionLifetimes.shortSeconds,
    ...(session.client ? { client: session.client } : {}),
    ...(session.mfaVerified ? { mfaVerified: true } : {}),
  });
  return { token, expiresAt: expiresAt.toISOString() };
}
