import type { CaseTransferStatus } from '@locus/contract';
import type { Database } from '@locus/db';
import type { PersistedCaseTransfer } from '@locus/machines';
import { sql } from 'kysely';

/** A session as a transfer needs it: its team, its dispatcher now, and its first caller. */
export interface TransferSession {
  id: string;
  teamId: string | null;
  dispatcherId: string | null;
  status: string;
  /** The number the session was opened for, and its caller. */
  phoneNumber: string;
  callerId: string;
}

export async function findTransferSession(
  db: Database,
  sessionId: string,
): Promise<TransferSession | undefined> {
  const row = await db
    .selectFrom('tracking_sessions as s')
    .innerJoin('session_callers as c', 'c.session_id', 's.id')
    .select([
      's.id',
      's.team_id',
      's.dispatcher_id',
      's.status',
      'c.id as caller_id',
      'c.phone_number',
    ])
    .where('s.id', '=', sessionId)
    .orderBy('c.created_at')
    .limit(1)
    .executeTakeFirst();
  return row
    ? {
        id: row.id,
        teamId: row.team_id,
        dispatcherId: row.dispatcher_id,
        status: row.status,
        phoneNumber: row.phone_number,
        callerId: row.caller_id,
      }
    : undefined;
}

/**
 * The session's dispatcher and status, its row locked until the transaction ends: an offer
 * re-checks ownership under it, so an accept committing meanwhile cannot let a former owner offer.
 */
export async function lockSessionOwner(
  db: Database,
  sessionId: string,
): Promise<{ dispatcherId: string | null; status: string } | undefined> {
  const row = await db
    .selectFrom('tracking_sessions')
    .select(['dispatcher_id', 'status'])
    .where('id', '=', sessionId)
    .forUpdate()
    .executeTakeFirst();
  return row ? { dispatcherId: row.dispatcher_id, status: row.status } : undefined;
}

/** A user as a colleague to hand a case to: confirmed, and on which active teams. */
export async function findColleague(
  db: Database,
  userId: string,
  teamId: string,
): Promise<{ confirmed: boolean; onTeam: boolean } | undefined> {
  const row = await db
    .selectFrom('users as u')
    .select([
      sql<boolean>`u.email_confirmed_at is not null`.as('confirmed'),
      (eb) =>
        eb
          .exists(
            eb
              .selectFrom('team_members as m')
              .innerJoin('teams as t', 't.id', 'm.team_id')
              .select('m.user_id')
              .whereRef('m.user_id', '=', 'u.id')
              .where('m.team_id', '=', teamId)
              .where('t.is_active', '=', true),
          )
          .as('on_team'),
    ])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  return row ? { confirmed: row.confirmed, onTeam: Boolean(row.on_team) } : undefined;
}

/** Every confirmed member of a team (active team), with how many running sessions each has. */
export async function teamColleagues(db: Database, teamId: string) {
  return db
    .selectFrom('team_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .innerJoin('teams as t', 't.id', 'm.team_id')
    .select([
      'u.id',
      'u.first_name',
      'u.last_name',
      (eb) =>
        eb
          .selectFrom('tracking_sessions as s')
          .select(sql<string>`count(*)`.as('n'))
          .whereRef('s.dispatcher_id', '=', 'u.id')
          .where('s.status', '=', 'active')
          .as('active_cases'),
    ])
    .where('m.team_id', '=', teamId)
    .where('t.is_active', '=', true)
    .where('u.email_confirmed_at', 'is not', null)
    .orderBy('u.last_name')
    .orderBy('u.first_name')
    .execute();
}

export interface TransferRow {
  id: string;
  sessionId: string;
  teamId: string;
  fromUserId: string;
  toUserId: string;
  status: CaseTransferStatus;
  snapshot: PersistedCaseTransfer;
  joinTokenHash: Buffer | null;
}

const transferColumns = [
  'id',
  'session_id',
  'team_id',
  'from_user_id',
  'to_user_id',
  'status',
  'machine_snapshot',
  'join_token_hash',
] as const;

function toRow(row: {
  id: string;
  session_id: string;
  team_id: string;
  from_user_id: string;
  to_user_id: string;
  status: string;
  machine_snapshot: unknown;
  join_token_hash: Buffer | null;
}): TransferRow {
  return {
    id: row.id,
    sessionId: row.session_id,
    teamId: row.team_id,
    fromUserId: row.from_user_id,
    toUserId: row.to_user_id,
    status: row.status as CaseTransferStatus,
    snapshot: row.machine_snapshot as PersistedCaseTransfer,
    joinTokenHash: row.join_token_hash,
  };
}

export async function insertTransfer(
  db: Database,
  transfer: {
    sessionId: string;
    teamId: string;
    fromUserId: string;
    toUserId: string;
    snapshot: PersistedCaseTransfer;
    offeredAt: Date;
    expiresAt: Date;
  },
): Promise<string | undefined> {
  const row = await db
    .insertInto('case_transfers')
    .values({
      session_id: transfer.sessionId,
      team_id: transfer.teamId,
      from_user_id: transfer.fromUserId,
      to_user_id: transfer.toUserId,
      status: 'offered',
      machine_snapshot: JSON.stringify(transfer.snapshot),
      offered_at: transfer.offeredAt,
      expires_at: transfer.expiresAt,
    })
    // The partial unique index: a second pending offer of the session is not written.
    .onConflict((oc) => oc.column('session_id').where('status', '=', 'offered').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/** The transfer, its row locked until the transaction ends (every state change holds it). */
export async function lockTransfer(db: Database, id: string): Promise<TransferRow | undefined> {
  const row = await db
    .selectFrom('case_transfers')
    .select([...transferColumns])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  return row ? toRow(row) : undefined;
}

/** The session's pending transfer, locked. */
export async function lockPendingOfSession(
  db: Database,
  sessionId: string,
): Promise<TransferRow | undefined> {
  const row = await db
    .selectFrom('case_transfers')
    .select([...transferColumns])
    .where('session_id', '=', sessionId)
    .where('status', '=', 'offered')
    .forUpdate()
    .executeTakeFirst();
  return row ? toRow(row) : undefined;
}

export async function findTransfer(db: Database, id: string): Promise<TransferRow | undefined> {
  const row = await db
    .selectFrom('case_transfers')
    .select([...transferColumns])
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toRow(row) : undefined;
}

/** Offers whose time is up, locked; one another instance holds is skipped (it expires them). */
export async function lockDueOffers(db: Database, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('case_transfers')
    .select('id')
    .where('status', '=', 'offered')
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
  return rows.map((row) => row.id);
}

/** The newest transfer of a session, whatever its status. */
export async function newestTransferId(
  db: Database,
  sessionId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('case_transfers')
    .select('id')
    .where('session_id', '=', sessionId)
    .orderBy('offered_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}

/** The pending offers to a user. */
export async function pendingOfferIds(db: Database, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('case_transfers')
    .select('id')
    .where('to_user_id', '=', userId)
    .where('status', '=', 'offered')
    .orderBy('offered_at')
    .execute();
  return rows.map((row) => row.id);
}

export async function saveStep(
  db: Database,
  id: string,
  step: { status: CaseTransferStatus; snapshot: PersistedCaseTransfer; decidedAt: Date | null },
): Promise<void> {
  await db
    .updateTable('case_transfers')
    .set({
      status: step.status,
      machine_snapshot: JSON.stringify(step.snapshot),
      decided_at: step.decidedAt,
    })
    .where('id', '=', id)
    .execute();
}

export async function setJoinTokenHash(db: Database, id: string, hash: Buffer): Promise<void> {
  await db
    .updateTable('case_transfers')
    .set({ join_token_hash: hash })
    .where('id', '=', id)
    .execute();
}

/** The session's dispatcher now; only while it runs (false once it has ended). */
export async function moveSession(
  db: Database,
  sessionId: string,
  fromUserId: string,
  toUserId: string,
): Promise<boolean> {
  // Only from the dispatcher who offered it: a session that changed hands since is not moved.
  const result = await db
    .updateTable('tracking_sessions')
    .set({ dispatcher_id: toUserId, last_active_at: sql<Date>`now()` })
    .where('id', '=', sessionId)
    .where('status', '=', 'active')
    .where('dispatcher_id', '=', fromUserId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The first dispatcher's tokens for the session stop working: they cannot rejoin it. */
export async function revokeSessionTokensOf(
  db: Database,
  sessionId: string,
  userId: string,
): Promise<void> {
  await db
    .updateTable('connection_tokens')
    .set({ revoked_at: sql<Date>`now()` })
    .where('session_id', '=', sessionId)
    .where('user_id', '=', userId)
    .where('kind', '=', 'dispatcher')
    .where('revoked_at', 'is', null)
    .execute();
}

/** A transfer as both dispatchers see it (the contract's `CaseTransfer`), by id. */
export async function transferView(db: Database, id: string) {
  return db
    .selectFrom('case_transfers as t')
    .innerJoin('users as f', 'f.id', 't.from_user_id')
    .innerJoin('users as o', 'o.id', 't.to_user_id')
    .select([
      't.id',
      't.session_id',
      't.status',
      't.offered_at',
      't.expires_at',
      't.decided_at',
      't.from_user_id',
      't.to_user_id',
      'f.first_name as from_first',
      'f.last_name as from_last',
      'o.first_name as to_first',
      'o.last_name as to_last',
      (eb) =>
        eb
          .selectFrom('session_callers as c')
          .select('c.phone_number')
          .whereRef('c.session_id', '=', 't.session_id')
          .orderBy('c.created_at')
          .limit(1)
          .as('phone_number'),
    ])
    .where('t.id', '=', id)
    .executeTakeFirst();
}

/** What the colleague needs to open a session they accepted (the contract's `ActiveSession`). */
export async function sessionSummary(db: Database, sessionId: string) {
  return db
    .selectFrom('tracking_sessions')
    .select(['id', 'created_at', 'location_type', 'status'])
    .where('id', '=', sessionId)
    .executeTakeFirst();
}
