import { hash } from '@node-rs/argon2';
import { sql } from 'kysely';
import type { Database } from '../connection';
import { seedDemoAgencies } from '../psap/repo';
import {
  DEMO_PASSWORD,
  demoCallLists,
  demoClearedDomains,
  demoExtraUsers,
  demoNewDispatchers,
  demoOverwatchGroups,
  demoTeams,
  demoUsers,
} from './demo-data';
import { seedDemoHistory } from './demo-history';

/** argon2id with OWASP's baseline parameters (19 MiB, 2 passes). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
}

export interface SeedReport {
  agencies: number;
  teamsCreated: number;
  usersCreated: number;
  callListsCreated: number;
  overwatchGroupsCreated: number;
  /** Tracking sessions of generated history added (`history: true`), else 0. */
  historySessions: number;
}

export interface SeedOptions {
  /**
   * Adds 90 days of generated history to the demo teams (seed/demo-history.ts), for the metrics
   * screens of a fresh `npm start`. Off unless asked: tests assert exact numbers over rows they
   * insert themselves, on the days they choose.
   */
  history?: boolean;
}

/**
 * Creates the demo data; running it again changes nothing (and keeps passwords the demo users
 * may have changed). Refuses to run in production.
 */
export async function seedDemo(
  db: Database,
  env: string | undefined = process.env.NODE_ENV,
  options: SeedOptions = {},
): Promise<SeedReport> {
  if (env === 'production') throw new Error('The demo seed never runs with NODE_ENV=production.');
  const agencies = await seedDemoAgencies(db);
  return db.transaction().execute(async (trx) => {
    const teams = await trx
      .insertInto('teams')
      .values(
        demoTeams.map((team) => ({
          team_name: team.teamName,
          is_platform_owner: team.isPlatformOwner,
          permission_levels: [...team.permissionLevels],
          export_on_end: team.exportOnEnd,
          record_media: team.recordMedia,
          time_zone: team.timeZone,
        })),
      )
      .onConflict((oc) => oc.column('team_name').doNothing())
      .returning('id')
      .execute();
    const teamIds = new Map(
      (await trx.selectFrom('teams').select(['id', 'team_name']).execute()).map((team) => [
        team.team_name,
        team.id,
      ]),
    );
    const agencyIds = new Map(
      (await trx.selectFrom('psaps').select(['id', 'name']).execute()).map((agency) => [
        agency.name,
        agency.id,
      ]),
    );
    const existing = new Set(
      (
        await trx
          .selectFrom('users')
          .select(sql<string>`lower(email)`.as('email'))
          .where('email_confirmed_at', 'is not', null)
          .execute()
      ).map((user) => user.email),
    );
    const missing = demoUsers.filter((user) => !existing.has(user.email));
    // Any account for the address, confirmed or not: an invited person who has not confirmed
    // yet is still there, and must not get a second account.
    const anyAccount = new Set(
      (
        await trx
          .selectFrom('users')
          .select(sql<string>`lower(email)`.as('email'))
          .execute()
      ).map((user) => user.email),
    );
    const missingExtras = demoExtraUsers.filter((user) => !anyAccount.has(user.email));
    const passwordHash =
      missing.length + missingExtras.length > 0 ? await hashPassword(DEMO_PASSWORD) : '';
    for (const user of missing) {
      const { id } = await trx
        .insertInto('users')
        .values({
          email: user.email,
          first_name: user.firstName,
          last_name: user.lastName,
          password_hash: passwordHash,
          email_confirmed_at: new Date(),
          registration_completed_at: new Date(),
          is_admin: user.isAdmin,
          psap_id: agencyIds.get(user.agency) ?? null,
          // The documented accounts have used Locus before: the dashboard's tour is for the
          // new dispatchers (demoNewDispatchers), and browser tests start from a quiet console.
          has_seen_walkthrough: true,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('team_members')
        .values({ team_id: teamIds.get(user.team)!, user_id: id, role: user.role })
        .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
        .execute();
    }
    await insertExtraUsers(trx, missingExtras, { passwordHash, teamIds, agencyIds });
    await trx
      .insertInto('cleared_email_domains')
      .values(demoClearedDomains.map((domain) => ({ domain })))
      .onConflict((oc) => oc.column('domain').doNothing())
      .execute();
    const callListsCreated = await seedCallLists(trx, teamIds);
    const overwatchGroupsCreated = await seedOverwatchGroups(trx, teamIds);
    const history = options.history ? await seedDemoHistory(trx) : null;
    return {
      agencies,
      teamsCreated: teams.length,
      usersCreated: missing.length + missingExtras.length,
      callListsCreated,
      overwatchGroupsCreated,
      historySessions: history?.tracking_sessions ?? 0,
    };
  });
}

/**
 * The further fictional users, each registered `daysAgo` days ago (their team membership too),
 * so that lists of new users and their order mean something.
 */
async function insertExtraUsers(
  db: Database,
  users: typeof demoExtraUsers,
  known: { passwordHash: string; teamIds: Map<string, string>; agencyIds: Map<string, number> },
): Promise<void> {
  const newDispatchers = new Set<string>(demoNewDispatchers);
  for (const user of users) {
    const registeredAt = sql<Date>`now() - make_interval(days => ${user.daysAgo})`;
    const { id } = await db
      .insertInto('users')
      .values({
        email: user.email,
        first_name: user.firstName,
        last_name: user.lastName,
        password_hash: known.passwordHash,
        email_confirmed_at: user.emailConfirmed ? registeredAt : null,
        // Team members were enrolled by their team admin (nothing left to complete); the
        // people waiting for verification completed their profile themselves.
        registration_completed_at: registeredAt,
        psap_id: user.agency === null ? null : (known.agencyIds.get(user.agency) ?? null),
        company_name: user.companyName ?? null,
        has_seen_walkthrough: user.emailConfirmed && !newDispatchers.has(user.email),
        created_at: registeredAt,
        updated_at: registeredAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (user.team === null) continue;
    await db
      .insertInto('team_members')
      .values({
        team_id: known.teamIds.get(user.team)!,
        user_id: id,
        role: user.role,
        created_at: registeredAt,
      })
      .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
      .execute();
  }
}

/**
 * The demo call lists. A list that exists (by name, ignoring case) is left as it is, numbers
 * and all: someone may have edited it since.
 */
async function seedCallLists(db: Database, teamIds: Map<string, string>): Promise<number> {
  let created = 0;
  for (const list of demoCallLists) {
    const teamId = teamIds.get(list.team)!;
    const inserted = await db
      .insertInto('call_lists')
      .values({ team_id: teamId, name: list.name })
      .onConflict((oc) => oc.expression(sql`team_id, lower(name)`).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) continue;
    created += 1;
    await db
      .insertInto('call_list_numbers')
      .values(
        list.numbers.map((entry) => ({
          call_list_id: inserted.id,
          phone_number: entry.phoneNumber,
          label: entry.label,
        })),
      )
      .onConflict((oc) => oc.columns(['call_list_id', 'phone_number']).doNothing())
      .execute();
  }
  return created;
}

/**
 * The demo Overwatch groups. A group that exists (its team's, by name ignoring case, archived or
 * not) is left as it is: someone may have edited it since. Group names are not unique, so the
 * check holds a transaction lock that keeps two seeds from both adding it.
 */
async function seedOverwatchGroups(db: Database, teamIds: Map<string, string>): Promise<number> {
  await sql`select pg_advisory_xact_lock(hashtext('locus-seed-overwatch-groups'))`.execute(db);
  let created = 0;
  for (const group of demoOverwatchGroups) {
    const teamId = teamIds.get(group.team)!;
    const existing = await db
      .selectFrom('overwatch_groups')
      .select('id')
      .where('team_id', '=', teamId)
      .where(sql`lower(name)`, '=', group.name.toLowerCase())
      .executeTakeFirst();
    if (existing) continue;
    const { id } = await db
      .insertInto('overwatch_groups')
      .values({ team_id: teamId, name: group.name, language: group.language })
      .returning('id')
      .executeTakeFirstOrThrow();
    created += 1;
    await db
      .insertInto('overwatch_group_members')
      .values(
        group.members.map((member, position) => ({
          group_id: id,
          phone_number: member.phoneNumber,
          label: member.label,
          position,
        })),
      )
      .execute();
    await db
      .insertInto('overwatch_geofences')
      .values(
        group.geofences.map((geofence, position) => ({
          group_id: id,
          name: geofence.name,
          polygon: JSON.stringify(geofence.polygon),
          position,
        })),
      )
      .execute();
  }
  return created;
}
