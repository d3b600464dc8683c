import type { Database } from '@locus/db';
import { sql } from 'kysely';

export type TokenKind = 'dispatcher' | 'caller';

export interface ConnectionGrant {
  sessionId: string;
  callerId: string | null;
  userId: string | null;
  /** The sign-in that asked for a dispatcher token (null before it was recorded, or none). */
  authSessionId: string | null;
}

export async function insertSession(
  db: Database,
  session: {
    teamId: string | null;
    createdBy: string | null;
    /** An Overwatch watch (issue 14), and the group it was started from. */
    overwatch?: { groupId: string | null };
    /** Practice mode (issue 14): a simulated caller; the session has no team. */
    practice?: boolean;
    /** A partner's locate (issue 15): the key that asked, and the partner's reference. */
    partner?: { keyId: string; externalReference: string | null };
  },
): Promise<string> {
  const row = await db
    .insertInto('tracking_sessions')
    // Whoever opens a session runs it, until a case transfer moves it (`dispatcher_id`).
    .values({
      team_id: session.teamId,
      created_by: session.createdBy,
      dispatcher_id: session.createdBy,
      ...(session.overwatch
        ? { kind: 'overwatch', overwatch_group_id: session.overwatch.groupId }
        : {}),
      ...(session.practice ? { practice: true } : {}),
      ...(session.partner
        ? {
            partner_key_id: session.partner.keyId,
            external_reference: session.partner.externalReference,
          }
        : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertCallers(
  db: Database,
  sessionId: string,
  callers: { phoneNumber: string; language: string }[],
): Promise<{ id: string; phone_number: string }[]> {
  if (callers.length === 0) return [];
  return db
    .insertInto('session_callers')
    .values(
      callers.map((caller) => ({
        session_id: sessionId,
        phone_number: caller.phoneNumber,
        language: caller.language,
      })),
    )
    .returning(['id', 'phone_number'])
    .execute();
}

export async function insertTokens(
  db: Database,
  tokens: {
    hash: Buffer;
    kind: TokenKind;
    sessionId: string;
    callerId: string | null;
    userId: string | null;
    ttlSeconds: number;
  }[],
): Promise<void> {
  if (tokens.length === 0) return;
  await db
    .insertInto('connection_tokens')
    .values(
      tokens.map((token) => ({
        token_hash: token.hash,
        kind: token.kind,
        session_id: token.sessionId,
        caller_id: token.callerId,
        user_id: token.userId,
        expires_at: sql<Date>`now() + make_interval(secs => ${token.ttlSeconds})`,
      })),
    )
    .execute();
}

/** The session a live token opens, or undefined when it is unknown, expired, revoked or ended. */
export async function findGrant(
  db: Database,
  hash: Buffer,
  kind: TokenKind,
): Promise<ConnectionGrant | undefined> {
  const row = await db
    .selectFrom('connection_tokens as t')
    .innerJoin('tracking_sessions as s', 's.id', 't.session_id')
    .select(['t.session_id', 't.caller_id', 't.user_id', 't.auth_session_id'])
    .where('t.token_hash', '=', hash)
    .where('t.kind', '=', kind)
    .where('t.revoked_at', 'is', null)
    .where('t.expires_at', '>', sql<Date>`now()`)
    .where('s.status', '=', 'active')
    .executeTakeFirst();
  return row
    ? {
        sessionId: row.session_id,
        callerId: row.caller_id,
        userId: row.user_id,
        authSessionId: row.auth_session_id,
      }
    : undefined;
}

export type TokenState = 'live' | 'ended' | 'revoked' | 'expired';

/**
 * Whether each token still opens its session: `live`, `ended` (the session ended), `revoked`
 * (revoked, or unknown) or `expired`, by token hash (hex). Asked once more just after a socket
 * was accepted, because a revocation announced between the first check and the socket being
 * listed reached no one; and for every socket after a lost subscription.
 */
export async function tokenStates(
  db: Database,
  hashes: Buffer[],
): Promise<Map<string, TokenState>> {
  const states = new Map<string, TokenState>();
  for (let from = 0; from < hashes.length; from += TOKENS_PER_QUERY) {
    const rows = await db
      .selectFrom('connection_tokens as t')
      .innerJoin('tracking_sessions as s', 's.id', 't.session_id')
      .select([
        't.token_hash',
        's.status',
        sql<boolean>`t.revoked_at is not null`.as('revoked'),
        sql<boolean>`t.expires_at <= now()`.as('expired'),
      ])
      .where('t.token_hash', 'in', hashes.slice(from, from + TOKENS_PER_QUERY))
      .execute();
    for (const row of rows) {
      const state: TokenState = row.revoked
        ? 'revoked'
        : row.status !== 'active'
          ? 'ended'
          : row.expired
            ? 'expired'
            : 'live';
      states.set(row.token_hash.toString('hex'), state);
    }
  }
  for (const hash of hashes) {
    if (!states.has(hash.toString('hex'))) states.set(hash.toString('hex'), 'revoked');
  }
  return states;
}

/** Bounded, so that thousands of sockets never make one statement with too many parameters. */
const TOKENS_PER_QUERY = 1_000;

/**
 * Issues a dispatcher socket token for a signed-in user's auth session, only while that session
 * is not revoked: returns false (and issues nothing) once it is. The session's row is locked for
 * share until the transaction ends, so a sign-out revoking it waits for the token to be
 * committed, and its revocation of the session's tokens that follows then finds this one too.
 */
export async function insertSignedInDispatcherToken(
  db: Database,
  token: {
    hash: Buffer;
    sessionId: string;
    userId: string;
    authSessionId: string;
    ttlSeconds: number;
  },
): Promise<boolean> {
  const result = await db
    .insertInto('connection_tokens')
    .columns(['token_hash', 'kind', 'session_id', 'user_id', 'auth_session_id', 'expires_at'])
    .expression(
      db
        .selectFrom('auth_sessions')
        .select([
          sql<Buffer>`${token.hash}::bytea`.as('token_hash'),
          sql<string>`'dispatcher'`.as('kind'),
          sql<string>`${token.sessionId}::uuid`.as('session_id'),
          sql<string>`${token.userId}::uuid`.as('user_id'),
          'id',
          sql<Date>`now() + make_interval(secs => ${token.ttlSeconds})`.as('expires_at'),
        ])
        .where('id', '=', token.authSessionId)
        .where('user_id', '=', token.userId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', sql<Date>`now()`)
        .forShare(),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/**
 * Whose dispatcher tokens a revocation ends: one auth session's (its sign-out, its idle expiry),
 * every one but the current session's ("sign out other sessions"), or all of them (a password
 * change, a removal). Tokens without an auth session are reached by the last two only.
 */
export type RevocationScope =
  { authSessionId: string } | { exceptAuthSessionId: string } | { everySession: true };

/** Revokes the user's dispatcher socket tokens in `scope` that still work; returns how many. */
export async function revokeDispatcherTokens(
  db: Database,
  userId: string,
  scope: RevocationScope,
): Promise<number> {
  let query = db
    .updateTable('connection_tokens')
    .set({ revoked_at: sql<Date>`now()` })
    .where('user_id', '=', userId)
    .where('kind', '=', 'dispatcher')
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`);
  if ('authSessionId' in scope) query = query.where('auth_session_id', '=', scope.authSessionId);
  else if ('exceptAuthSessionId' in scope)
    query = query.where((eb) =>
      eb.or([
        eb('auth_session_id', 'is', null),
        eb('auth_session_id', '!=', scope.exceptAuthSessionId),
      ]),
    );
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function expireToken(db: Database, hash: Buffer): Promise<void> {
  await db
    .updateTable('connection_tokens')
    .set({ expires_at: sql<Date>`now()` })
    .where('token_hash', '=', hash)
    .execute();
}

/**
 * How long a caller counts as connected without a renewal: three renewal periods of
 * `realtime/caller-presence.ts`, so one missed renewal (a slow query, a GC pause) changes nothing,
 * and an instance that died without closing its sockets is forgotten within this time.
 */
export const presenceLeaseSeconds = 45;
const presenceLease = () => sql<Date>`now() + make_interval(secs => ${presenceLeaseSeconds})`;

/** Renews the presence of the callers whose sockets this instance holds: one statement. */
export async function renewCallerPresence(db: Database, callerIds: string[]): Promise<void> {
  if (callerIds.length === 0) return;
  await db
    .updateTable('session_callers')
    .set({ connected_until: presenceLease() })
    // One array parameter, however many callers (an `in` list stops at 65,535 parameters).
    .where('id', '=', sql<string>`any(${callerIds}::uuid[])`)
    .execute();
}

/**
 * A caller's socket opened: the link counts as opened (its first-open deadline gives way to its
 * hard cap) and the caller as connected, which keeps the session resumable (SPEC.md §9).
 */
export async function callerSocketOpened(
  db: Database,
  hash: Buffer,
  callerId: string,
): Promise<void> {
  await db
    .updateTable('connection_tokens')
    .set({ expires_at: sql<Date>`hard_expires_at` })
    .where('token_hash', '=', hash)
    .where('hard_expires_at', 'is not', null)
    .where('expires_at', '<', sql<Date>`hard_expires_at`)
    .execute();
  await db
    .updateTable('session_callers')
    .set({
      connected_until: presenceLease(),
      link_opened_at: sql<Date>`coalesce(link_opened_at, now())`,
    })
    .where('id', '=', callerId)
    .execute();
}

/**
 * A caller's socket closed. `lastHere` (this instance holds no other socket of the caller) ends
 * the presence lease at once; a socket of the same caller on another instance renews it within
 * one renewal period, and the session's activity time keeps it resumable meanwhile.
 */
export async function callerSocketClosed(
  db: Database,
  sessionId: string,
  callerId: string,
  lastHere: boolean,
): Promise<void> {
  if (lastHere)
    await db
      .updateTable('session_callers')
      .set({ connected_until: sql<Date>`now()` })
      .where('id', '=', callerId)
      .execute();
  await db
    .updateTable('tracking_sessions')
    .set({ last_active_at: sql<Date>`now()` })
    .where('id', '=', sessionId)
    .execute();
}

export async function isSessionActive(db: Database, sessionId: string): Promise<boolean> {
  const row = await db
    .selectFrom('tracking_sessions')
    .select('status')
    .where('id', '=', sessionId)
    .executeTakeFirst();
  return row?.status === 'active';
}
