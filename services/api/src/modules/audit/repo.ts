import type { Database } from '@locus/db';

export interface AuditEntry {
  /** Who did it; null when nobody was signed in (a lockout). */
  actorUserId: string | null;
  action:
    | 'sign-in.locked'
    | 'sign-in.failed'
    | 'sign-in.unlocked'
    | 'dev-outbox.read'
    | 'team.invited'
    | 'team.invitation-accepted'
    | 'sign-out'
    | 'sign-in.mfa-failed'
    | 'mfa.enrolled'
    | 'mfa.disabled'
    | 'mfa.recovery-used'
    | 'mfa.passkey-added'
    | 'mfa.passkey-removed'
    | 'sign-in.passkey'
    | 'session.revoked'
    | 'team.security'
    | 'password.reset'
    | 'uscg.approve'
    | 'uscg.reject'
    | 'user.patch'
    // Issue 11 (admin area): every action an agency is audited on.
    | 'sign-in'
    | 'locate.requested'
    | 'sms.sent'
    | 'session.ended'
    | 'session.exported'
    | 'user.invited'
    | 'user.role-changed'
    | 'user.added-to-team'
    | 'user.removed-from-team'
    | 'team.created'
    | 'team.updated'
    | 'team.custom-content'
    | 'team.agency-added'
    | 'team.agencies-removed'
    | 'verification.approved'
    | 'verification.rejected'
    | 'verification.domain-added'
    | 'verification.domain-removed'
    | 'password.changed';
  /** What it was done to: a user id, or an address for a lockout. */
  subject: string;
  detail?: Record<string, string | number | boolean | null | string[]>;
  /** The team whose trail shows it (its admins see it); null for platform-level rows. */
  teamId?: string | null;
  /** The client address the request came from (request.ip), when there was a request. */
  ip?: string | null;
}

/** Appends one row; the table refuses updates and deletes (migration 2026-11-25T05-00). */
export async function recordAudit(db: Database, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      actor_user_id: entry.actorUserId,
      action: entry.action,
      subject: entry.subject,
      detail: JSON.stringify(entry.detail ?? {}),
      team_id: entry.teamId ?? null,
      ip: entry.ip ?? null,
    })
    .execute();
}
