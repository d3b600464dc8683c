import type { Database } from '@locus/db';
import { sql } from 'kysely';

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
    | 'password.changed'
    // Issue 13: a wrong current password (or code) while changing it, apart from sign-ins.
    | 'password-change.failed'
    | 'mfa-change.failed'
    // Issue 22 (operations console): failed jobs acted on.
    | 'job.retried'
    | 'job.discarded'
    // Issue 22: maintenance broadcasts.
    | 'broadcast.posted'
    | 'broadcast.withdrawn'
    // Issue 12: case transfers.
    | 'case-transfer.offered'
    | 'case-transfer.accepted'
    | 'case-transfer.denied'
    | 'case-transfer.cancelled'
    | 'case-transfer.expired'
    // Issue 14: Overwatch.
    | 'overwatch.started'
    | 'overwatch-group.created'
    | 'overwatch-group.updated'
    | 'overwatch-group.archived'
    | 'overwatch-group.restored'
    // Issue 15: partner API keys.
    | 'api-key.created'
    | 'api-key.revoked'
    | 'api-key.refused'
    // Issue 15: evidence.
    | 'session.export-requested'
    | 'session.legal-hold-set'
    | 'session.legal-hold-released';
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

/** Whose rows a reader may see: every row (platform admins) or those of these teams. */
export type AuditScope = { all: true } | { all: false; teamIds: readonly string[] };

/** The trail's filters, resolved: `before` is exclusive, `from` inclusive. */
export interface AuditRowFilter {
  actorUserId?: string | undefined;
  action?: string | undefined;
  from?: Date | undefined;
  before?: Date | undefined;
  teamId?: string | undefined;
}

export interface AuditTrailRow {
  id: string;
  at: Date;
  action: string;
  subject: string;
  detail: unknown;
  ip: string | null;
  team_id: string | null;
  team_name: string | null;
  actor_id: string | null;
  actor_first_name: string | null;
  actor_last_name: string | null;
  actor_email: string | null;
  subject_first_name: string | null;
  subject_last_name: string | null;
  subject_email: string | null;
}

function trailWhere(db: Database, scope: AuditScope, filter: AuditRowFilter) {
  let query = db.selectFrom('audit_log as a');
  if (!scope.all) query = query.where('a.team_id', 'in', [...scope.teamIds]);
  if (filter.teamId !== undefined) query = query.where('a.team_id', '=', filter.teamId);
  if (filter.actorUserId !== undefined)
    query = query.where('a.actor_user_id', '=', filter.actorUserId);
  if (filter.action !== undefined) query = query.where('a.action', '=', filter.action);
  if (filter.from !== undefined) query = query.where('a.at', '>=', filter.from);
  if (filter.before !== undefined) query = query.where('a.at', '<', filter.before);
  return query;
}

/** The trail, newest first (then by id), with the actor and the team named. */
export async function listAuditRows(
  db: Database,
  scope: AuditScope,
  filter: AuditRowFilter,
  page: { limit: number; offset: number },
): Promise<AuditTrailRow[]> {
  if (!scope.all && scope.teamIds.length === 0) return [];
  return (
    trailWhere(db, scope, filter)
      .leftJoin('users as u', 'u.id', 'a.actor_user_id')
      .leftJoin('teams as t', 't.id', 'a.team_id')
      // Compared as text: a subject is not always a uuid (a number, an address, a domain).
      .leftJoin('users as s', (join) => join.on(sql`s.id::text`, '=', sql.ref('a.subject')))
      .select([
        'a.id',
        'a.at',
        'a.action',
        'a.subject',
        'a.detail',
        'a.ip',
        'a.team_id',
        't.team_name',
        'u.id as actor_id',
        'u.first_name as actor_first_name',
        'u.last_name as actor_last_name',
        'u.email as actor_email',
        's.first_name as subject_first_name',
        's.last_name as subject_last_name',
        's.email as subject_email',
      ])
      .orderBy('a.at', 'desc')
      .orderBy('a.id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute()
  );
}

export async function countAuditRows(
  db: Database,
  scope: AuditScope,
  filter: AuditRowFilter,
): Promise<number> {
  if (!scope.all && scope.teamIds.length === 0) return 0;
  const row = await trailWhere(db, scope, filter)
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** The people who act in the rows the reader may see, by name (the screen's user filter). */
export async function listAuditActors(db: Database, scope: AuditScope, limit: number) {
  if (!scope.all && scope.teamIds.length === 0) return [];
  return db
    .selectFrom('users as u')
    .select(['u.id', 'u.first_name', 'u.last_name', 'u.email'])
    .where('u.id', 'in', trailWhere(db, scope, {}).select('a.actor_user_id'))
    .orderBy('u.last_name')
    .orderBy('u.first_name')
    .orderBy('u.id')
    .limit(limit)
    .execute();
}

export async function teamExists(db: Database, teamId: string): Promise<boolean> {
  const row = await db.selectFrom('teams').select('id').where('id', '=', teamId).executeTakeFirst();
  return row !== undefined;
}

/**
 * The team whose trail shows what a user does outside any one team's session (a sign-in, a
 * lockout): the first active team they joined, as for locating (else their first team); null
 * when they are on none.
 */
export async function primaryTeamOf(db: Database, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom('team_members as m')
    .innerJoin('teams as t', 't.id', 'm.team_id')
    .select('t.id')
    .where('m.user_id', '=', userId)
    .orderBy('t.is_active', 'desc')
    .orderBy('m.created_at')
    .orderBy('t.team_name')
    .executeTakeFirst();
  return row?.id ?? null;
}
