import {
  DEMO_PASSWORD,
  demoExtraUsers,
  demoLockedUsers,
  demoNewDispatchers,
  demoUsers,
  demoWaitingForVerification,
  lockDemoAccounts,
  migrateDown,
  migrateToLatest,
  seedDemo,
} from '@locus/db';
import { generatedTypesPath, generateTypes } from '@locus/db/codegen';
import { verify } from '@node-rs/argon2';
import { Redis } from 'ioredis';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignInLockout } from '../../services/api/src/modules/auth/lockout';
import { testRedisPrefix } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';
import { testEnvironment } from '../support/environment';

let database: TestDatabase;

beforeAll(async () => {
  database = await freshDatabase();
});

afterAll(async () => {
  await database?.drop();
});

describe('the schema', () => {
  it('matches the checked-in Kysely types (run `npm run db:types` after changing a migration)', () => {
    const fresh = generateTypes(database.url, join(tmpdir(), `locus-types-${process.pid}.ts`));
    expect(fresh).toBe(readFileSync(generatedTypesPath, 'utf8'));
  });

  it('migrates down and up again', async () => {
    const scratch = await freshDatabase();
    try {
      expect((await migrateDown(scratch.db)).length).toBe(1);
      expect(await migrateToLatest(scratch.db)).toHaveLength(1);
    } finally {
      await scratch.drop();
    }
  });
});

describe('the demo seed', () => {
  it('creates the documented accounts, teams and agencies, and changes nothing the second time', async () => {
    const first = await seedDemo(database.db, 'development');
    expect(first.usersCreated).toBe(demoUsers.length + demoExtraUsers.length);
    expect(first.callListsCreated).toBe(2);
    const second = await seedDemo(database.db, 'development');
    expect(second).toMatchObject({ usersCreated: 0, teamsCreated: 0, callListsCreated: 0 });

    const users = await database.db
      .selectFrom('users as u')
      .innerJoin('team_members as m', 'm.user_id', 'u.id')
      .innerJoin('teams as t', 't.id', 'm.team_id')
      .select([
        'u.email',
        'u.password_hash',
        'u.email_confirmed_at',
        'u.is_admin',
        'm.role',
        't.team_name',
        't.permission_levels',
        't.is_active',
        't.is_platform_owner',
      ])
      .orderBy('u.email')
      .execute();
    // The documented accounts are all there (the fictional extras beside them).
    const byEmail = new Map(users.map((user) => [user.email, user]));
    for (const documented of demoUsers) {
      const user = byEmail.get(documented.email);
      expect(user, documented.email).toMatchObject({
        role: documented.role,
        team_name: documented.team,
        is_admin: documented.isAdmin,
        is_active: true,
      });
      expect(user!.email_confirmed_at).not.toBeNull();
    }
    // Every seeded account, extras and the people waiting for verification too, shares the
    // demo password (one hash, computed once).
    const everyone = await database.db
      .selectFrom('users')
      .select(['email', 'password_hash'])
      .execute();
    expect(everyone).toHaveLength(demoUsers.length + demoExtraUsers.length);
    for (const hash of new Set(everyone.map((user) => user.password_hash))) {
      expect(await verify(hash, DEMO_PASSWORD)).toBe(true);
      expect(hash.startsWith('$argon2id$')).toBe(true);
    }
    expect(byEmail.get('owner@locus.test')).toMatchObject({
      is_admin: true,
      is_platform_owner: true,
    });
    expect(byEmail.get('teamadmin@demo-county.test')).toMatchObject({
      role: 'admin',
      team_name: 'Demo County 911',
      permission_levels: ['premiere', 'enterprise'],
    });
    expect(byEmail.get('dispatcher@demo-county.test')).toMatchObject({
      role: 'member',
      team_name: 'Demo County 911',
    });
    expect(byEmail.get('dispatcher2@demo-county.test')).toMatchObject({
      role: 'member',
      team_name: 'Demo County 911',
    });
    expect(byEmail.get('dispatcher@neighbour-county.test')).toMatchObject({
      role: 'member',
      team_name: 'Neighbouring County',
      permission_levels: [],
    });
    expect(byEmail.get('teamadmin@neighbour-county.test')).toMatchObject({
      role: 'admin',
      team_name: 'Neighbouring County',
      permission_levels: [],
    });

    const domains = await database.db
      .selectFrom('cleared_email_domains')
      .select('domain')
      .execute();
    expect(domains.map((row) => row.domain).sort()).toEqual([
      'demo-county.test',
      'locus.test',
      'neighbour-county.test',
    ]);
    const callLists = await database.db
      .selectFrom('call_lists as l')
      .innerJoin('teams as t', 't.id', 'l.team_id')
      .innerJoin('call_list_numbers as n', 'n.call_list_id', 'l.id')
      .select(['t.team_name', 'l.name', 'n.phone_number'])
      .orderBy('n.phone_number')
      .execute();
    expect(callLists).toEqual([
      ...['+12025550170', '+12025550171', '+12025550172'].map((phone_number) => ({
        team_name: 'Demo County 911',
        name: 'Search and Rescue volunteers',
        phone_number,
      })),
      ...['+12025550175', '+12025550176'].map((phone_number) => ({
        team_name: 'Demo County 911',
        name: 'Coast patrol boats',
        phone_number,
      })),
    ]);

    const agencies = await database.db.selectFrom('psaps').select(['state']).execute();
    expect(agencies.length).toBeGreaterThanOrEqual(24);
    expect(new Set(agencies.map((agency) => agency.state)).size).toBeGreaterThanOrEqual(5);
  });

  it('adds fictional users across the demo teams: admins and dispatchers, unconfirmed ones, registered over three months', async () => {
    const rows = await database.db
      .selectFrom('users as u')
      .leftJoin('team_members as m', 'm.user_id', 'u.id')
      .leftJoin('teams as t', 't.id', 'm.team_id')
      .select([
        'u.email',
        'u.email_confirmed_at',
        'u.created_at',
        'u.has_seen_walkthrough',
        'm.role',
        'm.created_at as joined_at',
        't.team_name',
      ])
      .where(
        'u.email',
        'in',
        demoExtraUsers.map((user) => user.email),
      )
      .execute();
    expect(rows).toHaveLength(demoExtraUsers.length);
    expect(rows.length).toBeGreaterThanOrEqual(28);
    const onTeam = rows.filter((row) => row.team_name !== null);
    for (const team of ['Demo County 911', 'Neighbouring County']) {
      const members = onTeam.filter((row) => row.team_name === team);
      expect(
        members.some((row) => row.role === 'admin'),
        team,
      ).toBe(true);
      expect(members.filter((row) => row.role === 'member').length, team).toBeGreaterThan(5);
      // Addresses on the team's own domain.
      const domain = team === 'Demo County 911' ? '@demo-county.test' : '@neighbour-county.test';
      expect(members.every((row) => row.email.endsWith(domain))).toBe(true);
    }
    // Enough for more than one page of a team's users.
    expect(onTeam.filter((row) => row.team_name === 'Demo County 911').length).toBeGreaterThan(15);
    expect(rows.filter((row) => row.email_confirmed_at === null).length).toBeGreaterThanOrEqual(3);
    // Registered over the last three months, each joining their team when they registered.
    const daysAgo = rows.map((row) => (Date.now() - row.created_at.getTime()) / 86_400_000);
    expect(Math.max(...daysAgo)).toBeGreaterThan(80);
    expect(Math.max(...daysAgo)).toBeLessThan(92);
    expect(Math.min(...daysAgo)).toBeLessThan(3);
    expect(
      new Set(rows.map((row) => row.created_at.toISOString().slice(0, 10))).size,
    ).toBeGreaterThan(20);
    for (const row of onTeam) expect(row.joined_at).toEqual(row.created_at);
    // The dashboard's tour is still to come for the new dispatchers only.
    const seenTour = new Map(rows.map((row) => [row.email, row.has_seen_walkthrough]));
    for (const email of demoNewDispatchers) expect(seenTour.get(email), email).toBe(false);
    expect(seenTour.get('aisha.khan@demo-county.test')).toBe(true);
  });

  it('leaves two people waiting for verification: an unlisted agency, and an uncleared domain', async () => {
    const waiting = await database.db
      .selectFrom('users as u')
      .leftJoin('psaps as p', 'p.id', 'u.psap_id')
      .select([
        'u.email',
        'u.email_confirmed_at',
        'u.registration_completed_at',
        'u.company_name',
        'u.psap_id',
        'u.uscg_status',
        'p.name as agency',
      ])
      .select((eb) =>
        eb
          .exists(
            eb
              .selectFrom('team_members as m')
              .select('m.user_id')
              .whereRef('m.user_id', '=', 'u.id'),
          )
          .as('on_a_team'),
      )
      .where('u.email', 'in', [...demoWaitingForVerification])
      .orderBy('u.email')
      .execute();
    const cleared = new Set(
      (await database.db.selectFrom('cleared_email_domains').select('domain').execute()).map(
        (row) => row.domain,
      ),
    );
    expect(waiting).toHaveLength(2);
    for (const user of waiting) {
      expect(user).toMatchObject({ on_a_team: false, uscg_status: null });
      expect(user.email_confirmed_at).not.toBeNull();
      expect(user.registration_completed_at).not.toBeNull();
      expect(cleared.has(user.email.split('@')[1]!)).toBe(false);
    }
    const [unlisted, uncleared] = waiting;
    // "My agency isn't listed", as join-unlisted stores it: no agency, the name typed.
    expect(unlisted).toMatchObject({
      email: 'carla.jimenez@riverbend-ems.test',
      psap_id: null,
      company_name: 'Riverbend Volunteer Ambulance Corps',
    });
    expect(uncleared).toMatchObject({
      email: 'walter.briggs@notareal-sheriff.test',
      agency: 'Notareal County Sheriff Communications',
    });
  });

  it("locks the demo's locked-out account where the API's sign-in lockout looks, once", async () => {
    const redis = new Redis(testEnvironment.redisUrl(), { maxRetriesPerRequest: null });
    const prefix = testRedisPrefix();
    try {
      const lockout = new SignInLockout(redis, prefix);
      expect(await lockout.isLocked(demoLockedUsers[0])).toBe(false);
      expect(await lockDemoAccounts(redis, prefix)).toBe(demoLockedUsers.length);
      for (const email of demoLockedUsers) expect(await lockout.isLocked(email)).toBe(true);
      expect(await lockout.isLocked('aisha.khan@demo-county.test')).toBe(false);
      // Again: the lock stands and is not extended.
      expect(await lockDemoAccounts(redis, prefix)).toBe(0);
      // An admin lifts it like any other.
      expect(await lockout.unlockAccount(demoLockedUsers[0])).toBe(true);
      expect(await lockout.isLocked(demoLockedUsers[0])).toBe(false);
    } finally {
      await redis.quit();
    }
  });

  it('refuses to run in production', async () => {
    await expect(seedDemo(database.db, 'production')).rejects.toThrow(/production/);
  });
});
