import type { AuditAction } from '@locus/contract';
import type { Database } from '@locus/db';
import { sql } from 'kysely';

/** Whose sessions one pass of the purge looks at: a team's, or those with no team (practice). */
export interface RetentionScope {
  teamId: string | null;
  /** Sessions that ended before it lose their history. */
  cutoff: Date;
}

/** Rows one batch deleted, per table, and how many sessions they belonged to. */
export interface PurgedHistory {
  sessions: number;
  fixes: number;
  events: number;
  lookups: number;
  texts: number;
  chat: number;
  consentReceipts: number;
  /** Photos, stills, snapshots and recordings (issue 19); their files go after the commit. */
  media: number;
}

export interface PurgedBatch extends PurgedHistory {
  /** Sessions the batch picked (a full batch means there may be more); the last one's id. */
  picked: number;
  lastId: string | null;
}

export async function teamRetentions(
  db: Database,
): Promise<{ id: string; retention_days: number | null }[]> {
  return db.selectFrom('teams').select(['id', 'retention_days']).orderBy('id').execute();
}

const inScope = (teamId: string | null) =>
  teamId === null ? sql`s.team_id is null` : sql`s.team_id = ${teamId}`;

/**
 * Deletes the history of at most `limit` sessions of the scope that ended before its cut-off,
 * are not under a legal hold and still have something to delete, taken in id order after
 * `afterId`: fixes, events, provider lookups, the texts both ways (which carry links), chat, and
 * consent receipts (the caller's browser details). The session and its callers stay (the metrics
 * read counts kept on them). One statement, so one snapshot and one round trip.
 *
 * The sessions are locked `for no key update … skip locked`: setting a legal hold (an update of
 * the session row) either waits for this batch to commit or, if it came first, makes the row
 * fail the `legal_hold_at is null` check when it is re-read, or be skipped while it is still
 * locked; inserts that reference a session (key share) are not blocked. A skipped session is
 * taken on the next run.
 *
 * The `exists` probes read the session_id indexes; they are what makes a second run find
 * nothing, since a purged session keeps its row. Sessions that ended before the cut-off are
 * probed again on every run, which is cheap next to keeping a purge marker in sync.
 */
export async function purgeHistoryBatch(
  db: Database,
  scope: RetentionScope,
  afterId: string | null,
  limit: number,
): Promise<PurgedBatch> {
  const { rows } = await sql<PurgedBatch>`
    with batch as (
      select s.id from tracking_sessions s
      where ${inScope(scope.teamId)}
        and s.ended_at < ${scope.cutoff}
        and s.legal_hold_at is null
        and ${afterId === null ? sql`true` : sql`s.id > ${afterId}`}
        and (
          exists (select 1 from location_fixes h where h.session_id = s.id)
          or exists (select 1 from session_events h where h.session_id = s.id)
          or exists (select 1 from location_lookups h where h.session_id = s.id)
          or exists (select 1 from sms_messages h where h.session_id = s.id)
          or exists (select 1 from chat_messages h where h.session_id = s.id)
          or exists (select 1 from consent_receipts h where h.session_id = s.id)
          or exists (select 1 from session_media h where h.session_id = s.id)
          or exists (select 1 from session_recordings h where h.session_id = s.id)
        )
      order by s.id
      limit ${limit}
      for no key update of s skip locked
    ),
    fixes as (
      delete from location_fixes where session_id in (select id from batch) returning session_id
    ),
    events as (
      delete from session_events where session_id in (select id from batch) returning session_id
    ),
    lookups as (
      delete from location_lookups where session_id in (select id from batch) returning session_id
    ),
    texts as (
      delete from sms_messages where session_id in (select id from batch) returning session_id
    ),
    chat as (
      delete from chat_messages where session_id in (select id from batch) returning session_id
    ),
    receipts as (
      delete from consent_receipts where session_id in (select id from batch) returning session_id
    ),
    -- Photos and recordings (issue 19): the rows go now, their files' keys into media_deletions
    -- in the same transaction, deleted from storage once it commits (deleteQueuedMediaFiles).
    pictures as (
      delete from session_media where session_id in (select id from batch)
      returning session_id, storage_key
    ),
    chunks as (
      delete from session_recording_chunks where recording_id in (
        select r.id from session_recordings r where r.session_id in (select id from batch)
      ) returning storage_key
    ),
    recordings as (
      delete from session_recordings where session_id in (select id from batch)
      returning session_id
    ),
    files as (
      insert into media_deletions (storage_key)
      select storage_key from pictures union all select storage_key from chunks
      on conflict (storage_key) do nothing
      returning storage_key
    ),
    -- What the sessions page and the export read to know the history is gone (a data-modifying
    -- CTE runs whether or not the select reads it).
    marked as (
      update tracking_sessions set history_purged_at = now()
      where id in (select id from batch) returning id
    )
    select
      (select count(*) from batch)::int as "picked",
      (select id from batch order by id desc limit 1) as "lastId",
      (select count(distinct session_id) from (
        select session_id from fixes union all select session_id from events
        union all select session_id from lookups union all select session_id from texts
        union all select session_id from chat union all select session_id from receipts
        union all select session_id from pictures union all select session_id from recordings
      ) deleted)::int as "sessions",
      (select count(*) from fixes)::int as "fixes",
      (select count(*) from events)::int as "events",
      (select count(*) from lookups)::int as "lookups",
      (select count(*) from texts)::int as "texts",
      (select count(*) from chat)::int as "chat",
      (select count(*) from receipts)::int as "consentReceipts",
      ((select count(*) from pictures) + (select count(*) from recordings))::int as "media"
  `.execute(db);
  return rows[0]!;
}

/** Sessions of the scope past its cut-off that a legal hold keeps whole. */
export async function countHeldSessions(db: Database, scope: RetentionScope): Promise<number> {
  let query = db
    .selectFrom('tracking_sessions')
    .select(sql<number>`count(*)::int`.as('held'))
    .where('ended_at', '<', scope.cutoff)
    .where('legal_hold_at', 'is not', null);
  query =
    scope.teamId === null
      ? query.where('team_id', 'is', null)
      : query.where('team_id', '=', scope.teamId);
  return (await query.executeTakeFirstOrThrow()).held;
}

/** What a `retention.purged` audit row says: the counts deleted, the cut-off as ISO 8601. */
export type RetentionAuditDetail = Omit<PurgedHistory, 'media'> & {
  /** Absent when the purge deleted no photo or recording. */
  media?: number;
  cutoff: string;
  retentionDays: number;
  heldSessionsKept: number;
};

/**
 * The purge's audit row, in the transaction of the deletions it records. Written here rather
 * than through the API's `recordAudit` (the worker does not import the API's modules), in the
 * same shape: actor null (nobody acted: the system did), subject and trail the team.
 */
export async function recordRetentionPurge(
  db: Database,
  teamId: string | null,
  detail: RetentionAuditDetail,
): Promise<void> {
  const action: AuditAction = 'retention.purged';
  await db
    .insertInto('audit_log')
    .values({
      actor_user_id: null,
      action,
      // Sessions without a team (practice) have no team to name; platform admins see the row.
      subject: teamId ?? 'no-team',
      detail: JSON.stringify(detail),
      team_id: teamId,
      ip: null,
    })
    .execute();
}

/**
 * Copies of the same history in partner tables (issue 15): webhook payloads carry fixes and
 * numbers (deleted after the deployment's default period), kept answers to an Idempotency-Key
 * carry a session's view (24 h is their use). Returns rows deleted.
 */
export async function deletePartnerCopies(db: Database, cutoff: Date): Promise<number> {
  const deliveries = await db
    .deleteFrom('partner_webhook_deliveries')
    .where('created_at', '<', cutoff)
    .executeTakeFirst();
  const answers = await db
    .deleteFrom('partner_idempotency_keys')
    .where('created_at', '<', sql<Date>`now() - interval '24 hours'`)
    .executeTakeFirst();
  return Number(deliveries.numDeletedRows) + Number(answers.numDeletedRows);
}

export async function databaseNow(db: Database): Promise<Date> {
  const { rows } = await sql<{ now: Date }>`select now() as now`.execute(db);
  return rows[0]!.now;
}

/**
 * Accounts registered with an address that another account has confirmed: they can never be
 * confirmed. Kept a day, so that registering does not reveal at once that the address is taken.
 */
export async function deleteUnconfirmableAccounts(db: Database): Promise<number> {
  const result = await db
    .deleteFrom('users as u')
    .where('u.email_confirmed_at', 'is', null)
    .where('u.created_at', '<', sql<Date>`now() - interval '1 day'`)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('users as owner')
          .select('owner.id')
          .whereRef(sql`lower(owner.email)`, '=', sql`lower(u.email)`)
          .where('owner.email_confirmed_at', 'is not', null),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Sessions and one-time codes a month past their end: kept that long for investigations. */
export async function deleteDeadCredentials(db: Database): Promise<number> {
  const sessions = await db
    .deleteFrom('auth_sessions')
    .where((eb) =>
      eb.or([
        eb('expires_at', '<', sql<Date>`now() - interval '30 days'`),
        eb('revoked_at', '<', sql<Date>`now() - interval '30 days'`),
      ]),
    )
    .executeTakeFirst();
  const codes = await db
    .deleteFrom('one_time_codes')
    .where('expires_at', '<', sql<Date>`now() - interval '30 days'`)
    .executeTakeFirst();
  return Number(sessions.numDeletedRows) + Number(codes.numDeletedRows);
}

/**
 * Deletes the files the purge queued (`media_deletions`), then their queue rows: a file is
 * deleted before its row, so a purge that dies midway leaves rows for the next run, never a
 * file nobody will delete. Returns how many files were deleted.
 */
export async function deleteQueuedMediaFiles(
  db: Database,
  storage: { delete(key: string): Promise<void> },
  batchSize = 500,
): Promise<number> {
  let deleted = 0;
  for (;;) {
    const keys = await db
      .selectFrom('media_deletions')
      .select('storage_key')
      .orderBy('queued_at')
      .limit(batchSize)
      .execute();
    if (keys.length === 0) return deleted;
    for (const { storage_key } of keys) await storage.delete(storage_key);
    await db
      .deleteFrom('media_deletions')
      .where(
        'storage_key',
        'in',
        keys.map((key) => key.storage_key),
      )
      .execute();
    deleted += keys.length;
    if (keys.length < batchSize) return deleted;
  }
}
