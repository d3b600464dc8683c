import type { UserSort } from '@locus/contract';
import type { Database, DB } from '@locus/db';
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { likePattern } from '../psap/repo';

/** Which users a list holds; every field narrows it. */
export interface UserFilter {
  /** Members of at least one of these teams; undefined: everyone (platform admins). */
  teamIds?: readonly string[];
  /** First name, last name, full name or e-mail contains it, ignoring case. */
  search?: string;
  /** Registered within the last this many days. */
  registeredWithinDays?: number;
  /**
   * Registered with an agency that is not listed (join-unlisted stores no agency and the name
   * they typed as `company_name`) and not yet on any team.
   */
  unlistedAgency?: boolean;
}

export interface UserOrder {
  sort: UserSort;
  direction: 'asc' | 'desc';
}

export interface UserListRow {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  company_name: string | null;
  phone_number: string | null;
  is_admin: boolean;
  email_confirmed_at: Date | null;
  created_at: Date;
  last_sign_in_at: Date | null;
}

type UsersEb = ExpressionBuilder<DB & { u: DB['users'] }, 'u'>;

// The newest sign-in: every sign-in starts an auth session.
const lastSignIn = sql<Date | null>`(select max(s.created_at) from auth_sessions s where s.user_id = u.id)`;

function matches(eb: UsersEb, filter: UserFilter): Expression<SqlBool> {
  const conditions: Expression<SqlBool>[] = [];
  if (filter.teamIds !== undefined) {
    const teamIds = filter.teamIds;
    conditions.push(
      teamIds.length === 0
        ? sql<boolean>`false`
        : eb.exists(
            eb
              .selectFrom('team_members as m')
              .select(sql`1`.as('one'))
              .whereRef('m.user_id', '=', 'u.id')
              .where('m.team_id', 'in', teamIds),
          ),
    );
  }
  if (filter.search) {
    const pattern = likePattern(filter.search);
    conditions.push(
      eb.or([
        eb(sql`lower(u.first_name)`, 'like', pattern),
        eb(sql`lower(u.last_name)`, 'like', pattern),
        eb(sql`lower(u.first_name || ' ' || u.last_name)`, 'like', pattern),
        eb(sql`lower(u.email)`, 'like', pattern),
      ]),
    );
  }
  if (filter.registeredWithinDays !== undefined) {
    conditions.push(
      eb(
        'u.created_at',
        '>=',
        sql<Date>`now() - make_interval(days => ${filter.registeredWithinDays})`,
      ),
    );
  }
  if (filter.unlistedAgency) {
    conditions.push(
      eb.and([
        eb('u.psap_id', 'is', null),
        eb('u.company_name', 'is not', null),
        eb('u.registration_completed_at', 'is not', null),
        eb('u.uscg_status', 'is', null),
        // A rejected applicant is done with; approved ones are on a team.
        eb.or([
          eb('u.verification_status', 'is', null),
          eb('u.verification_status', '<>', 'rejected'),
        ]),
        eb.not(
          eb.exists(
            eb
              .selectFrom('team_members as m')
              .select(sql`1`.as('one'))
              .whereRef('m.user_id', '=', 'u.id'),
          ),
        ),
      ]),
    );
  }
  return eb.and(conditions);
}

/** One page of users and how many match in all. The order always ends with the id. */
export async function findUsersPage(
  db: Database,
  filter: UserFilter,
  order: UserOrder,
  page: { page: number; pageSize: number },
): Promise<{ rows: UserListRow[]; total: number }> {
  const dir = order.direction === 'desc' ? sql`desc` : sql`asc`;
  const orderBy = {
    name: sql`lower(u.last_name) ${dir}, lower(u.first_name) ${dir}`,
    email: sql`lower(u.email) ${dir}`,
    createdAt: sql`u.created_at ${dir}`,
    // Never signed in sorts after everyone either way.
    lastSignInAt: sql`last_sign_in_at ${dir} nulls last`,
  }[order.sort];
  const [rows, count] = await Promise.all([
    userRows(db)
      .where((eb) => matches(eb, filter))
      .orderBy(sql`${orderBy}, u.id ${dir}`)
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
    db
      .selectFrom('users as u')
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .where((eb) => matches(eb, filter))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** A user's row as every admin list and the detail show it. */
function userRows(db: Database) {
  return db
    .selectFrom('users as u')
    .select([
      'u.id',
      'u.first_name',
      'u.last_name',
      'u.email',
      'u.company_name',
      'u.phone_number',
      'u.is_admin',
      'u.email_confirmed_at',
      'u.created_at',
    ])
    .select(lastSignIn.as('last_sign_in_at'));
}

export async function findUserRow(db: Database, id: string): Promise<UserListRow | undefined> {
  return userRows(db).where('u.id', '=', id).executeTakeFirst();
}

export interface UserTeamRow {
  user_id: string;
  team_id: string;
  team_name: string;
  role: string;
  is_platform_owner: boolean;
}

/** The teams of these users (only those among `teamIds`, unless undefined), in joining order. */
export async function teamsOfUsers(
  db: Database,
  userIds: readonly string[],
  teamIds: readonly string[] | undefined,
): Promise<UserTeamRow[]> {
  if (userIds.length === 0 || teamIds?.length === 0) return [];
  let query = db
    .selectFrom('team_members as m')
    .innerJoin('teams as t', 't.id', 'm.team_id')
    .select(['m.user_id', 'm.team_id', 't.team_name', 'm.role', 't.is_platform_owner'])
    .where('m.user_id', 'in', userIds)
    .orderBy('m.created_at')
    .orderBy('t.team_name');
  if (teamIds !== undefined) query = query.where('m.team_id', 'in', teamIds);
  return query.execute();
}

/** Whether each user is an admin on the platform owner's team (whatever the caller may see). */
export async function platformAdminIds(
  db: Database,
  userIds: readonly string[],
): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('users as u')
    .innerJoin('team_members as m', 'm.user_id', 'u.id')
    .innerJoin('teams as t', 't.id', 'm.team_id')
    .select('u.id')
    .where('u.id', 'in', userIds)
    .where('u.is_admin', '=', true)
    .where('t.is_platform_owner', '=', true)
    .execute();
  return new Set(rows.map((row) => row.id));
}

export async function teamExists(db: Database, teamId: string): Promise<boolean> {
  const row = await db.selectFrom('teams').select('id').where('id', '=', teamId).executeTakeFirst();
  return row !== undefined;
}
