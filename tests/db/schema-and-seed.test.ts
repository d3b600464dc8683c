import { DEMO_PASSWORD, demoUsers, migrateDown, migrateToLatest, seedDemo } from '@locus/db';
import { generatedTypesPath, generateTypes } from '@locus/db/codegen';
import { verify } from '@node-rs/argon2';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/database';

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
    expect(first.usersCreated).toBe(5);
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
    expect(users.map((user) => user.email).sort()).toEqual(
      demoUsers.map((user) => user.email).sort(),
    );
    for (const user of users) {
      expect(await verify(user.password_hash, DEMO_PASSWORD)).toBe(true);
      expect(user.password_hash.startsWith('$argon2id$')).toBe(true);
      expect(user.email_confirmed_at).not.toBeNull();
      expect(user.is_active).toBe(true);
    }
    const byEmail = new Map(users.map((user) => [user.email, user]));
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

  it('refuses to run in production', async () => {
    await expect(seedDemo(database.db, 'production')).rejects.toThrow(/production/);
  });
});
