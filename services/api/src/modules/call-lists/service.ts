import {
  callListLimits,
  PhoneNumber,
  type CallList,
  type CallListEntry,
  type CallListUser,
  type CallListWithTeam,
} from '@locus/contract';
import type { Database } from '@locus/db';
import { ApiError } from '../../http/errors';
import type { Principal } from '../auth/guard';
import { requireLocatingAllowed } from '../location/access';
import {
  activeTeamIds,
  attachedUserPhones,
  attachedUsers,
  attachUsers,
  countNumbers,
  deleteList,
  deleteNumbers,
  detachUsers,
  findList,
  hasNumber,
  insertList,
  isDuplicateName,
  listsOfTeam,
  listTeams,
  lockList,
  numbersOf,
  renameList,
  searchLists,
  teamExists,
  teamMembers,
  upsertNumbers,
  type CallListRow,
  type CallListUserRow,
  type EntryRow,
} from './repo';

/**
 * SPEC.md §6 for call lists: members of a list's team read it, admins of that team (and platform
 * admins) change it. Whatever the caller may not read answers 404, so that another team's list
 * is indistinguishable from one that does not exist. A deactivated team's lists answer its
 * members 403 `no-active-team` (`requireActiveTeams`).
 */
const canRead = (principal: Principal, teamId: string) =>
  principal.isPlatformAdmin || principal.teamIds.includes(teamId);
const canWrite = (principal: Principal, teamId: string) =>
  principal.isPlatformAdmin || principal.adminTeamIds.includes(teamId);

const listNotFound = () => new ApiError(404, 'not-found', 'No such call list.');
const teamNotFound = () => new ApiError(404, 'not-found', 'No such team.');
const forbidden = () =>
  new ApiError(403, 'forbidden', 'Only admins of this team can change its call lists.');
const duplicateName = () =>
  new ApiError(409, 'conflict', 'Your team already has a call list with this name.');
const teamInactive = () =>
  new ApiError(
    403,
    'no-active-team',
    'This team is not active: its call lists cannot be read or changed. Ask your agency administrator.',
  );

/**
 * A deactivated team's members no longer read or change its lists (its stored phone numbers),
 * as they no longer locate for it (`requireLocatingAllowed`); platform admins still may.
 */
async function requireActiveTeams(
  db: Database,
  principal: Principal,
  teamIds: readonly string[],
): Promise<void> {
  if (principal.isPlatformAdmin) return;
  const active = await activeTeamIds(db, [...new Set(teamIds)]);
  if (teamIds.some((teamId) => !active.has(teamId))) throw teamInactive();
}

function toCallList(row: Omit<CallListRow, 'number_count'> & { number_count?: number }): CallList {
  return {
    id: row.id,
    callListName: row.name,
    teamId: row.team_id,
    numberCount: row.number_count ?? 0,
  };
}

function toUser(row: CallListUserRow): CallListUser {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    phoneNumber: row.phone_number,
  };
}

const toEntry = (row: EntryRow): CallListEntry => ({
  phoneNumber: row.phone_number,
  label: row.label,
});

async function readableTeam(db: Database, principal: Principal, teamId: string): Promise<void> {
  if (!canRead(principal, teamId) || !(await teamExists(db, teamId))) throw teamNotFound();
  await requireActiveTeams(db, principal, [teamId]);
}

async function readableList(db: Database, principal: Principal, id: string) {
  const list = await findList(db, id);
  if (!list || !canRead(principal, list.team_id)) throw listNotFound();
  await requireActiveTeams(db, principal, [list.team_id]);
  return list;
}

/**
 * Runs a change to a list in a transaction that holds the list's row lock, so that changes to
 * one list never interleave and a list deleted meanwhile answers 404.
 */
async function changeList<T>(
  db: Database,
  principal: Principal,
  id: string,
  change: (trx: Database, list: { id: string; team_id: string; name: string }) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const list = await lockList(trx, id);
    if (!list || !canRead(principal, list.team_id)) throw listNotFound();
    await requireActiveTeams(trx, principal, [list.team_id]);
    if (!canWrite(principal, list.team_id)) throw forbidden();
    return change(trx, list);
  });
}

/** A user's phone number as E.164, or null when it is not a valid one. */
function validPhone(value: string | null): string | null {
  if (value === null) return null;
  const parsed = PhoneNumber.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** The lists that get-team-numbers would answer at least one number for. */
async function listsWithEntries(db: Database, listIds: readonly string[]): Promise<Set<string>> {
  const phones = await attachedUserPhones(db, listIds);
  return new Set(
    phones.filter((row) => validPhone(row.phone_number) !== null).map((row) => row.call_list_id),
  );
}

export async function teamCallLists(
  db: Database,
  principal: Principal,
  teamId: string,
): Promise<CallList[]> {
  await readableTeam(db, principal, teamId);
  return (await listsOfTeam(db, teamId)).map(toCallList);
}

/** The Tracking Lists modal: for those who may locate (see `requireLocatingAllowed`). */
export async function deployableCallLists(
  db: Database,
  principal: Principal,
  teamId: string,
): Promise<CallList[]> {
  await requireLocatingAllowed({ db }, principal);
  await readableTeam(db, principal, teamId);
  const lists = await listsOfTeam(db, teamId);
  const withUsers = await listsWithEntries(
    db,
    lists.filter((list) => list.number_count === 0).map((list) => list.id),
  );
  return lists.filter((list) => list.number_count > 0 || withUsers.has(list.id)).map(toCallList);
}

export async function callListWithTeam(
  db: Database,
  principal: Principal,
  id: string,
): Promise<CallListWithTeam> {
  const list = await readableList(db, principal, id);
  return { ...toCallList(list), teamName: list.team_name };
}

export async function callListUsers(
  db: Database,
  principal: Principal,
  id: string,
): Promise<CallListUser[]> {
  await readableList(db, principal, id);
  return (await attachedUsers(db, id)).map(toUser);
}

export async function callListNumbers(
  db: Database,
  principal: Principal,
  id: string,
): Promise<CallListEntry[]> {
  await readableList(db, principal, id);
  return (await numbersOf(db, [id])).map(toEntry);
}

/** The numbers a dispatcher is about to locate: for those who may locate. */
export async function numbersToLocate(
  db: Database,
  principal: Principal,
  listIds: readonly string[],
): Promise<CallListEntry[]> {
  await requireLocatingAllowed({ db }, principal);
  return deployNumbers(db, principal, listIds);
}

/**
 * What deploying these lists locates: their stored numbers and their attached users' valid phone
 * numbers, one entry per number, by number. A stored label wins over a user's name.
 */
export async function deployNumbers(
  db: Database,
  principal: Principal,
  listIds: readonly string[],
): Promise<CallListEntry[]> {
  const found = await listTeams(db, listIds);
  if (found.length !== listIds.length || found.some((list) => !canRead(principal, list.team_id)))
    throw listNotFound();
  await requireActiveTeams(
    db,
    principal,
    found.map((list) => list.team_id),
  );
  const entries = new Map<string, string | null>();
  for (const row of await numbersOf(db, listIds)) {
    const label = entries.get(row.phone_number) ?? null;
    entries.set(row.phone_number, label ?? row.label);
  }
  const users = (await attachedUserPhones(db, listIds))
    .map((row) => ({
      phoneNumber: validPhone(row.phone_number),
      name: `${row.first_name} ${row.last_name}`,
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const user of users) {
    if (user.phoneNumber === null) continue;
    const label = entries.get(user.phoneNumber) ?? null;
    entries.set(user.phoneNumber, label ?? user.name);
  }
  return [...entries]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([phoneNumber, label]) => ({ phoneNumber, label }));
}

export async function searchCallLists(
  db: Database,
  principal: Principal,
  term: string,
): Promise<CallList[]> {
  const teamIds = principal.isPlatformAdmin
    ? principal.teamIds
    : [...(await activeTeamIds(db, principal.teamIds))];
  return (await searchLists(db, teamIds, term, callListLimits.searchResults)).map(toCallList);
}

export async function createCallList(
  db: Database,
  principal: Principal,
  teamId: string,
  body: { callListName: string; phoneNumbers?: string[] | undefined },
): Promise<CallList> {
  await readableTeam(db, principal, teamId);
  if (!canWrite(principal, teamId)) throw forbidden();
  const numbers = [...new Set(body.phoneNumbers ?? [])];
  try {
    return await db.transaction().execute(async (trx) => {
      const list = await insertList(trx, teamId, body.callListName);
      await upsertNumbers(
        trx,
        list.id,
        numbers.map((phoneNumber) => ({ phoneNumber, label: null })),
      );
      return toCallList({ ...list, number_count: numbers.length });
    });
  } catch (error) {
    if (isDuplicateName(error)) throw duplicateName();
    throw error;
  }
}

export async function renameCallList(
  db: Database,
  principal: Principal,
  id: string,
  name: string,
): Promise<CallList> {
  try {
    await changeList(db, principal, id, (trx) => renameList(trx, id, name));
  } catch (error) {
    if (isDuplicateName(error)) throw duplicateName();
    throw error;
  }
  const list = await findList(db, id);
  if (!list) throw listNotFound();
  return toCallList(list);
}

export async function deleteCallList(
  db: Database,
  principal: Principal,
  id: string,
): Promise<void> {
  await changeList(db, principal, id, (trx) => deleteList(trx, id));
}

export async function addCallListNumber(
  db: Database,
  principal: Principal,
  id: string,
  entry: { phoneNumber: string; label: string | null },
): Promise<CallListEntry[]> {
  return changeList(db, principal, id, async (trx) => {
    if (
      !(await hasNumber(trx, id, entry.phoneNumber)) &&
      (await countNumbers(trx, id)) >= callListLimits.numbersPerList
    )
      throw new ApiError(
        409,
        'conflict',
        `A call list holds at most ${callListLimits.numbersPerList} numbers.`,
      );
    await upsertNumbers(trx, id, [{ phoneNumber: entry.phoneNumber, label: entry.label || null }]);
    return (await numbersOf(trx, [id])).map(toEntry);
  });
}

export async function removeCallListNumbers(
  db: Database,
  principal: Principal,
  id: string,
  phoneNumbers: readonly string[],
): Promise<CallListEntry[]> {
  return changeList(db, principal, id, async (trx) => {
    await deleteNumbers(trx, id, phoneNumbers);
    return (await numbersOf(trx, [id])).map(toEntry);
  });
}

export async function addCallListUsers(
  db: Database,
  principal: Principal,
  id: string,
  userIds: readonly string[],
): Promise<CallListUser[]> {
  return changeList(db, principal, id, async (trx, list) => {
    const members = await teamMembers(trx, list.team_id, userIds);
    if (members.length !== userIds.length)
      throw new ApiError(404, 'not-found', 'Only users of this list’s team can be attached.');
    await attachUsers(trx, id, userIds);
    return (await attachedUsers(trx, id)).map(toUser);
  });
}

export async function removeCallListUsers(
  db: Database,
  principal: Principal,
  id: string,
  userIds: readonly string[],
): Promise<CallListUser[]> {
  return changeList(db, principal, id, async (trx) => {
    await detachUsers(trx, id, userIds);
    return (await attachedUsers(trx, id)).map(toUser);
  });
}

/** The team's users, for attaching to its lists: team admins and platform admins. */
export async function attachableUsers(
  db: Database,
  principal: Principal,
  teamId: string,
): Promise<CallListUser[]> {
  await readableTeam(db, principal, teamId);
  if (!canWrite(principal, teamId)) throw forbidden();
  return (await teamMembers(db, teamId)).map(toUser);
}
