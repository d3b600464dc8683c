import type { Database } from '@locus/db';
import { sql } from 'kysely';

/** The columns a session's summary shows, for one team. */
function summaries(db: Database, teamId: string) {
  return db
    .selectFrom('tracking_sessions as s')
    .leftJoin('users as u', 'u.id', 's.dispatcher_id')
    .leftJoin('partner_api_keys as k', 'k.id', 's.partner_key_id')
    .leftJoin('session_exports as x', 'x.session_id', 's.id')
    .select([
      's.id',
      's.team_id',
      's.created_at',
      's.ended_at',
      's.external_reference',
      's.legal_hold_at',
      's.history_purged_at',
      'u.first_name',
      'u.last_name',
      'k.name as key_name',
      'x.state as export_state',
      sql<string[]>`array(
        select c.phone_number from session_callers c where c.session_id = s.id order by c.created_at, c.id
      )`.as('phone_numbers'),
      sql<number>`(select count(*)::int from consent_receipts r where r.session_id = s.id)`.as(
        'consent_receipts',
      ),
    ])
    .where('s.team_id', '=', teamId)
    .where('s.practice', '=', false);
}

export type SessionSummaryRow = Awaited<
  ReturnType<ReturnType<typeof summaries>['executeTakeFirstOrThrow']>
>;

export async function listTeamSessions(
  db: Database,
  teamId: string,
  page: { page: number; pageSize: number },
): Promise<{ rows: SessionSummaryRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    summaries(db, teamId)
      .orderBy('s.created_at', 'desc')
      .orderBy('s.id', 'desc')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
    db
      .selectFrom('tracking_sessions')
      .select(sql<number>`count(*)::int`.as('total'))
      .where('team_id', '=', teamId)
      .where('practice', '=', false)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.total };
}

/** One session of the team with what its page shows besides the summary. */
export async function findTeamSession(db: Database, teamId: string, sessionId: string) {
  const summary = await summaries(db, teamId).where('s.id', '=', sessionId).executeTakeFirst();
  if (!summary) return undefined;
  const [details, exportRow] = await Promise.all([
    db
      .selectFrom('tracking_sessions as s')
      .innerJoin('teams as t', 't.id', 's.team_id')
      .leftJoin('users as h', 'h.id', 's.legal_hold_by')
      .select([
        's.legal_hold_reason',
        'h.first_name as hold_first_name',
        'h.last_name as hold_last_name',
        't.retention_days',
        sql<number>`(select count(*)::int from location_fixes f where f.session_id = s.id)`.as(
          'fixes',
        ),
      ])
      .where('s.id', '=', sessionId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('session_exports')
      .selectAll()
      .where('session_id', '=', sessionId)
      .executeTakeFirst(),
  ]);
  return { summary, details, exportRow };
}

/**
 * Returns false when the retention purge deleted the history first (a hold that waited on the
 * purge's lock finds the row marked when it is re-read).
 */
export async function setLegalHold(
  db: Database,
  sessionId: string,
  hold: { userId: string; reason: string },
): Promise<boolean> {
  const result = await db
    .updateTable('tracking_sessions')
    .set({
      // A hold set again keeps its start: the session has been held since then.
      legal_hold_at: sql<Date>`coalesce(legal_hold_at, now())`,
      legal_hold_by: hold.userId,
      legal_hold_reason: hold.reason,
    })
    .where('id', '=', sessionId)
    .where('history_purged_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Returns whether a hold was released. */
export async function clearLegalHold(db: Database, sessionId: string): Promise<boolean> {
  const result = await db
    .updateTable('tracking_sessions')
    .set({ legal_hold_at: null, legal_hold_by: null, legal_hold_reason: null })
    .where('id', '=', sessionId)
    .where('legal_hold_at', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * An export asked for by hand: the row is (re)set to queued, so the page shows it at once and a
 * failed export's state does not linger while the new attempt waits.
 */
export async function requestExport(
  db: Database,
  session: { id: string; teamId: string },
): Promise<void> {
  await db
    .insertInto('session_exports')
    .values({ session_id: session.id, team_id: session.teamId })
    .onConflict((oc) =>
      oc.column('session_id').doUpdateSet({ state: 'queued', last_error: null, attempts: 0 }),
    )
    .execute();
}

/** The session's team and end, for the upload-to-s3 call (any session id may be asked for). */
export async function findSessionTeam(db: Database, sessionId: string) {
  return db
    .selectFrom('tracking_sessions')
    .select(['id', 'team_id', 'ended_at', 'history_purged_at'])
    .where('id', '=', sessionId)
    .executeTakeFirst();
}

export async function exportStateOf(db: Database, sessionId: string) {
  const row = await db
    .selectFrom('session_exports')
    .select('state')
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
  return row?.state as 'queued' | 'writing' | 'retrying' | 'stored' | 'failed' | undefined;
}

export async function listSigningKeys(db: Database) {
  return db
    .selectFrom('evidence_signing_keys')
    .select(['key_id', 'public_key_pem', 'first_used_at'])
    .orderBy('first_used_at', 'desc')
    .execute();
}

export async function markExportNotQueued(
  db: Database,
  sessionId: string,
  reason: string,
): Promise<void> {
  await db
    .updateTable('session_exports')
    .set({ state: 'failed', last_error: reason })
    .where('session_id', '=', sessionId)
    .where('state', '=', 'queued')
    .execute();
}
