import type { Database } from '@locus/db';
import { sql } from 'kysely';

/** The domain of an address, lower-cased (everything after the last @). */
const domainOf = (column: string) =>
  sql<string>`lower(substring(${sql.ref(column)} from '@([^@]*)$'))`;

/** Registered with an agency that is not listed: join-unlisted (no PSAP, a typed agency name). */
const unlistedAgency = sql<boolean>`(u.registration_completed_at is not null and u.psap_id is null and u.company_name is not null)`;

/** The address's domain is not in `cleared_email_domains`. */
const domainNotCleared = sql<boolean>`not exists (select 1 from cleared_email_domains d where d.domain = ${domainOf('u.email')})`;

/**
 * Who waits for the platform owner: a confirmed address (an unconfirmed one may be a typo or a
 * duplicate registration, and cannot locate anyway), no decision yet, not a coast-guard applicant
 * (they have their own approval), and either an uncleared domain (even on a team: a team admin
 * may invite a personal address, which still cannot locate until the owner approves it), or an
 * unlisted agency and no team yet.
 */
const waiting = sql<boolean>`(
  u.email_confirmed_at is not null
  and u.verification_status is null
  and u.uscg_status is null
  and (
    ${domainNotCleared}
    or (${unlistedAgency} and not exists (select 1 from team_members m where m.user_id = u.id))
  )
)`;

export interface WaitingUserRow {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone_number: string | null;
  domain: string;
  created_at: Date;
  company_name: string | null;
  agency_name: string | null;
  unlisted_agency: boolean;
  domain_not_cleared: boolean;
}

function waitingQuery(db: Database) {
  return db
    .selectFrom('users as u')
    .leftJoin('psaps as p', 'p.id', 'u.psap_id')
    .select([
      'u.id',
      'u.first_name',
      'u.last_name',
      'u.email',
      'u.phone_number',
      'u.created_at',
      'u.company_name',
      'p.name as agency_name',
      domainOf('u.email').as('domain'),
      unlistedAgency.as('unlisted_agency'),
      domainNotCleared.as('domain_not_cleared'),
    ]);
}

/** One page of the queue, oldest first (then by id, so a row is never on two pages). */
export async function listWaitingUsers(
  db: Database,
  page: { limit: number; offset: number },
): Promise<{ rows: WaitingUserRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    waitingQuery(db)
      .where(waiting)
      .orderBy('u.created_at')
      .orderBy('u.id')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('users as u')
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .where(waiting)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** Whether the user exists, and whether they are waiting now; locks their row until the end. */
export async function lockCandidate(
  trx: Database,
  userId: string,
): Promise<{ row: WaitingUserRow; waiting: boolean } | undefined> {
  const locked = await trx
    .selectFrom('users')
    .select('id')
    .where('id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
  if (!locked) return undefined;
  const row = await waitingQuery(trx)
    .select(waiting.as('waiting'))
    .where('u.id', '=', userId)
    .executeTakeFirstOrThrow();
  const { waiting: isWaiting, ...rest } = row as WaitingUserRow & { waiting: boolean };
  return { row: rest, waiting: isWaiting };
}

export async function listAttachableTeams(db: Database) {
  return db
    .selectFrom('teams')
    .select(['id', 'team_name', 'is_active'])
    .orderBy('team_name')
    .orderBy('id')
    .execute();
}

export async function findTeamName(db: Database, teamId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('teams')
    .select('team_name')
    .where('id', '=', teamId)
    .executeTakeFirst();
  return row?.team_name;
}

/** A new active team at basic level (no permission levels); undefined when the name is taken, in any case. */
export async function insertBasicTeam(db: Database, teamName: string): Promise<string | undefined> {
  const row = await db
    .insertInto('teams')
    .values({ team_name: teamName, is_active: true, permission_levels: [] })
    // No conflict target: names are unique ignoring case (index teams_name_ci) as well.
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

export async function addTeamMember(
  db: Database,
  member: { teamId: string; userId: string; role: 'admin' | 'member' },
): Promise<void> {
  await db
    .insertInto('team_members')
    .values({ team_id: member.teamId, user_id: member.userId, role: member.role })
    // Approving someone already on that team (an invited address on an uncleared domain)
    // keeps the role their team admin gave them.
    .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
    .execute();
}

/**
 * Records the decision on the user. Approval completes their registration too: choosing the
 * team is what an agency's registration would have done (as for users a team admin enrolls).
 */
export async function recordDecision(
  db: Database,
  decision: {
    userId: string;
    status: 'approved' | 'rejected';
    decidedBy: string;
    reason: string | null;
  },
): Promise<void> {
  await db
    .updateTable('users')
    .set({
      verification_status: decision.status,
      verified_at: sql<Date>`now()`,
      verified_by: decision.decidedBy,
      verification_reason: decision.reason,
      updated_at: sql<Date>`now()`,
      ...(decision.status === 'approved'
        ? { registration_completed_at: sql<Date>`coalesce(registration_completed_at, now())` }
        : {}),
    })
    .where('id', '=', decision.userId)
    .execute();
}

export async function listClearedDomains(db: Database) {
  return db
    .selectFrom('cleared_email_domains')
    .select(['domain', 'created_at'])
    .orderBy('domain')
    .execute();
}

/** Undefined when the domain is cleared already. */
export async function insertClearedDomain(db: Database, domain: string) {
  return db
    .insertInto('cleared_email_domains')
    .values({ domain })
    .onConflict((oc) => oc.column('domain').doNothing())
    .returning(['domain', 'created_at'])
    .executeTakeFirst();
}

/** Whether it was there. */
export async function deleteClearedDomain(db: Database, domain: string): Promise<boolean> {
  const row = await db
    .deleteFrom('cleared_email_domains')
    .where('domain', '=', domain)
    .returning('domain')
    .executeTakeFirst();
  return row !== undefined;
}
