import { createHash } from 'node:crypto';
import type { Database } from '@locus/db';
import { partnerLimits, type PartnerSession, type SmsLanguage } from '@locus/contract';
import { ApiError } from '../../http/errors';
import { recordAudit } from '../audit/repo';
import { findTeam } from '../location/repo';
import {
  lookUpThenText,
  reserveTextsFor,
  type Requester,
  type TrackingDeps,
} from '../location/service';
import { seedNewSession } from '../realtime/session-publisher';
import { openSession } from '../sessions/service';
import { untextableMessage, untextableReason } from '../sms/number-type';
import type { PartnerPrincipal } from './partner-auth';
import {
  claimIdempotencyKey,
  noteIdempotentSession,
  releaseIdempotencyKey,
  storeIdempotentAnswer,
} from './sessions-repo';
import { partnerSessionView, teamSession } from './sessions-service';

export interface PartnerLocate {
  phoneNumber: string;
  language: SmsLanguage;
  externalReference: string | null;
}

export type LocateAnswer = {
  status: 201;
  body: PartnerSession;
  /** The answer of an earlier request with the same `Idempotency-Key`. */
  replayed: boolean;
};

/** Thrown for an `Idempotency-Key` whose first request is still running: `Retry-After` says when. */
export class IdempotencyInProgress extends ApiError {
  constructor(readonly retryAfterSeconds: number) {
    super(
      409,
      'idempotency-in-progress',
      'The first request with this Idempotency-Key is still being answered. Retry shortly.',
    );
  }
}

/** Long enough for the provider's wait and the text's (LOOKUP_WAIT_MS + SMS_WAIT_MS) and more. */
const idempotencyLockSeconds = 60;

/**
 * A partner's locate (issue 15): with an `Idempotency-Key`, the first request runs and its
 * answer is kept for 24 h; a retry gets it again and starts nothing, the same key with another
 * body is refused, and a retry while the first still runs is told to wait. A first attempt
 * that failed before it opened a session leaves nothing behind; one that failed after answers
 * that session to the retry, so that a retried locate never opens a second session.
 */
export async function partnerLocate(
  deps: TrackingDeps,
  partner: PartnerPrincipal,
  input: PartnerLocate,
  idempotencyKey: string | undefined,
  ip: string,
): Promise<LocateAnswer> {
  if (idempotencyKey === undefined)
    return { status: 201, body: await locate(deps, partner, input, ip), replayed: false };
  const ref = { keyId: partner.keyId, idempotencyKey };
  const claim = await claimIdempotencyKey(deps.db, {
    ...ref,
    requestHash: requestHash(input),
    keepHours: partnerLimits.idempotencyHours,
    lockSeconds: idempotencyLockSeconds,
  });
  switch (claim.kind) {
    case 'reused':
      throw new ApiError(
        422,
        'idempotency-key-reused',
        'This Idempotency-Key was sent with another request. Use a new key for a new locate.',
      );
    case 'in-progress':
      throw new IdempotencyInProgress(claim.retryAfterSeconds);
    case 'replay':
      return { status: 201, body: claim.body as PartnerSession, replayed: true };
    case 'orphaned': {
      const body = await partnerSessionView(
        deps.db,
        await teamSession(deps.db, partner, claim.sessionId),
      );
      await storeIdempotentAnswer(deps.db, ref, { status: 201, body });
      return { status: 201, body, replayed: true };
    }
    case 'claimed':
      break;
  }
  try {
    // The session is noted on the claim in the transaction that opens it.
    const body = await locate(deps, partner, input, ip, (trx, sessionId) =>
      noteIdempotentSession(trx, ref, sessionId),
    );
    await storeIdempotentAnswer(deps.db, ref, { status: 201, body });
    return { status: 201, body, replayed: false };
  } catch (error) {
    // Nothing opened: a retry runs afresh. A session opened: the key stays held, and a retry
    // after the hold answers that session (claimIdempotencyKey's `orphaned`).
    await releaseIdempotencyKey(deps.db, ref);
    throw error;
  }
}

/** SHA-256 of the request as parsed (so that spacing or key order does not count). */
function requestHash(input: PartnerLocate): Buffer {
  const canonical = JSON.stringify([
    'partner.locate',
    input.phoneNumber,
    input.language,
    input.externalReference,
  ]);
  return createHash('sha256').update(canonical).digest();
}

/**
 * Opens the session on the key's team and locates its caller (the provider, then a text), then
 * answers the session as it stands. The text's allowance is taken before anything is written,
 * so that a refusal (429) leaves nothing behind.
 */
async function locate(
  deps: TrackingDeps,
  partner: PartnerPrincipal,
  input: PartnerLocate,
  ip: string,
  inTransaction?: (trx: Database, sessionId: string) => Promise<void>,
): Promise<PartnerSession> {
  const team = await findTeam(deps.db, partner.teamId);
  if (!team?.isActive) throw new ApiError(403, 'no-active-team', 'This key’s team is not active.');
  const reason = untextableReason(input.phoneNumber);
  if (reason && !team.lookupActive)
    throw new ApiError(422, 'untextable-number', untextableMessage(input.phoneNumber, reason));
  const reservation = await reserveTextsFor(
    deps,
    { sender: `key:${partner.keyId}`, teamId: partner.teamId },
    1,
  );
  let opened;
  try {
    opened = await openSession(deps.db, {
      teamId: partner.teamId,
      createdBy: null,
      callers: [{ phoneNumber: input.phoneNumber, language: input.language }],
      dispatcherTokenTtlSeconds: deps.config.DISPATCHER_TOKEN_TTL_SECONDS,
      withCallerTokens: false,
      partner: { keyId: partner.keyId, externalReference: input.externalReference },
      ...(inTransaction ? { inTransaction } : {}),
    });
  } catch (error) {
    await reservation.release(1);
    throw error;
  }
  seedNewSession(deps.realtime, opened.sessionId);
  const session = { id: opened.sessionId, teamId: partner.teamId };
  const by: Requester = { userId: null, ip, partnerKeyId: partner.keyId };
  await auditLocate(deps, partner, input, session.id, ip).catch(async (error: unknown) => {
    await reservation.release(1);
    throw error;
  });
  const caller = {
    id: opened.callerIds[0]!,
    phoneNumber: input.phoneNumber,
    language: input.language,
  };
  await lookUpThenText(deps, session, team, caller, input.language, by, reservation);
  // A position the provider found was published by this instance: written before it is read.
  await deps.realtime.writer.flush();
  return partnerSessionView(deps.db, await teamSession(deps.db, partner, session.id));
}

function auditLocate(
  deps: TrackingDeps,
  partner: PartnerPrincipal,
  input: PartnerLocate,
  sessionId: string,
  ip: string,
): Promise<void> {
  return recordAudit(deps.db, {
    actorUserId: null,
    action: 'locate.requested',
    subject: input.phoneNumber,
    detail: {
      sessionId,
      partnerKeyId: partner.keyId,
      ...(input.externalReference ? { externalReference: input.externalReference } : {}),
    },
    teamId: partner.teamId,
    ip,
  });
}
