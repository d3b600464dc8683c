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
    | 'user.patch';
  /** What it was done to: a user id, or an address for a lockout. */
  subject: string;
  detail?: Record<string, string | number | boolean | null | string[]>;
}

export async function recordAudit(db: Database, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      actor_user_id: entry.actorUserId,
      action: entry.action,
      subject: entry.subject,
      detail: JSON.stringify(entry.detail ?? {}),
    })
    .execute();
}
