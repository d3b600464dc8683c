import type {
  ActiveSession,
  CaseTransfer,
  CaseTransferStatus,
  Location,
  TransferCandidate,
} from '@locus/contract';
import type { Database } from '@locus/db';
import {
  offerCaseTransfer,
  stepCaseTransfer,
  type CaseTransferEvent,
} from '@locus/machines/case-transfer';
import { ApiError } from '../../http/errors';
import type { AppDeps } from '../../platform/deps';
import { recordAudit, type AuditEntry } from '../audit/repo';
import type { Principal } from '../auth/guard';
import { requireLocatingAllowed } from '../location/access';
import { findCallers, findLatestFix } from '../location/repo';
import type { RealtimeContext } from '../realtime/context';
import { frame } from '../realtime/frames';
import { publishSessionEvent } from '../realtime/session-publisher';
import { insertSignedInDispatcherToken } from '../sessions/repo';
import { announceSessionTransferred } from '../sessions/revocation';
import { hashToken, newToken } from '../sessions/tokens';
import type { ConsoleUsers } from './console-users';
import {
  findColleague,
  findTransfer,
  findTransferSession,
  insertTransfer,
  lockDueOffers,
  lockPendingOfSession,
  lockSessionOwner,
  lockTransfer,
  moveSession,
  newestTransferId,
  pendingOfferIds,
  revokeSessionTokensOf,
  saveStep,
  sessionSummary,
  setJoinTokenHash,
  teamColleagues,
  transferView,
  type TransferRow,
  type TransferSession,
} from './repo';

export interface CaseTransferDeps extends AppDeps {
  realtime: RealtimeContext;
  consoleUsers: ConsoleUsers;
}

const notFound = () => new ApiError(404, 'not-found', 'There is no such tracking session.');
const noTransfer = () => new ApiError(404, 'not-found', 'There is no such case transfer.');

/** The audit action of each state a transfer can end in. */
const auditAction = {
  accepted: 'case-transfer.accepted',
  denied: 'case-transfer.denied',
  cancelled: 'case-transfer.cancelled',
  expired: 'case-transfer.expired',
} as const satisfies Record<Exclude<CaseTransferStatus, 'offered'>, AuditEntry['action']>;

/**
 * The session, for a member of its team; 404 for anyone else (another team's session is
 * indistinguishable from one that does not exist), and for a `phone` that is not its number.
 */
async function teamSession(
  deps: CaseTransferDeps,
  principal: Principal,
  sessionId: string,
  phone?: string,
): Promise<TransferSession> {
  const session = await findTransferSession(deps.db, sessionId);
  if (!session?.teamId || !principal.teamIds.includes(session.teamId)) throw notFound();
  if (phone !== undefined && phone !== session.phoneNumber) throw notFound();
  return session;
}

/** A transfer of the session, for one of its two dispatchers; 404 for anyone else. */
async function ownTransfer(
  deps: CaseTransferDeps,
  principal: Principal,
  transferId: string,
  phone: string,
): Promise<{ transfer: TransferRow; session: TransferSession }> {
  const transfer = await findTransfer(deps.db, transferId);
  if (
    !transfer ||
    (transfer.fromUserId !== principal.userId && transfer.toUserId !== principal.userId)
  )
    throw noTransfer();
  const session = await teamSession(deps, principal, transfer.sessionId, phone).catch(() => {
    throw noTransfer();
  });
  return { transfer, session };
}

function refused(event: CaseTransferEvent['type'], state: CaseTransferStatus): ApiError {
  const what = { ACCEPT: 'accepted', DENY: 'denied', CANCEL: 'cancelled', EXPIRE: 'expired' }[
    event
  ];
  return new ApiError(
    409,
    'conflict',
    state === 'offered'
      ? `This transfer cannot be ${what} by you; nothing changed.`
      : `This transfer is ${state}: it cannot be ${what}; nothing changed.`,
  );
}

/**
 * One machine event on a locked transfer: refused (409, nothing stored) when the machine does
 * not take it; otherwise the new snapshot and status are stored with an audit row. Returns the
 * state the machine went to (`expired` for an answer that came too late).
 */
async function step(
  trx: Database,
  transfer: TransferRow,
  event: CaseTransferEvent,
  audit: { actorUserId: string | null; ip: string | null },
): Promise<CaseTransferStatus> {
  const result = stepCaseTransfer(transfer.snapshot, event);
  if (!result.taken) throw refused(event.type, result.state);
  await saveStep(trx, transfer.id, {
    status: result.state,
    snapshot: result.persisted,
    decidedAt: result.decidedAt === null ? null : new Date(result.decidedAt),
  });
  if (result.state !== 'offered')
    await recordAudit(trx, {
      actorUserId: audit.actorUserId,
      action: auditAction[result.state],
      subject: transfer.sessionId,
      detail: {
        sessionId: transfer.sessionId,
        transferId: transfer.id,
        fromUserId: transfer.fromUserId,
        toUserId: transfer.toUserId,
      },
      teamId: transfer.teamId,
      ip: audit.ip,
    });
  return result.state;
}

async function view(db: Database, transferId: string): Promise<CaseTransfer> {
  const row = await transferView(db, transferId);
  if (!row) throw noTransfer();
  return {
    transferUuid: row.id,
    sessionUuid: row.session_id,
    phoneNumber: row.phone_number ?? '',
    status: row.status as CaseTransferStatus,
    from: { id: row.from_user_id, name: `${row.from_first} ${row.from_last}` },
    to: { id: row.to_user_id, name: `${row.to_first} ${row.to_last}` },
    offeredAt: row.offered_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
    decidedAt: row.decided_at?.toISOString() ?? null,
  };
}

/**
 * After a change committed: the session's log gets `case-transfer` (sequenced, persisted and
 * replayed like every session event) and both dispatchers' consoles get it, on any instance.
 * On `accepted`, the first dispatcher's sockets close with 4412 once they have written it
 * (dispatcher-connection.ts), so the event always arrives before the close; and every instance
 * is told to close that dispatcher's sockets for the session anyway (`closeSocketsOf`), should
 * the event not reach one. The change has committed, so a failing step (Redis away) does not
 * fail the request: it is logged and retried in the background, each step once it succeeded.
 */
async function announce(
  deps: CaseTransferDeps,
  transferId: string,
  closeSocketsOf?: string,
): Promise<CaseTransfer> {
  const transfer = await view(deps.db, transferId);
  const session = await findTransferSession(deps.db, transfer.sessionUuid);
  const steps: (() => Promise<unknown>)[] = [];
  if (session)
    steps.push(() =>
      publishSessionEvent(
        deps.realtime,
        { sessionId: session.id, callerId: session.callerId },
        'case-transfer',
        { ...transfer },
      ),
    );
  steps.push(() =>
    deps.consoleUsers.send([transfer.from.id, transfer.to.id], frame('case-transfer', transfer)),
  );
  if (closeSocketsOf)
    steps.push(() => announceSessionTransferred(deps, transfer.sessionUuid, closeSocketsOf));
  const left = await runSteps(steps);
  if (left.length > 0) {
    deps.log.warn({ transferId }, 'case-transfer announcement failed; retrying in the background');
    void retrySteps(deps, transferId, left);
  }
  return transfer;
}

/** Runs each step in order; returns those that failed (and every one after the first failure). */
async function runSteps(steps: (() => Promise<unknown>)[]): Promise<(() => Promise<unknown>)[]> {
  for (let index = 0; index < steps.length; index += 1) {
    try {
      await steps[index]!();
    } catch {
      // Order matters (the event before the close), so the rest waits for this one.
      return steps.slice(index);
    }
  }
  return [];
}

/** How many times, and how far apart (doubling), a failed announcement is tried again. */
export const announceRetries = { attempts: 5, firstDelayMs: 200 };

async function retrySteps(
  deps: CaseTransferDeps,
  transferId: string,
  steps: (() => Promise<unknown>)[],
): Promise<void> {
  let left = steps;
  for (let attempt = 0; attempt < announceRetries.attempts && left.length > 0; attempt += 1) {
    await new Promise((resolve) =>
      setTimeout(resolve, announceRetries.firstDelayMs * 2 ** attempt).unref(),
    );
    left = await runSteps(left);
  }
  if (left.length > 0)
    deps.log.error({ transferId }, 'case-transfer announcement given up after retries');
}

/** An offer whose time is up expires now, if nobody else is deciding it (then they do). */
async function expireIfDue(deps: CaseTransferDeps, transferId: string): Promise<void> {
  const now = Date.now();
  const expired = await deps.db.transaction().execute(async (trx) => {
    const transfer = await lockTransfer(trx, transferId);
    if (!transfer || transfer.status !== 'offered') return false;
    const result = stepCaseTransfer(transfer.snapshot, { type: 'EXPIRE', at: now });
    if (!result.taken) return false;
    await step(trx, transfer, { type: 'EXPIRE', at: now }, { actorUserId: null, ip: null });
    return true;
  });
  if (expired) await announce(deps, transferId);
}

/**
 * Expires every offer whose time is up, on whichever instance gets there first (`skip locked`:
 * one held by another instance is theirs). Runs every `sweepEveryMs`.
 */
export async function expireDueOffers(deps: CaseTransferDeps): Promise<number> {
  const now = new Date();
  const expired = await deps.db.transaction().execute(async (trx) => {
    const ids = await lockDueOffers(trx, now, 100);
    const done: string[] = [];
    for (const id of ids) {
      const transfer = await lockTransfer(trx, id);
      if (!transfer || transfer.status !== 'offered') continue;
      const event = { type: 'EXPIRE', at: now.getTime() } as const;
      if (!stepCaseTransfer(transfer.snapshot, event).taken) continue;
      await step(trx, transfer, event, { actorUserId: null, ip: null });
      done.push(id);
    }
    return done;
  });
  for (const id of expired) await announce(deps, id);
  return expired.length;
}

export const sweepEveryMs = 500;

/** Starts this instance's expiry sweeper; returns its stop. */
export function startExpirySweeper(deps: CaseTransferDeps): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = running
      .then(() => expireDueOffers(deps))
      .catch((error: unknown) =>
        deps.log.error({ err: error }, 'could not expire case-transfer offers'),
      );
  }, sweepEveryMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

export async function transferCandidates(
  deps: CaseTransferDeps,
  principal: Principal,
  sessionId: string,
): Promise<TransferCandidate[]> {
  const session = await teamSession(deps, principal, sessionId);
  const colleagues = (await teamColleagues(deps.db, session.teamId!)).filter(
    (colleague) => colleague.id !== principal.userId,
  );
  const online = await deps.consoleUsers.online(colleagues.map((colleague) => colleague.id));
  return colleagues.map((colleague) => ({
    id: colleague.id,
    firstName: colleague.first_name,
    lastName: colleague.last_name,
    online: online.has(colleague.id),
    activeCases: Number(colleague.active_cases ?? 0),
  }));
}

export async function offerTransfer(
  deps: CaseTransferDeps,
  principal: Principal,
  sessionId: string,
  toUserId: string,
  ip?: string,
): Promise<CaseTransfer> {
  await requireLocatingAllowed(deps, principal);
  const session = await teamSession(deps, principal, sessionId);
  // Only the session's dispatcher now; to anyone else it is not theirs to give.
  if (session.dispatcherId !== principal.userId) throw notFound();
  const colleague = await findColleague(deps.db, toUserId, session.teamId!);
  if (!colleague?.onTeam)
    throw new ApiError(404, 'not-found', 'There is no such colleague on your team.');
  if (session.status !== 'active')
    throw new ApiError(409, 'conflict', 'This tracking session has ended.');
  if (toUserId === principal.userId)
    throw new ApiError(409, 'conflict', 'This case is already yours.');
  if (!colleague.confirmed)
    throw new ApiError(409, 'conflict', 'This colleague has not confirmed their email address.');
  if (!(await deps.consoleUsers.online([toUserId])).has(toUserId))
    throw new ApiError(409, 'conflict', 'This colleague is not online.');
  // A pending offer whose time is up expires first, so it does not block this one.
  const pending = await newestTransferId(deps.db, session.id);
  if (pending) await expireIfDue(deps, pending);
  const offeredAt = Date.now();
  const ttlMs = deps.config.CASE_TRANSFER_OFFER_TTL_MS;
  const transferId = await deps.db.transaction().execute(async (trx) => {
    // Ownership again, under the session's row lock: an accept that committed since the read
    // above moved the case, and its former dispatcher may no longer offer it.
    const owner = await lockSessionOwner(trx, session.id);
    if (owner?.dispatcherId !== principal.userId) throw notFound();
    if (owner.status !== 'active')
      throw new ApiError(409, 'conflict', 'This tracking session has ended.');
    const id = await insertTransfer(trx, {
      sessionId: session.id,
      teamId: session.teamId!,
      fromUserId: principal.userId,
      toUserId,
      snapshot: offerCaseTransfer({ fromUserId: principal.userId, toUserId, offeredAt, ttlMs }),
      offeredAt: new Date(offeredAt),
      expiresAt: new Date(offeredAt + ttlMs),
    });
    if (!id) throw new ApiError(409, 'conflict', 'A transfer of this case is already pending.');
    await recordAudit(trx, {
      actorUserId: principal.userId,
      action: 'case-transfer.offered',
      subject: session.id,
      detail: { sessionId: session.id, transferId: id, fromUserId: principal.userId, toUserId },
      teamId: session.teamId,
      ip: ip ?? null,
    });
    return id;
  });
  return announce(deps, transferId);
}

export async function checkTransfer(
  deps: CaseTransferDeps,
  principal: Principal,
  sessionId: string,
  phone: string,
): Promise<{ pending: 0 | 1; transfer: CaseTransfer | null }> {
  const session = await teamSession(deps, principal, sessionId, phone);
  const newest = await newestTransferId(deps.db, session.id);
  if (newest) await expireIfDue(deps, newest);
  const transfer = newest ? await view(deps.db, newest) : null;
  const mine =
    session.dispatcherId === principal.userId ||
    (transfer && (transfer.from.id === principal.userId || transfer.to.id === principal.userId));
  if (!mine) throw notFound();
  return { pending: transfer?.status === 'offered' ? 1 : 0, transfer };
}

export async function transferOffers(
  deps: CaseTransferDeps,
  principal: Principal,
): Promise<CaseTransfer[]> {
  const ids = await pendingOfferIds(deps.db, principal.userId);
  for (const id of ids) await expireIfDue(deps, id);
  const still = await pendingOfferIds(deps.db, principal.userId);
  return Promise.all(still.map((id) => view(deps.db, id)));
}

/** Deny (the colleague) or cancel (the offerer) the session's pending transfer. */
export async function markTransfer(
  deps: CaseTransferDeps,
  principal: Principal,
  sessionId: string,
  phone: string,
  ip?: string,
): Promise<CaseTransfer> {
  const session = await teamSession(deps, principal, sessionId, phone);
  const at = Date.now();
  const outcome = await deps.db.transaction().execute(async (trx) => {
    const transfer = await lockPendingOfSession(trx, session.id);
    if (!transfer)
      throw new ApiError(409, 'conflict', 'No transfer of this case is pending; nothing changed.');
    const event: CaseTransferEvent =
      transfer.fromUserId === principal.userId
        ? { type: 'CANCEL', by: principal.userId, at }
        : { type: 'DENY', by: principal.userId, at };
    const state = await step(trx, transfer, event, {
      actorUserId: principal.userId,
      ip: ip ?? null,
    });
    return { id: transfer.id, state };
  });
  const transfer = await announce(deps, outcome.id);
  if (outcome.state === 'expired')
    throw new ApiError(409, 'conflict', 'This offer had expired; the case stays.');
  return transfer;
}

/**
 * The colleague's socket token for the offered session. Only its hash is kept, on the transfer:
 * no `connection_tokens` row exists until the transfer is confirmed with it, so a socket opened
 * with it before then is refused like any unknown token.
 */
export async function joinStream(
  deps: CaseTransferDeps,
  principal: Principal,
  transferId: string,
  phone: string,
): Promise<{ token: string }> {
  await requireLocatingAllowed(deps, principal);
  await expireIfDue(deps, transferId);
  const { transfer } = await ownTransfer(deps, principal, transferId, phone);
  if (transfer.toUserId !== principal.userId) throw noTransfer();
  const token = newToken();
  await deps.db.transaction().execute(async (trx) => {
    const locked = await lockTransfer(trx, transfer.id);
    if (locked?.status !== 'offered')
      throw new ApiError(409, 'conflict', `This transfer is ${locked?.status ?? 'gone'}.`);
    await setJoinTokenHash(trx, transfer.id, token.hash);
  });
  return { token: token.token };
}

/**
 * Accept: in one transaction the machine takes ACCEPT (the colleague it names, in time), the
 * token is the one join-stream gave, the session becomes the colleague's, the first dispatcher's
 * tokens for it stop working and the colleague's token starts to. Then everyone is told.
 */
export async function confirmTransfer(
  deps: CaseTransferDeps,
  principal: Principal,
  sessionId: string,
  phone: string,
  socketToken: string,
  ip?: string,
): Promise<{ transfer: CaseTransfer; session: ActiveSession }> {
  await requireLocatingAllowed(deps, principal);
  const session = await teamSession(deps, principal, sessionId, phone);
  const at = Date.now();
  const outcome = await deps.db.transaction().execute(async (trx) => {
    const transfer = await lockPendingOfSession(trx, session.id);
    if (!transfer)
      throw new ApiError(409, 'conflict', 'No transfer of this case is pending; nothing changed.');
    const event = { type: 'ACCEPT', by: principal.userId, at } as const;
    // The machine first: it alone says whether this user may accept it now.
    const dry = stepCaseTransfer(transfer.snapshot, event);
    if (!dry.taken) throw refused('ACCEPT', dry.state);
    if (dry.state === 'accepted') {
      if (!transfer.joinTokenHash || !transfer.joinTokenHash.equals(hashToken(socketToken)))
        throw new ApiError(
          409,
          'conflict',
          'This is not the token join-stream gave you; the case stays.',
        );
      // Throwing rolls back the machine step too: the transfer stays offered.
      if (!(await moveSession(trx, session.id, transfer.fromUserId, principal.userId)))
        throw new ApiError(
          409,
          'conflict',
          'This tracking session has ended or changed hands; nothing changed.',
        );
      await revokeSessionTokensOf(trx, session.id, transfer.fromUserId);
      const issued = await insertSignedInDispatcherToken(trx, {
        hash: transfer.joinTokenHash,
        sessionId: session.id,
        userId: principal.userId,
        authSessionId: principal.sessionId,
        ttlSeconds: deps.config.DISPATCHER_TOKEN_TTL_SECONDS,
      });
      if (!issued) throw new ApiError(401, 'unauthorized', 'Sign in to continue.');
    }
    const state = await step(trx, transfer, event, {
      actorUserId: principal.userId,
      ip: ip ?? null,
    });
    return { id: transfer.id, state, fromUserId: transfer.fromUserId };
  });
  const transfer = await announce(
    deps,
    outcome.id,
    outcome.state === 'accepted' ? outcome.fromUserId : undefined,
  );
  if (outcome.state !== 'accepted')
    throw new ApiError(409, 'conflict', 'This offer had expired; the case stays.');
  return { transfer, session: await activeSessionOf(deps, session, socketToken) };
}

async function activeSessionOf(
  deps: CaseTransferDeps,
  session: TransferSession,
  token: string,
): Promise<ActiveSession> {
  const summary = await sessionSummary(deps.db, session.id);
  const callers = await findCallers(deps.db, session.id);
  return {
    uuid: session.id,
    token,
    phoneNumber: session.phoneNumber,
    locationType: (summary?.location_type ?? null) as ActiveSession['locationType'],
    language: callers[0]?.language ?? 'en',
    startedAt: (summary?.created_at ?? new Date()).toISOString(),
    callers: callers.map(({ id, phoneNumber }) => ({ id, phoneNumber })),
  };
}

/** A fresh socket token for the colleague who accepted, while the session runs and is theirs. */
export async function checkCaseTransfer(
  deps: CaseTransferDeps,
  principal: Principal,
  transferId: string,
  phone: string,
): Promise<{ status: CaseTransferStatus; token: string | null }> {
  await expireIfDue(deps, transferId);
  const { transfer, session } = await ownTransfer(deps, principal, transferId, phone);
  if (
    transfer.status !== 'accepted' ||
    transfer.toUserId !== principal.userId ||
    session.dispatcherId !== principal.userId ||
    session.status !== 'active'
  )
    return { status: transfer.status, token: null };
  const token = newToken();
  const issued = await insertSignedInDispatcherToken(deps.db, {
    hash: token.hash,
    sessionId: session.id,
    userId: principal.userId,
    authSessionId: principal.sessionId,
    ttlSeconds: deps.config.DISPATCHER_TOKEN_TTL_SECONDS,
  });
  if (!issued) throw new ApiError(401, 'unauthorized', 'Sign in to continue.');
  return { status: transfer.status, token: token.token };
}

export async function emitLatestLocation(
  deps: CaseTransferDeps,
  principal: Principal,
  transferId: string,
  phone: string,
): Promise<Location | null> {
  const { session } = await ownTransfer(deps, principal, transferId, phone);
  if (session.dispatcherId !== principal.userId) throw noTransfer();
  await deps.realtime.writer.flush();
  const fix = await findLatestFix(deps.db, session.id);
  if (!fix) return null;
  return {
    latitude: fix.latitude,
    longitude: fix.longitude,
    uncertaintyRadiusInMeters: fix.uncertainty_radius_m,
    altitude: fix.altitude,
    address: fix.address,
    capturedFromSource: fix.source as Location['capturedFromSource'],
    dateTimeCaptured: fix.captured_at.toISOString(),
  };
}
