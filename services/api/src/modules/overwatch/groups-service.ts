import {
  normalisePhoneInput,
  OverwatchGroupInput,
  PhoneNumber,
  SmsLanguage,
  Movement,
  type OverwatchGroup,
  type OverwatchGroupSummary,
} from '@locus/contract';
import type { Database } from '@locus/db';
import type { ZodError } from 'zod';
import { ApiError, zodIssues } from '../../http/errors';
import { recordAudit, type AuditEntry } from '../audit/repo';
import type { Principal } from '../auth/guard';
import { overwatchTeamIds, requireOverwatchTeam } from './access';
import {
  findGroup,
  geofencesOf,
  insertGroup,
  listGroups,
  lockGroup,
  membersOf,
  replaceGeofences,
  replaceMembers,
  setArchived,
  updateGroup,
  type GroupRow,
  type MemberValues,
} from './groups-repo';

/** Who the request came from, for the audit trail. */
export interface Actor {
  principal: Principal;
  ip: string;
}

/**
 * Issue 14, SPEC.md §5/§6: Overwatch groups belong to a team. Who may manage them is Overwatch's
 * rule (`access.ts`): admins (the admin flag) and team admins of an active premiere-level team,
 * platform admins any such team's. A group of a team the caller is not a member of answers 404,
 * so that another agency's group is indistinguishable from one that does not exist; a
 * dispatcher of the team 403, a team without premiere 403.
 */
const groupNotFound = () => new ApiError(404, 'not-found', 'No such Overwatch group.');

async function requireGroupAccess(
  db: Database,
  principal: Principal,
  group: GroupRow | undefined,
): Promise<GroupRow> {
  if (!group || !(principal.isPlatformAdmin || principal.teamIds.includes(group.team_id)))
    throw groupNotFound();
  await requireOverwatchTeam(db, principal, group.team_id);
  return group;
}

/**
 * The body of a create or update. Parsed here rather than by `registerContract`, so that the 400
 * names the problem in its message too ("geofence 1 (“River”): The polygon crosses itself …"),
 * not only in `issues`: the form shows the message of a pasted geofence that was refused.
 */
export function parseGroupInput(body: unknown): ParsedInput {
  const parsed = OverwatchGroupInput.safeParse(body);
  if (!parsed.success) throw inputError(body, parsed.error);
  return parsed.data;
}

type ParsedInput = ReturnType<typeof OverwatchGroupInput.parse>;

function inputError(body: unknown, error: ZodError): ApiError {
  const issue = error.issues[0]!;
  const [field, index] = issue.path;
  let where = issue.path.join('.');
  if (field === 'geofences' && typeof index === 'number') {
    const name = geofenceName(body, index);
    where = `geofence ${index + 1}${name ? ` (“${name}”)` : ''}`;
  } else if (field === 'members' && typeof index === 'number') {
    where = `number ${index + 1}`;
  }
  const message = where ? `${where}: ${issue.message}` : issue.message;
  return new ApiError(
    400,
    'validation-failed',
    `The request body is not valid: ${message}`,
    zodIssues(error),
  );
}

function geofenceName(body: unknown, index: number): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const geofences = (body as { geofences?: unknown }).geofences;
  if (!Array.isArray(geofences)) return null;
  const geofence: unknown = geofences[index];
  if (typeof geofence !== 'object' || geofence === null) return null;
  const name = (geofence as { name?: unknown }).name;
  return typeof name === 'string' && name.trim() ? name.trim().slice(0, 80) : null;
}

/**
 * Numbers as E.164: +1 when there is no leading + (like the dashboard's typed numbers);
 * duplicates merged where they first appear, keeping the first label given. An invalid number
 * is a 400 that names it.
 */
function normaliseMembers(members: ParsedInput['members']): MemberValues[] {
  const merged = new Map<string, string | null>();
  const invalid: { index: number; typed: string }[] = [];
  members.forEach((member, index) => {
    const parsed = PhoneNumber.safeParse(normalisePhoneInput(member.phoneNumber));
    if (!parsed.success) {
      invalid.push({ index, typed: member.phoneNumber });
      return;
    }
    const label = member.label || null;
    if (!merged.has(parsed.data)) merged.set(parsed.data, label);
    else if (merged.get(parsed.data) === null) merged.set(parsed.data, label);
  });
  if (invalid.length > 0) {
    const named = invalid.map(({ typed }) => `“${typed}”`).join(', ');
    throw new ApiError(
      400,
      'validation-failed',
      invalid.length === 1
        ? `${named} is not a valid phone number.`
        : `These are not valid phone numbers: ${named}.`,
      invalid.map(({ index, typed }) => ({
        path: `members.${index}.phoneNumber`,
        message: `“${typed}” is not a valid phone number.`,
      })),
    );
  }
  return [...merged].map(([phoneNumber, label]) => ({ phoneNumber, label }));
}

function valuesOf(input: ParsedInput) {
  return {
    name: input.name,
    language: input.language,
    staleAfterSeconds: input.staleAfterSeconds,
    movement: input.movement,
    speedMps: input.speedMps,
    maxSpeedMps: input.maxSpeedMps,
  };
}

const iso = (date: Date) => date.toISOString();

async function readGroup(db: Database, id: string): Promise<OverwatchGroup> {
  const group = await findGroup(db, id);
  if (!group) throw groupNotFound();
  const [members, geofences] = await Promise.all([membersOf(db, id), geofencesOf(db, id)]);
  return {
    id: group.id,
    teamId: group.team_id,
    teamName: group.team_name,
    name: group.name,
    language: SmsLanguage.parse(group.language),
    members: members.map((member) => ({
      phoneNumber: member.phone_number,
      label: member.label,
      optedOut: member.opted_out,
    })),
    geofences: geofences.map((geofence) => ({
      id: geofence.id,
      name: geofence.name,
      polygon: geofence.polygon as OverwatchGroup['geofences'][number]['polygon'],
    })),
    staleAfterSeconds: group.stale_after_seconds,
    movement: Movement.parse(group.movement),
    speedMps: group.speed_mps,
    maxSpeedMps: group.max_speed_mps,
    archivedAt: group.archived_at && iso(group.archived_at),
    createdAt: iso(group.created_at),
    updatedAt: iso(group.updated_at),
  };
}

function audit(
  db: Database,
  actor: Actor,
  action: AuditEntry['action'],
  group: { id: string; team_id: string; name: string },
  detail: AuditEntry['detail'] = {},
): Promise<void> {
  return recordAudit(db, {
    actorUserId: actor.principal.userId,
    action,
    subject: group.id,
    detail: { name: group.name, ...detail },
    teamId: group.team_id,
    ip: actor.ip,
  });
}

export async function listOverwatchGroups(
  db: Database,
  principal: Principal,
  archived: boolean,
): Promise<OverwatchGroupSummary[]> {
  // 403 for a dispatcher, or when none of the caller's teams has the premiere level.
  await requireOverwatchTeam(db, principal);
  const rows = await listGroups(db, await overwatchTeamIds(db, principal), archived);
  return rows.map((row) => ({
    id: row.id,
    teamId: row.team_id,
    teamName: row.team_name,
    name: row.name,
    language: SmsLanguage.parse(row.language),
    archivedAt: row.archived_at && iso(row.archived_at),
    updatedAt: iso(row.updated_at),
    memberCount: row.member_count,
    optedOutCount: row.opted_out_count,
    geofenceCount: row.geofence_count,
  }));
}

export async function readOverwatchGroup(
  db: Database,
  principal: Principal,
  id: string,
): Promise<OverwatchGroup> {
  await requireGroupAccess(db, principal, await findGroup(db, id));
  return readGroup(db, id);
}

export async function createOverwatchGroup(
  db: Database,
  actor: Actor,
  body: unknown,
): Promise<OverwatchGroup> {
  const input = parseGroupInput(body);
  const team = await requireOverwatchTeam(db, actor.principal, input.teamId);
  const members = normaliseMembers(input.members);
  const id = await db.transaction().execute(async (trx) => {
    const id = await insertGroup(trx, team.id, actor.principal.userId, valuesOf(input));
    await replaceMembers(trx, id, members);
    // New geofences: ids sent with them are not this group's, so each gets a new one.
    await replaceGeofences(trx, id, input.geofences);
    await audit(
      trx,
      actor,
      'overwatch-group.created',
      { id, team_id: team.id, name: input.name },
      { memberCount: members.length, geofenceCount: input.geofences.length },
    );
    return id;
  });
  return readGroup(db, id);
}

export async function updateOverwatchGroup(
  db: Database,
  actor: Actor,
  id: string,
  body: unknown,
): Promise<OverwatchGroup> {
  const input = parseGroupInput(body);
  await db.transaction().execute(async (trx) => {
    const group = await requireGroupAccess(trx, actor.principal, await lockGroup(trx, id));
    if (input.teamId !== undefined && input.teamId !== group.team_id)
      throw new ApiError(400, 'validation-failed', 'A group cannot move to another team.', [
        { path: 'teamId', message: 'Must be the group’s own team.' },
      ]);
    const members = normaliseMembers(input.members);
    await updateGroup(trx, id, valuesOf(input));
    await replaceMembers(trx, id, members);
    await replaceGeofences(trx, id, input.geofences);
    await audit(
      trx,
      actor,
      'overwatch-group.updated',
      { id, team_id: group.team_id, name: input.name },
      { memberCount: members.length, geofenceCount: input.geofences.length },
    );
  });
  return readGroup(db, id);
}

/** Archives or restores a group; doing it again changes nothing (and is not audited again). */
export async function setOverwatchGroupArchived(
  db: Database,
  actor: Actor,
  id: string,
  archived: boolean,
): Promise<OverwatchGroup> {
  await db.transaction().execute(async (trx) => {
    const group = await requireGroupAccess(trx, actor.principal, await lockGroup(trx, id));
    if ((group.archived_at !== null) === archived) return;
    await setArchived(trx, id, archived);
    await audit(
      trx,
      actor,
      archived ? 'overwatch-group.archived' : 'overwatch-group.restored',
      group,
    );
  });
  return readGroup(db, id);
}
