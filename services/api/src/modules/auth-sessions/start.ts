import { sessionLifetimes, type AuthToken } from '@locus/contract';
import type { Database } from '@locus/db';
import { primaryTeamOf, recordAudit } from '../audit/repo';
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
 * Every successful sign-in (password, code or passkey) ends here, so here it is audited
 * (`sign-in`, on the user's team's trail).
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
  await recordAudit(db, {
    actorUserId: session.userId,
    action: 'sign-in',
    subject: session.userId,
    detail: { secondFactor: session.mfaVerified === true, staySignedIn: session.staySignedIn },
    teamId: await primaryTeamOf(db, session.userId),
    ip: session.client?.ip ?? null,
  });
  return { token, expiresAt: expiresAt.toISOString() };
}
