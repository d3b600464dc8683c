import type { Database } from '@locus/db';
import { ApiError } from '../../http/errors';
import { recordWebhookFacts } from '../webhooks/outbox';
import { insertCallers, insertSession, insertSignedInDispatcherToken, insertTokens } from './repo';
import { newToken } from './tokens';

export interface OpenSessionInput {
  teamId?: string | null;
  createdBy?: string | null;
  /**
   * The sign-in (auth session id) of `createdBy` asking for the session: its dispatcher token is
   * then that sign-in's, ended with it, and refused (401) if it was revoked meanwhile. Without
   * it (tests, the benchmark), only the user-wide revocations reach the token.
   */
  authSessionId?: string;
  callers: { phoneNumber: string; language?: 'en' | 'es' | 'fr' | 'zh' }[];
  dispatcherTokenTtlSeconds?: number;
  callerTokenTtlSeconds?: number;
  /**
   * Issue the callers' link tokens now (tests and the benchmark). The tracking flow issues a
   * caller's link only when it texts it (`request-text-message-location`).
   */
  withCallerTokens?: boolean;
  /** An Overwatch watch (issue 14): never rejoined by the dashboard. */
  overwatch?: { groupId: string | null };
  /**
   * Practice mode (issue 14): a rehearsal with a simulated caller. It must have no team (the
   * database refuses one), so no metrics, team admin, transfer or export ever sees it.
   */
  practice?: boolean;
  /** A partner's locate (issue 15): no user opened it (`createdBy` null); this key did. */
  partner?: { keyId: string; externalReference: string | null };
  /** More to write in the transaction that opens it (the partner's idempotency record). */
  inTransaction?: (trx: Database, sessionId: string) => Promise<void>;
}

export interface OpenedSession {
  sessionId: string;
  /** For the dispatcher socket. */
  dispatcherToken: string;
  /** One link token per caller, for the caller socket (none with `withCallerTokens: false`). */
  callers: { callerId: string; phoneNumber: string; token: string }[];
  callerIds: string[];
}

/**
 * Opens a tracking session with its callers and issues the socket tokens, in one transaction.
 * The tracking flow (start-stream, SMS) builds on this; tests and the benchmark call it directly.
 */
export async function openSession(db: Database, input: OpenSessionInput): Promise<OpenedSession> {
  return db.transaction().execute(async (trx) => {
    const sessionId = await insertSession(trx, {
      teamId: input.teamId ?? null,
      createdBy: input.createdBy ?? null,
      ...(input.overwatch ? { overwatch: input.overwatch } : {}),
      ...(input.practice ? { practice: true } : {}),
      ...(input.partner ? { partner: input.partner } : {}),
    });
    const callers = await insertCallers(
      trx,
      sessionId,
      input.callers.map((caller) => ({
        phoneNumber: caller.phoneNumber,
        language: caller.language ?? 'en',
      })),
    );
    await input.inTransaction?.(trx, sessionId);
    // The team's webhooks hear of it (issue 15), in the transaction that opens it.
    if (input.teamId && !input.practice)
      await recordWebhookFacts(trx, [
        {
          teamId: input.teamId,
          event: 'session.started',
          key: sessionId,
          at: new Date(),
          data: {
            sessionId,
            startedBy: input.partner ? 'partner' : 'dispatcher',
            externalReference: input.partner?.externalReference ?? null,
            callers: callers.map((caller) => ({ id: caller.id, phoneNumber: caller.phone_number })),
          },
        },
      ]);
    const dispatcher = newToken();
    const callerTokens =
      input.withCallerTokens === false ? [] : callers.map((caller) => ({ caller, ...newToken() }));
    const dispatcherTtl = input.dispatcherTokenTtlSeconds ?? 12 * 3600;
    const signedIn =
      input.createdBy && input.authSessionId !== undefined
        ? { userId: input.createdBy, authSessionId: input.authSessionId }
        : undefined;
    if (signedIn) {
      const issued = await insertSignedInDispatcherToken(trx, {
        hash: dispatcher.hash,
        sessionId,
        ...signedIn,
        ttlSeconds: dispatcherTtl,
      });
      // Signed out (or idle-expired) since the request was authenticated: nothing is kept.
      if (!issued) throw new ApiError(401, 'unauthorized', 'Sign in to continue.');
    }
    await insertTokens(trx, [
      ...(signedIn
        ? []
        : [
            {
              hash: dispatcher.hash,
              kind: 'dispatcher' as const,
              sessionId,
              callerId: null,
              userId: input.createdBy ?? null,
              ttlSeconds: dispatcherTtl,
            },
          ]),
      ...callerTokens.map(({ caller, hash }) => ({
        hash,
        kind: 'caller' as const,
        sessionId,
        callerId: caller.id,
        userId: null,
        ttlSeconds: input.callerTokenTtlSeconds ?? 24 * 3600,
      })),
    ]);
    return {
      sessionId,
      dispatcherToken: dispatcher.token,
      callerIds: callers.map((caller) => caller.id),
      callers: callerTokens.map(({ caller, token }) => ({
        callerId: caller.id,
        phoneNumber: caller.phone_number,
        token,
      })),
    };
  });
}
