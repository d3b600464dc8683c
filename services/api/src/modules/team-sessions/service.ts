import {
  receiptScreens,
  type ConsentReceipt,
  type ExportState,
  type LegalHoldInput,
  type PageQuery,
  type SessionExport,
  type SmsLanguage,
  type TeamSessionDetail,
  type TeamSessionList,
  type TeamSessionSummary,
} from '@locus/contract';
import { readConsentReceipts, type Database } from '@locus/db';
import { ApiError } from '../../http/errors';
import { recordAudit } from '../audit/repo';
import { administersTeam, type Principal } from '../auth/guard';
import { queueExport, type TrackingDeps } from '../location/service';
import {
  clearLegalHold,
  exportStateOf,
  findSessionTeam,
  findTeamSession,
  listTeamSessions,
  markExportNotQueued,
  requestExport,
  setLegalHold,
  type SessionSummaryRow,
} from './repo';

type Deps = Pick<TrackingDeps, 'db' | 'queues' | 'realtime' | 'config'>;
type Actor = { principal: Principal; ip: string };

const dayMs = 24 * 3_600_000;
const purgedMessage =
  "The retention purge already deleted this session's locations, chat and consent receipts.";

/** A team's sessions are its admins' to see (404 for a team the user is not on). */
function requireTeamAdmin(principal: Principal, teamId: string): void {
  if (!principal.isPlatformAdmin && !principal.teamIds.includes(teamId))
    throw new ApiError(404, 'not-found', 'No such team.');
  if (!administersTeam(principal, teamId))
    throw new ApiError(403, 'forbidden', "Only team admins can see the team's sessions.");
}

function summary(row: SessionSummaryRow): TeamSessionSummary {
  const dispatcher = [row.first_name, row.last_name].filter(Boolean).join(' ');
  return {
    id: row.id,
    startedAt: row.created_at.toISOString(),
    endedAt: row.ended_at?.toISOString() ?? null,
    dispatcher: dispatcher || (row.key_name ? `API key "${row.key_name}"` : null),
    phoneNumbers: row.phone_numbers,
    externalReference: row.external_reference,
    exportState: (row.export_state as ExportState | null) ?? 'none',
    legalHold: row.legal_hold_at !== null,
    consentReceipts: row.consent_receipts,
  };
}

export async function listSessions(
  db: Database,
  principal: Principal,
  teamId: string,
  page: PageQuery,
): Promise<TeamSessionList> {
  requireTeamAdmin(principal, teamId);
  const { rows, total } = await listTeamSessions(db, teamId, page);
  return { items: rows.map(summary), total, page: page.page, pageSize: page.pageSize };
}

export async function sessionDetail(
  deps: Pick<Deps, 'db' | 'config'>,
  principal: Principal,
  teamId: string,
  sessionId: string,
): Promise<TeamSessionDetail> {
  requireTeamAdmin(principal, teamId);
  const found = await findTeamSession(deps.db, teamId, sessionId);
  if (!found) throw new ApiError(404, 'not-found', 'No such session.');
  const { summary: row, details, exportRow } = found;
  const receipts = await readConsentReceipts(deps.db, sessionId);
  const retentionDays = details.retention_days ?? deps.config.LOCATION_RETENTION_DAYS;
  const deletedAfter =
    row.ended_at && !row.legal_hold_at && !row.history_purged_at
      ? new Date(row.ended_at.getTime() + retentionDays * dayMs)
      : null;
  const holder = [details.hold_first_name, details.hold_last_name].filter(Boolean).join(' ');
  return {
    ...summary(row),
    teamId,
    fixes: details.fixes,
    consent: receipts.map(toReceipt),
    export: toExport(exportRow),
    hold: row.legal_hold_at
      ? {
          since: row.legal_hold_at.toISOString(),
          by: holder || null,
          reason: details.legal_hold_reason,
        }
      : null,
    historyDeletedAfter: deletedAfter?.toISOString() ?? null,
    historyPurged: row.history_purged_at !== null,
  };
}

type ReceiptRow = Awaited<ReturnType<typeof readConsentReceipts>>[number];

function toReceipt(row: ReceiptRow): ConsentReceipt {
  const shown = row.shown_text as {
    screen?: string;
    renderedFromVersion?: string;
    title?: string;
    lines?: string[];
    button?: string;
  };
  const screen = receiptScreens.find((value) => value === shown.screen) ?? 'request';
  return {
    id: row.id,
    phoneNumber: row.phone_number,
    language: row.language as SmsLanguage,
    screen,
    catalogueVersion: row.catalogue_version,
    renderedFromVersion: shown.renderedFromVersion ?? row.catalogue_version,
    agencyName: row.agency_name,
    title: shown.title ?? '',
    lines: shown.lines ?? [],
    button: shown.button ?? '',
    tappedAt: row.tapped_at?.toISOString() ?? null,
    receivedAt: row.received_at.toISOString(),
    userAgent: row.user_agent,
  };
}

type ExportRowDb = NonNullable<Awaited<ReturnType<typeof findTeamSession>>>['exportRow'];

function toExport(row: ExportRowDb): SessionExport {
  if (!row)
    return {
      state: 'none',
      attempts: 0,
      lastError: null,
      lastAttemptAt: null,
      storedAt: null,
      storage: null,
      fileName: null,
      evidenceFile: null,
      chainHead: null,
      signingKeyId: null,
    };
  return {
    state: row.state as ExportState,
    attempts: row.attempts,
    lastError: row.last_error,
    lastAttemptAt: row.last_attempt_at?.toISOString() ?? null,
    storedAt: row.stored_at?.toISOString() ?? null,
    storage: row.storage,
    fileName: row.file_name,
    evidenceFile: row.evidence_key,
    chainHead: row.chain_head,
    signingKeyId: row.signing_key_id,
  };
}

export async function holdSession(
  deps: Pick<Deps, 'db' | 'config'>,
  { principal, ip }: Actor,
  teamId: string,
  sessionId: string,
  input: LegalHoldInput,
): Promise<TeamSessionDetail> {
  await sessionDetail(deps, principal, teamId, sessionId);
  if (!(await setLegalHold(deps.db, sessionId, { userId: principal.userId, reason: input.reason })))
    throw new ApiError(409, 'conflict', purgedMessage);
  await recordAudit(deps.db, {
    actorUserId: principal.userId,
    action: 'session.legal-hold-set',
    subject: sessionId,
    detail: { sessionId, reason: input.reason },
    teamId,
    ip,
  });
  return sessionDetail(deps, principal, teamId, sessionId);
}

export async function releaseHold(
  deps: Pick<Deps, 'db' | 'config'>,
  { principal, ip }: Actor,
  teamId: string,
  sessionId: string,
): Promise<TeamSessionDetail> {
  await sessionDetail(deps, principal, teamId, sessionId);
  if (await clearLegalHold(deps.db, sessionId))
    await recordAudit(deps.db, {
      actorUserId: principal.userId,
      action: 'session.legal-hold-released',
      subject: sessionId,
      detail: { sessionId },
      teamId,
      ip,
    });
  return sessionDetail(deps, principal, teamId, sessionId);
}

/** Export now (the sessions page), or upload-to-s3 (the dispatcher's End Tracking). */
export async function exportSession(
  deps: Deps,
  { principal, ip }: Actor,
  teamId: string,
  sessionId: string,
  { by }: { by: 'team-admin' | 'team-member' },
): Promise<{ state: ExportState }> {
  if (by === 'team-admin') requireTeamAdmin(principal, teamId);
  else if (!principal.isPlatformAdmin && !principal.teamIds.includes(teamId))
    throw new ApiError(404, 'not-found', 'No such team.');
  const session = await findSessionTeam(deps.db, sessionId);
  if (!session || session.team_id !== teamId)
    throw new ApiError(404, 'not-found', 'No such session.');
  if (!session.ended_at)
    throw new ApiError(409, 'conflict', 'The session is still running; end it first.');
  // A rewrite now would replace the stored export with one that lacks the deleted history.
  if (session.history_purged_at) throw new ApiError(409, 'conflict', purgedMessage);
  if (by === 'team-member') {
    // The end already queued it (a team that exports on end): its state is the answer.
    const current = await exportStateOf(deps.db, sessionId);
    if (current && current !== 'failed') return { state: current };
  }
  await requestExport(deps.db, { id: sessionId, teamId });
  // A job id of its own: the end's job (`export-<id>`) may be kept as completed or failed.
  await queueExport(deps, sessionId, `export-${sessionId}-${Date.now()}`).catch(
    async (error: unknown) => {
      // Not queued after all (Redis away): the page must not say "queued" for ever.
      await markExportNotQueued(deps.db, sessionId, 'The export could not be queued; try again.');
      throw error;
    },
  );
  await recordAudit(deps.db, {
    actorUserId: principal.userId,
    action: 'session.export-requested',
    subject: sessionId,
    detail: { sessionId },
    teamId,
    ip,
  });
  return { state: 'queued' };
}
