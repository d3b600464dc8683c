import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { PageQuery, pageOf } from './admin-common';
import { ErrorBody } from './errors';

const c = initContract();
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/**
 * Every action the audit trail records (`audit_log.action`). The API checks at compile time that
 * each action it writes is listed here, so the screen's filter can offer all of them.
 */
export const auditActions = [
  'sign-in',
  'sign-in.passkey',
  'sign-in.failed',
  'sign-in.locked',
  'sign-in.unlocked',
  'sign-in.mfa-failed',
  'sign-out',
  'session.revoked',
  'password.reset',
  'password.changed',
  // A wrong current password (or code) given to change it or a second factor: counted toward
  // the lockout like a failed sign-in, but not one (the login metrics count 'sign-in.failed').
  'password-change.failed',
  'mfa-change.failed',
  'mfa.enrolled',
  'mfa.disabled',
  'mfa.recovery-used',
  'mfa.passkey-added',
  'mfa.passkey-removed',
  'locate.requested',
  'sms.sent',
  'session.ended',
  'session.exported',
  'session.export-requested',
  'session.legal-hold-set',
  'session.legal-hold-released',
  'user.invited',
  'user.role-changed',
  'user.added-to-team',
  'user.removed-from-team',
  'user.patch',
  'team.invited',
  'team.invitation-accepted',
  'team.created',
  'team.updated',
  'team.security',
  'team.custom-content',
  'team.agency-added',
  'team.agencies-removed',
  'verification.approved',
  'verification.rejected',
  'verification.domain-added',
  'verification.domain-removed',
  'uscg.approve',
  'uscg.reject',
  'dev-outbox.read',
  'job.retried',
  'job.discarded',
  'broadcast.posted',
  'broadcast.withdrawn',
  // Issue 12: a case offered to a colleague, and what became of the offer.
  'case-transfer.offered',
  'case-transfer.accepted',
  'case-transfer.denied',
  'case-transfer.cancelled',
  'case-transfer.expired',
  // Issue 14: a watch started on a group (or on typed numbers).
  'overwatch.started',
  // Issue 14: Overwatch groups created, changed, archived and restored.
  'overwatch-group.created',
  'overwatch-group.updated',
  'overwatch-group.archived',
  'overwatch-group.restored',
  // Issue 15: partner API keys created and revoked, and keys refused (revoked, expired, scope).
  'api-key.created',
  'api-key.revoked',
  'api-key.refused',
  // Issue 15: the retention purge deleted a team's old history (nobody acted: actor null).
  'retention.purged',
] as const;
export const AuditAction = z.enum(auditActions);
export type AuditAction = z.infer<typeof AuditAction>;

/** How many rows one CSV download holds at most (the newest ones matching the filters). */
export const auditExportMaxRows = 50_000;

/** A calendar day (`2026-11-25`, a whole UTC day) or an instant with its offset. */
const DateOrInstant = z.union([z.string().date(), z.string().datetime({ offset: true })]);

/** The filters of the trail and of its CSV download. */
export const AuditFilters = z.object({
  /** Whose actions (the actor). */
  userId: z.string().uuid().optional(),
  action: AuditAction.optional(),
  /** From this instant, or from the start of this UTC day. */
  from: DateOrInstant.optional(),
  /** Up to this instant, or to the end of this UTC day (inclusive). */
  to: DateOrInstant.optional(),
  /** One team's rows; an admin of that team or a platform admin only (404 otherwise). */
  teamId: z.string().uuid().optional(),
});
export type AuditFilters = z.infer<typeof AuditFilters>;

export const AuditQuery = PageQuery.merge(AuditFilters);
export type AuditQuery = z.infer<typeof AuditQuery>;

export const AuditActor = z.object({ id: z.string().uuid(), name: z.string(), email: z.string() });

/** One row of the trail: who did what, for which team, to what, when and from where. */
export const AuditRow = z.object({
  id: z.string(),
  at: z.string().datetime(),
  /** Null when nobody was signed in (a failed sign-in, a lockout, an idle session ended). */
  actor: AuditActor.nullable(),
  action: z.string(),
  teamId: z.string().uuid().nullable(),
  teamName: z.string().nullable(),
  /** What it was done to: a user id, a phone number, a session, an address, a domain. */
  subject: z.string(),
  /** When the subject is a user's id: that user's name and e-mail, for reading. */
  subjectUser: z.object({ name: z.string(), email: z.string() }).nullable(),
  detail: z.record(z.unknown()),
  /** The client address of the request, when there was one. */
  ip: z.string().nullable(),
});
export type AuditRow = z.infer<typeof AuditRow>;

/** The header row of the CSV download, in column order. */
export const auditCsvColumns = [
  'At',
  'Actor',
  'Actor email',
  'Action',
  'Team',
  'Subject',
  'IP',
  'Detail',
] as const;

const ACCESS =
  'Team admins see the rows of the teams they administer; platform admins see every row; a ' +
  'dispatcher (no admin role) gets 403 `forbidden`. A `teamId` the caller does not administer ' +
  'answers 404 `not-found`, like a team that does not exist.';

export const auditContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/api/v1/audit',
      summary: 'The audit trail, newest first, filtered by actor, action, dates and team',
      description: `Paginated (page, pageSize); ordered by time then id, newest first. ${ACCESS}`,
      query: AuditQuery,
      responses: { 200: pageOf(AuditRow), ...errors },
    },
    exportCsv: {
      method: 'GET',
      path: '/api/v1/audit/export.csv',
      summary: 'The same trail as a CSV file (RFC 4180), at most 50,000 rows',
      description:
        `The filters of GET /api/v1/audit, newest first, with a header row (${auditCsvColumns.join(', ')}). ` +
        'A cell starting with =, +, - or @ gets a leading apostrophe so that a spreadsheet does not ' +
        `run it as a formula. Beyond 50,000 rows only the newest are included. ${ACCESS}`,
      query: AuditFilters,
      responses: {
        200: c.otherResponse({ contentType: 'text/csv', body: z.string() }),
        ...errors,
      },
    },
    actors: {
      method: 'GET',
      path: '/api/v1/audit/actors',
      summary: 'The people who appear as actors in the trail the caller may read, by name',
      description: `For the screen's user filter. At most 1,000. ${ACCESS}`,
      responses: { 200: z.array(AuditActor), ...errors },
    },
  },
  { strictStatusCodes: true },
);
