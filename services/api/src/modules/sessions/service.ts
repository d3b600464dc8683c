import type { Database } from '@locus/db';
import { insertCallers, insertSession, insertTokens } from './repo';
import { newToken } from './tokens';

export interface OpenSessionInput {
  teamId?: string | null;
  createdBy?: string | null;
  callers: { phoneNumber: string; language?: 'en' | 'es' | 'fr' | 'zh' }[];
  dispatcherTokenTtlSeconds?: number;
  callerTokenTtlSeconds?: number;
  /**
   * Issue the callers' link tokens now (tests and the benchmark). The tracking flow issues a
   * caller's link only when it texts it (`request-text-message-location`).
   */
  withCallerTokens?: boolean;
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
    });
    const callers = await insertCallers(
      trx,
      sessionId,
      input.callers.map((caller) => ({
        phoneNumber: caller.phoneNumber,
        language: caller.language ?? 'en',
      })),
    );
    const dispatcher = newToken();
    const callerTokens =
      input.withCallerTokens === false ? [] : callers.map((caller) => ({ caller, ...newToken() }));
    await insertTokens(trx, [
      {
        hash: dispatcher.hash,
        kind: 'dispatcher',
        sessionId,
        callerId: null,
        userId: input.createdBy ?? null,
        ttlSeconds: input.dispatcherTokenTtlSeconds ?? 12 * 3600,
      },
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
