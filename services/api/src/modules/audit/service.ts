import {
  auditCsvColumns,
  auditExportMaxRows,
  type AuditAction,
  type AuditFilters,
  type AuditQuery,
  type AuditRow,
} from '@locus/contract';
import type { Database } from '@locus/db';
import { ApiError } from '../../http/errors';
import type { Principal } from '../auth/guard';
import { csvLine } from './csv';
import {
  countAuditRows,
  listAuditActors,
  listAuditRows,
  teamExists,
  type AuditEntry,
  type AuditRowFilter,
  type AuditScope,
  type AuditTrailRow,
} from './repo';

// Every action the API writes is one the contract (and so the screen's filter) knows.
const everyActionListed: AuditEntry['action'] extends AuditAction ? true : never = true;
void everyActionListed;

/** Platform admins read every row; a team admin the rows of the teams they administer. */
function scopeOf(principal: Principal): AuditScope {
  return principal.isPlatformAdmin
    ? { all: true }
    : { all: false, teamIds: principal.adminTeamIds };
}

const DAY_MS = 24 * 3600 * 1000;
const isCalendarDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

/**
 * The filters as a query: a calendar day counts whole (UTC); `teamId` must be a team the reader
 * administers (or any existing team for a platform admin), else 404 as for a team that does not
 * exist, so another team's trail reveals nothing, not even that the team exists.
 */
async function resolveFilter(
  db: Database,
  principal: Principal,
  filters: AuditFilters,
): Promise<AuditRowFilter> {
  if (filters.teamId !== undefined) {
    const visible = principal.isPlatformAdmin
      ? await teamExists(db, filters.teamId)
      : principal.adminTeamIds.includes(filters.teamId);
    if (!visible) throw new ApiError(404, 'not-found', 'No such team.');
  }
  const from = filters.from === undefined ? undefined : new Date(filters.from);
  const before =
    filters.to === undefined
      ? undefined
      : isCalendarDay(filters.to)
        ? new Date(new Date(filters.to).getTime() + DAY_MS)
        : new Date(new Date(filters.to).getTime() + 1);
  for (const [field, date] of [
    ['from', from],
    ['to', before],
  ] as const)
    if (date !== undefined && Number.isNaN(date.getTime()))
      throw new ApiError(400, 'validation-failed', 'The query string is not valid.', [
        { path: field, message: 'Not a date' },
      ]);
  return {
    actorUserId: filters.userId,
    action: filters.action,
    from,
    before,
    teamId: filters.teamId,
  };
}

function toAuditRow(row: AuditTrailRow): AuditRow {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor:
      row.actor_id === null
        ? null
        : {
            id: row.actor_id,
            name: `${row.actor_first_name ?? ''} ${row.actor_last_name ?? ''}`.trim(),
            email: row.actor_email ?? '',
          },
    action: row.action,
    teamId: row.team_id,
    teamName: row.team_name,
    subject: row.subject,
    subjectUser:
      row.subject_email === null
        ? null
        : {
            name: `${row.subject_first_name ?? ''} ${row.subject_last_name ?? ''}`.trim(),
            email: row.subject_email,
          },
    detail:
      typeof row.detail === 'object' && row.detail !== null && !Array.isArray(row.detail)
        ? (row.detail as Record<string, unknown>)
        : {},
    ip: row.ip,
  };
}

export async function auditTrail(db: Database, principal: Principal, query: AuditQuery) {
  const scope = scopeOf(principal);
  const filter = await resolveFilter(db, principal, query);
  const [rows, total] = await Promise.all([
    listAuditRows(db, scope, filter, {
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    }),
    countAuditRows(db, scope, filter),
  ]);
  return { items: rows.map(toAuditRow), total, page: query.page, pageSize: query.pageSize };
}

/** The filtered trail as CSV, newest first, at most `auditExportMaxRows` rows. */
export async function auditCsv(
  db: Database,
  principal: Principal,
  filters: AuditFilters,
): Promise<string> {
  const filter = await resolveFilter(db, principal, filters);
  const rows = await listAuditRows(db, scopeOf(principal), filter, {
    limit: auditExportMaxRows,
    offset: 0,
  });
  const lines = [csvLine(auditCsvColumns)];
  for (const row of rows.map(toAuditRow)) {
    lines.push(
      csvLine([
        row.at,
        row.actor?.name ?? '',
        row.actor?.email ?? '',
        row.action,
        row.teamName ?? '',
        row.subject,
        row.ip ?? '',
        Object.keys(row.detail).length === 0 ? '' : JSON.stringify(row.detail),
      ]),
    );
  }
  return lines.join('');
}

export async function auditActors(db: Database, principal: Principal) {
  const rows = await listAuditActors(db, scopeOf(principal), 1_000);
  return rows.map((row) => ({
    id: row.id,
    name: `${row.first_name} ${row.last_name}`,
    email: row.email,
  }));
}
