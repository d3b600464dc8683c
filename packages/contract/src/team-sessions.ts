import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { PageQuery, pageOf } from './admin-common';
import { ErrorBody } from './errors';
import { publicRoute } from './route-security';
import { consentScreens } from './i18n/consent';
import { ExportRow, SmsLanguage } from './tracking';

/**
 * A team's past sessions as evidence (issue 15): what each caller agreed to (consent receipts),
 * where the session's export stands, and a legal hold that keeps its history past the team's
 * retention. For team admins on /admin/sessions; plus SPEC.md §7's upload-to-s3 call.
 */
const c = initContract();
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

export const teamSessionLimits = {
  legalHoldReasonMaxLength: 500,
  /** Rows an upload-to-s3 body may carry (a long session at 1 fix/s for a day is 86,400). */
  uploadRowsMax: 100_000,
} as const;

/**
 * Where a session's export stands. `none`: the team does not export on end and nobody asked;
 * `queued`, `writing`; `retrying` after a failed attempt (the next comes on its own); `stored`;
 * `failed` after the last retry (nothing is lost: Export now tries again).
 */
export const ExportState = z.enum(['none', 'queued', 'writing', 'retrying', 'stored', 'failed']);
export type ExportState = z.infer<typeof ExportState>;

export const SessionExport = z.object({
  state: ExportState,
  attempts: z.number().int().nonnegative(),
  /** Why the last attempt failed, in plain words; null after a success. */
  lastError: z.string().nullable(),
  lastAttemptAt: z.string().datetime().nullable(),
  storedAt: z.string().datetime().nullable(),
  /** `local` or `s3`: the storage it went to. */
  storage: z.string().nullable(),
  /** The SPEC rows file (`<number>_<first capture>.json`); null when the session had no fix. */
  fileName: z.string().nullable(),
  /** Where the signed evidence file is: a path on the worker's disk, or `s3://bucket/key`. */
  evidenceFile: z.string().nullable(),
  /** The hash chain's last link, as signed: what `npm run verify-export` must report. */
  chainHead: z.string().nullable(),
  /** Which of the deployment's Ed25519 keys signed it. */
  signingKeyId: z.string().nullable(),
});
export type SessionExport = z.infer<typeof SessionExport>;

/**
 * The screens a receipt can come from: the location screens, and Allow on a dispatcher's request
 * for video or a photo (issue 19, modules/media/consent-receipt.ts).
 */
export const receiptScreens = [...consentScreens, 'media-video', 'media-photo'] as const;

/** What a caller saw and tapped, word for word, and from which browser. */
export const ConsentReceipt = z.object({
  id: z.string().uuid(),
  phoneNumber: z.string(),
  language: SmsLanguage,
  screen: z.enum(receiptScreens),
  /** The texts version the caller's page ran. */
  catalogueVersion: z.string(),
  /** The version the words below were rendered from (differs only for a page from an older release). */
  renderedFromVersion: z.string(),
  agencyName: z.string(),
  title: z.string(),
  lines: z.array(z.string()),
  button: z.string(),
  /** The phone's own clock at the tap; null when it was more than a day off the server's. */
  tappedAt: z.string().datetime().nullable(),
  receivedAt: z.string().datetime(),
  userAgent: z.string().nullable(),
});
export type ConsentReceipt = z.infer<typeof ConsentReceipt>;

export const LegalHold = z.object({
  since: z.string().datetime(),
  by: z.string().nullable(),
  reason: z.string().nullable(),
});
export type LegalHold = z.infer<typeof LegalHold>;

export const TeamSessionSummary = z.object({
  id: z.string().uuid(),
  startedAt: z.string().datetime(),
  endedAt: z.string().datetime().nullable(),
  /** Who ran it at the end (after any case transfer); a partner key's session names the key. */
  dispatcher: z.string().nullable(),
  phoneNumbers: z.array(z.string()),
  externalReference: z.string().nullable(),
  exportState: ExportState,
  legalHold: z.boolean(),
  consentReceipts: z.number().int().nonnegative(),
});
export type TeamSessionSummary = z.infer<typeof TeamSessionSummary>;

export const TeamSessionList = pageOf(TeamSessionSummary);
export type TeamSessionList = z.infer<typeof TeamSessionList>;

export const TeamSessionDetail = TeamSessionSummary.extend({
  teamId: z.string().uuid(),
  fixes: z.number().int().nonnegative(),
  consent: z.array(ConsentReceipt),
  export: SessionExport,
  hold: LegalHold.nullable(),
  /**
   * When the retention purge deletes this session's fixes, chat and receipts (the team's
   * retention after the end; the daily purge then runs within a day); null while it runs, is
   * held, or was purged.
   */
  historyDeletedAfter: z.string().datetime().nullable(),
  /** The retention purge deleted its fixes, chat and receipts (the session row stays). */
  historyPurged: z.boolean(),
});
export type TeamSessionDetail = z.infer<typeof TeamSessionDetail>;

export const LegalHoldInput = z
  .object({
    reason: z.string().trim().min(1).max(teamSessionLimits.legalHoldReasonMaxLength),
  })
  .strict();
export type LegalHoldInput = z.input<typeof LegalHoldInput>;

export const ExportQueued = z.object({ state: ExportState });
export type ExportQueued = z.infer<typeof ExportQueued>;

const TeamParams = z.object({ teamId: z.string().uuid() });
const SessionParams = z.object({ teamId: z.string().uuid(), id: z.string().uuid() });

const ACCESS =
  'Team admins (and admins) of the team; platform admins for any team. A dispatcher is 403 ' +
  '`forbidden`; a team the user is not on, or a session of another team, is 404 `not-found`.';

export const teamSessionsContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/api/v1/teams/:teamId/sessions',
      summary: "A team's sessions, newest first, with their export state and legal hold",
      description: ACCESS,
      pathParams: TeamParams,
      query: PageQuery,
      responses: { 200: TeamSessionList, ...errors },
    },
    get: {
      method: 'GET',
      path: '/api/v1/teams/:teamId/sessions/:id',
      summary: 'One session: consent receipts, export, legal hold and when its history goes',
      description: ACCESS,
      pathParams: SessionParams,
      responses: { 200: TeamSessionDetail, ...errors },
    },
    setLegalHold: {
      method: 'PUT',
      path: '/api/v1/teams/:teamId/sessions/:id/legal-hold',
      summary: 'Put a session under legal hold: the retention purge keeps its history',
      description:
        'Setting it again replaces the reason. A session whose history the retention purge ' +
        `already deleted is 409 \`conflict\`. Audited. ${ACCESS}`,
      pathParams: SessionParams,
      body: LegalHoldInput,
      responses: { 200: TeamSessionDetail, 409: ErrorBody, ...errors },
    },
    releaseLegalHold: {
      method: 'DELETE',
      path: '/api/v1/teams/:teamId/sessions/:id/legal-hold',
      summary: 'Release a legal hold; the retention purge may then delete the history',
      description: `Releasing a session not on hold changes nothing. Audited. ${ACCESS}`,
      pathParams: SessionParams,
      body: c.noBody(),
      responses: { 200: TeamSessionDetail, ...errors },
    },
    exportNow: {
      method: 'POST',
      path: '/api/v1/teams/:teamId/sessions/:id/export',
      summary: "Write (or write again) an ended session's export and evidence file",
      description:
        'Queues the export job; the session shows its state. A session still running is 409 ' +
        '`conflict`; one whose history the retention purge deleted is 409 too (its stored ' +
        `export stays as it was). Audited. ${ACCESS}`,
      pathParams: SessionParams,
      body: c.noBody(),
      responses: { 202: ExportQueued, 409: ErrorBody, ...errors },
    },
  },
  { strictStatusCodes: true },
);

/**
 * SPEC.md §7 `POST /api/v1/aws/upload-to-s3/{teamId}/{uuid}`: the dispatcher's page asks for the
 * export at End Tracking with its rows. The rows are checked against the contract, but the file
 * is written from Postgres (the source of truth), never from what a browser sent.
 */
export const uploadToS3Contract = c.router(
  {
    uploadToS3: {
      method: 'POST',
      path: '/api/v1/aws/upload-to-s3/:teamId/:uuid',
      summary: "Export an ended session's rows to the team's storage",
      description:
        'The body is the export rows the page holds (SPEC.md §3); the server writes the rows ' +
        'stored in Postgres, the chat transcript and the signed evidence file, through the ' +
        '`export.upload` job, and answers its state. Dispatchers and admins of the team; a ' +
        'session of another team is 404 `not-found`; a session still running, or one whose ' +
        'history the retention purge deleted, is 409 `conflict`.',
      pathParams: z.object({ teamId: z.string().uuid(), uuid: z.string().uuid() }),
      body: z.array(ExportRow).max(teamSessionLimits.uploadRowsMax),
      responses: { 202: ExportQueued, 409: ErrorBody, ...errors },
    },
  },
  { strictStatusCodes: true },
);

/** A public key that has signed evidence files of this deployment (issue 15). */
export const EvidenceSigningKey = z.object({
  /** First 16 hex digits of the SHA-256 of the key's SPKI DER: what an evidence file names. */
  keyId: z.string(),
  /** SPKI PEM: pass it to `npm run verify-export -- FILE --key KEY.pem`. */
  publicKeyPem: z.string(),
  /** When a worker first signed with it. */
  firstUsedAt: z.string().datetime(),
});
export type EvidenceSigningKey = z.infer<typeof EvidenceSigningKey>;

export const evidenceKeysContract = c.router(
  {
    signingKeys: {
      method: 'GET',
      path: '/api/v1/evidence/signing-keys',
      ...publicRoute,
      summary: "The deployment's evidence signing keys, newest first",
      description:
        'Public: anyone holding an evidence file checks it against one of these keys, offline ' +
        '(`npm run verify-export -- FILE --key KEY.pem`, or `verifyEvidence` in the client ' +
        'package). A key rotated out stays listed, so older files still verify.',
      responses: { 200: z.object({ keys: z.array(EvidenceSigningKey) }) },
    },
  },
  { strictStatusCodes: true },
);
