import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ErrorBody } from './errors';
import { Location } from './location';
import { ActiveSession } from './tracking';

const c = initContract();
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody };

/**
 * Case transfer (SPEC.md §4 "Case transfer to another dispatcher on the same team", §7). A
 * dispatcher offers a running session to a colleague of the same team; the colleague accepts
 * (the session, its whole history and every later fix move to them), denies, or lets the offer
 * expire; the offerer may cancel. The state of a transfer is the case-transfer machine's
 * (`packages/machines/src/case-transfer`): the API changes it only through machine events, and
 * an event the machine does not take in the transfer's state is 409 `conflict`.
 */

/** An offer that is neither accepted nor denied within this is expired, and the case stays. */
export const caseTransferOfferTtlMs = 60_000;

export const caseTransferStatuses = [
  'offered',
  'accepted',
  'denied',
  'cancelled',
  'expired',
] as const;
export const CaseTransferStatus = z.enum(caseTransferStatuses);
export type CaseTransferStatus = z.infer<typeof CaseTransferStatus>;

const Person = z.object({ id: z.string().uuid(), name: z.string() });

/** One transfer, as both dispatchers see it. */
export const CaseTransfer = z.object({
  transferUuid: z.string().uuid(),
  /** The tracking session (SPEC.md's connection request `uuid`). */
  sessionUuid: z.string().uuid(),
  /** The number the session was opened for (E.164). */
  phoneNumber: z.string(),
  status: CaseTransferStatus,
  from: Person,
  to: Person,
  offeredAt: z.string().datetime(),
  /** When an offer still `offered` expires (`offeredAt` + `caseTransferOfferTtlMs`). */
  expiresAt: z.string().datetime(),
  /** When it was accepted, denied, cancelled or expired; null while offered. */
  decidedAt: z.string().datetime().nullable(),
});
export type CaseTransfer = z.infer<typeof CaseTransfer>;

/**
 * A colleague who may receive a case: same team, active membership, confirmed e-mail.
 * `online`: signed in with a console open right now (any instance). `activeCases`: sessions they
 * are running. Offline colleagues are listed but cannot be offered a case.
 */
export const TransferCandidate = z.object({
  id: z.string().uuid(),
  firstName: z.string(),
  lastName: z.string(),
  online: z.boolean(),
  activeCases: z.number().int().min(0),
});
export type TransferCandidate = z.infer<typeof TransferCandidate>;

const sessionPath = z.object({ uuid: z.string().uuid(), phone: z.string().max(32) });
const transferPath = z.object({ transferUuid: z.string().uuid(), phone: z.string().max(32) });
const phoneNote =
  ' `phone` is the number the session was opened for, in E.164 (`+` URL-encoded as `%2B`); a ' +
  'number that is not the session\u2019s is 404.';

export const caseTransferContract = c.router(
  {
    transferCandidates: {
      method: 'GET',
      path: '/api/v1/location/transfer-candidates/:uuid',
      summary: 'Colleagues of the session\u2019s team who may receive the case, with their status',
      description:
        'For the transfer picker: the other members of the session\u2019s team, whether each is online now, and how many cases each is working.',
      pathParams: z.object({ uuid: z.string().uuid() }),
      responses: { 200: z.object({ candidates: z.array(TransferCandidate) }), ...errors },
    },
    offerTransfer: {
      method: 'POST',
      path: '/api/v1/location/offer-transfer/:uuid',
      summary: 'Offer the running session to a colleague of the same team',
      description:
        'The colleague is told within a second on their console socket (`case-transfer`), and the ' +
        'session\u2019s log gets a `case-transfer` event. Only the session\u2019s current dispatcher may ' +
        'offer it. 404 for a colleague of another team or a session not yours; 409 `conflict` when ' +
        'an offer is already pending, the session has ended, or the colleague is not active, ' +
        'confirmed and online. The offer expires after 60 seconds.',
      pathParams: z.object({ uuid: z.string().uuid() }),
      body: z.object({ toUserId: z.string().uuid() }).strict(),
      responses: { 201: CaseTransfer, ...errors, 409: ErrorBody },
    },
    checkTransfer: {
      method: 'GET',
      path: '/api/v1/location/check-transfer/:uuid/:phone',
      summary: 'SPEC.md \u00a77: is a transfer of this session pending? (1 means pending)',
      description:
        'For either dispatcher of the transfer. `transfer` is the newest transfer of the session, ' +
        'whatever its status.' +
        phoneNote,
      pathParams: sessionPath,
      responses: {
        200: z.object({
          pending: z.union([z.literal(0), z.literal(1)]),
          transfer: CaseTransfer.nullable(),
        }),
        ...errors,
      },
    },
    transferOffers: {
      method: 'GET',
      path: '/api/v1/location/transfer-offers',
      summary: 'Offers made to the signed-in dispatcher that are still pending',
      description:
        'What the console socket announces, for a client that cannot hold a socket: poll it.',
      responses: { 200: z.object({ offers: z.array(CaseTransfer) }), ...errors },
    },
    markTransfer: {
      method: 'POST',
      path: '/api/v1/location/mark-transfer/:uuid/:phone/:mark',
      summary:
        'SPEC.md \u00a77: mark the pending transfer with 0: denied (by the colleague) or cancelled',
      description:
        'The colleague it was offered to denies it; the dispatcher who offered it cancels it. ' +
        'Either way the case stays with its dispatcher. 409 `conflict` when no transfer is pending.' +
        phoneNote,
      pathParams: sessionPath.extend({ mark: z.literal('0') }),
      body: z.object({}).strict().optional(),
      responses: { 200: CaseTransfer, ...errors, 409: ErrorBody },
    },
    joinStream: {
      method: 'POST',
      path: '/api/v1/location/join-stream/:transferUuid/:phone',
      summary: 'SPEC.md \u00a77: the colleague asks for the socket token of the offered session',
      description:
        'Only the colleague the pending offer names. The token opens the dispatcher socket only once ' +
        'the transfer is confirmed (`mark-case-transfer-confirmation`). 409 `conflict` when the ' +
        'offer is no longer pending (accepted, denied, cancelled or expired).' +
        phoneNote,
      pathParams: transferPath,
      body: z.object({}).strict().optional(),
      responses: { 200: z.object({ token: z.string() }), ...errors, 409: ErrorBody },
    },
    confirmTransfer: {
      method: 'POST',
      path: '/api/v1/location/mark-case-transfer-confirmation/:uuid/:phone/:socketToken',
      summary: 'SPEC.md \u00a77: accept the transfer with the token from join-stream',
      description:
        'The session is now the colleague\u2019s: `session` is what they need to open it (the token ' +
        'works from now on; `join` without `lastSeq` replays every caller, fix, log entry and chat ' +
        'message). The first dispatcher\u2019s sockets get `case-transfer` (accepted) and close with ' +
        '4412; their tokens for this session stop working. 409 `conflict` for an offer that is no ' +
        'longer pending (expired included), a token that is not the one join-stream gave this user, ' +
        'or a user the offer does not name; the case then stays with its dispatcher.' +
        phoneNote,
      pathParams: sessionPath.extend({ socketToken: z.string().min(1).max(128) }),
      body: z.object({}).strict().optional(),
      responses: {
        200: z.object({ transfer: CaseTransfer, session: ActiveSession }),
        ...errors,
        409: ErrorBody,
      },
    },
    checkCaseTransfer: {
      method: 'GET',
      path: '/api/v1/location/check-case-transfer/:transferUuid/:phone',
      summary: 'SPEC.md \u00a77: a socket token for an accepted transfer, or nothing',
      description:
        'For the colleague who accepted: a fresh dispatcher socket token for the session while it ' +
        'runs; `null` otherwise (still offered, denied, cancelled, expired, or asked by anyone else ' +
        'of the transfer).' +
        phoneNote,
      pathParams: transferPath,
      responses: {
        200: z.object({ status: CaseTransferStatus, token: z.string().nullable() }),
        ...errors,
      },
    },
    emitLatestLocation: {
      method: 'GET',
      path: '/api/v1/location/emit-latest-location/:transferUuid/:x',
      summary:
        'SPEC.md \u00a77: the newest fix of a transferred session, for the colleague who took it',
      description:
        '`x` is the number the session was opened for (E.164). The same fix also reaches the ' +
        'colleague\u2019s socket in the replay that `join` sends. 404 unless the caller of this ' +
        'route is the session\u2019s dispatcher now.',
      pathParams: z.object({ transferUuid: z.string().uuid(), x: z.string().max(32) }),
      responses: { 200: z.object({ location: Location.nullable() }), ...errors },
    },
  },
  { strictStatusCodes: true },
);
