import { DEMO_PASSWORD, seedDemo } from '@locus/db';
import { parseWorkerConfig, startWorkers } from '@locus/worker';
import { Redis } from 'ioredis';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startAuthSession } from '../../services/api/src/modules/auth-sessions/start';
import { call } from '../auth/support';
import { startApi, testRedisPrefix, type TestApi } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';
import { testEnvironment } from '../support/environment';
import { linkTokenIn, outboxSms } from '../tracking/support';

/** The demo team, the basic-level neighbour, and the platform owner's own team. */
export type TeamKey = 'demo' | 'neighbour' | 'locus';

export type RoleName =
  | 'anonymous'
  | 'demoDispatcher'
  | 'demoAdmin'
  | 'platformAdmin'
  | 'neighbourDispatcher'
  | 'neighbourAdmin'
  | 'partnerKey';

export interface Role {
  name: RoleName;
  /** Whose data this role may see; `all` for the platform admin, none for anonymous. */
  team: TeamKey | 'all' | null;
  email?: string;
  userId?: string;
  /** The bearer sent: a session token, or the partner key. */
  token?: string;
}

const roleAccounts: Record<
  Exclude<RoleName, 'anonymous' | 'partnerKey'>,
  { email: string; team: TeamKey | 'all' }
> = {
  demoDispatcher: { email: 'dispatcher@demo-county.test', team: 'demo' },
  demoAdmin: { email: 'teamadmin@demo-county.test', team: 'demo' },
  platformAdmin: { email: 'owner@locus.test', team: 'all' },
  neighbourDispatcher: { email: 'dispatcher@neighbour-county.test', team: 'neighbour' },
  neighbourAdmin: { email: 'teamadmin@neighbour-county.test', team: 'neighbour' },
};

/** Simulator numbers (README): 0100–0149 are found, 0150–0199 get a text. Markers only. */
const markerNumbers: Record<
  'demo' | 'neighbour',
  { found: string; texted: string; ended: string; listed: string; watched: string }
> = {
  demo: {
    found: '+12025550111',
    texted: '+12025550161',
    ended: '+12025550112',
    listed: '+12025550191',
    watched: '+12025550192',
  },
  neighbour: {
    found: '+12025550122',
    texted: '+12025550182',
    ended: '+12025550123',
    listed: '+12025550193',
    watched: '+12025550194',
  },
};

/**
 * Numbers the fuzzer itself sends: valid, in both simulator ranges, none of them a marker nor
 * one of the demo call lists' numbers (0170–0176), so that what a request creates never
 * carries another team's marker.
 */
export const neutralNumbers = [
  '+12025550101',
  '+12025550102',
  '+12025550140',
  '+12025550151',
  '+12025550152',
  '+12025550199',
  '+14155550123',
  '+442079460000',
];

export interface TeamData {
  teamId: string;
  sessionIds: string[];
  callListIds: string[];
  overwatchGroupIds: string[];
  userIds: string[];
  emails: string[];
  apiKeyIds: string[];
  webhookIds: string[];
  callerTokens: string[];
}

export interface FuzzStack {
  database: TestDatabase;
  api: TestApi;
  redis: Redis;
  redisPrefix: string;
  roles: Record<RoleName, Role>;
  teams: Record<TeamKey, TeamData>;
  /** Text that, found in an answer, belongs to one team: ids, numbers, names, e-mail addresses. */
  markers: Map<string, TeamKey>;
  /** Credentials that let whoever holds them see a team's data: caller links, partner key. */
  grants: Map<string, TeamKey>;
  psapIds: number[];
  /** Puts back what destructive requests changed: accounts, roles, teams, MFA, keys, locks. */
  restore(): Promise<void>;
  /** A valid bearer for a role, minting a new session when its token stopped working. */
  ensureSignedIn(role: Role): Promise<void>;
  close(): Promise<void>;
}

function emptyTeam(teamId: string): TeamData {
  return {
    teamId,
    sessionIds: [],
    callListIds: [],
    overwatchGroupIds: [],
    userIds: [],
    emails: [],
    apiKeyIds: [],
    webhookIds: [],
    callerTokens: [],
  };
}

async function expectOk<T>(answer: Promise<{ status: number; body: T }>, what: string): Promise<T> {
  const { status, body } = await answer;
  if (status < 200 || status > 299)
    throw new Error(`seeding: ${what} answered ${status} ${JSON.stringify(body)}`);
  return body;
}

export async function startFuzzStack(env: Record<string, string>): Promise<FuzzStack> {
  const database = await freshDatabase();
  await seedDemo(database.db, 'development');
  const redisPrefix = testRedisPrefix();
  const api = await startApi({ databaseUrl: database.url, redisPrefix, env });
  const redis = new Redis(testEnvironment.redisUrl());
  const { db } = database;

  const teamRows = await db.selectFrom('teams').select(['id', 'team_name']).execute();
  const teamId = (name: string) => teamRows.find((row) => row.team_name === name)!.id;
  const teams: Record<TeamKey, TeamData> = {
    demo: emptyTeam(teamId('Demo County 911')),
    neighbour: emptyTeam(teamId('Neighbouring County')),
    locus: emptyTeam(teamId('Locus')),
  };

  const userIdOf = async (email: string) =>
    (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow())
      .id;
  const mint = async (userId: string) =>
    (await startAuthSession(db, { userId, staySignedIn: true, mfaVerified: true })).token;

  const roles = { anonymous: { name: 'anonymous', team: null } } as Record<RoleName, Role>;
  for (const [name, account] of Object.entries(roleAccounts)) {
    const userId = await userIdOf(account.email);
    roles[name as RoleName] = {
      name: name as RoleName,
      team: account.team,
      email: account.email,
      userId,
      token: await mint(userId),
    };
  }

  // The worker answers lookups with the simulator and sends texts and e-mails to the dev outbox
  // (the test stacks' fakes). Webhook endpoints the fuzz adds are all on `.invalid`, and the
  // dispatcher runs once an hour, so no delivery leaves the machine.
  const exportDir = mkdtempSync(join(tmpdir(), 'locus-fuzz-exports-'));
  const connection = new Redis(testEnvironment.redisUrl(), { maxRetriesPerRequest: null });
  const workers = await startWorkers(
    parseWorkerConfig({
      DATABASE_URL: database.url,
      REDIS_URL: testEnvironment.redisUrl(),
      REDIS_KEY_PREFIX: redisPrefix,
      LOG_LEVEL: 'silent',
      EXPORT_DIR: exportDir,
      WEBHOOK_DISPATCH_EVERY_MS: String(3_600_000),
    }),
    { db, connection, log: pino({ level: 'silent' }) },
  );
  const stopWorkers = async () => {
    await workers.close();
    await connection.quit();
    rmSync(exportDir, { recursive: true, force: true });
  };
  try {
    for (const key of ['demo', 'neighbour'] as const) {
      const team = teams[key];
      const numbers = markerNumbers[key];
      const dispatcher = roles[key === 'demo' ? 'demoDispatcher' : 'neighbourDispatcher'].token!;
      const admin = roles[key === 'demo' ? 'demoAdmin' : 'neighbourAdmin'].token!;
      const start = (phoneNumber: string) =>
        expectOk(
          call<{ uuid: string }>(api, 'POST', '/api/v1/location/start-stream', {
            token: dispatcher,
            body: { phoneNumber },
          }),
          `start-stream ${phoneNumber}`,
        );
      team.sessionIds.push((await start(numbers.found)).uuid);
      const texted = (await start(numbers.texted)).uuid;
      team.sessionIds.push(texted);
      await expectOk(
        call(api, 'POST', '/api/v1/location/request-text-message-location', {
          token: dispatcher,
          body: { connectionRequestUuid: texted },
        }),
        'request-text-message-location',
      );
      const ended = (await start(numbers.ended)).uuid;
      team.sessionIds.push(ended);
      await expectOk(
        call(api, 'POST', `/api/v1/location/set-date-time-completed/${ended}`, {
          token: dispatcher,
          body: {},
        }),
        'set-date-time-completed',
      );
      const list = await expectOk(
        call<{ id: string }>(api, 'POST', `/api/v1/call-list/create-call-list/${team.teamId}`, {
          token: admin,
          body: { callListName: `Fuzzlist ${key} qzx`, phoneNumbers: [numbers.listed] },
        }),
        'create-call-list',
      );
      team.callListIds.push(list.id);
      const group = await call<{ id?: string; group?: { id: string } }>(
        api,
        'POST',
        '/api/v1/overwatch/groups',
        {
          token: admin,
          body: {
            name: `Fuzzwatch ${key} qzx`,
            members: [{ phoneNumber: numbers.watched, label: `Fuzzlabel ${key} qzx` }],
          },
        },
      );
      const groupId = group.body.id ?? group.body.group?.id;
      if (groupId) team.overwatchGroupIds.push(groupId);
      await expectOk(
        call(api, 'PATCH', `/api/v1/teams/editCustomContent/${team.teamId}`, {
          token: admin,
          body: {
            customContent: {
              links: {
                header: [{ name: `Fuzzlink ${key} qzx`, link: `https://fuzz-${key}.invalid/` }],
                headerDropdown: [],
              },
            },
          },
        }),
        'editCustomContent',
      );
      // A surname nobody else has, on the team's dispatcher.
      await db
        .updateTable('users')
        .set({ last_name: `Fuzzsurname${key}` })
        .where('id', '=', roles[key === 'demo' ? 'demoDispatcher' : 'neighbourDispatcher'].userId!)
        .execute();
      for (let waited = 0; ; waited += 100) {
        if (waited > 60_000)
          throw new Error(`seeding: no text to ${numbers.texted} in the dev outbox after 60 s`);
        const texts = await outboxSms(api, numbers.texted);
        if (texts.length > 0) {
          team.callerTokens.push(linkTokenIn(texts[0]!.body));
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    // The partner key and a webhook endpoint (enterprise teams only: the demo county).
    const demoAdmin = roles.demoAdmin.token!;
    const created = await expectOk(
      call<{ key: { id: string }; secret: string }>(
        api,
        'POST',
        `/api/v1/teams/${teams.demo.teamId}/api-keys`,
        {
          token: demoAdmin,
          body: {
            name: 'Fuzzkey demo qzx',
            scopes: ['locate:write', 'sessions:read', 'webhooks:manage'],
          },
        },
      ),
      'api-keys',
    );
    teams.demo.apiKeyIds.push(created.key.id);
    roles.partnerKey = { name: 'partnerKey', team: 'demo', token: created.secret };
    const hook = await expectOk(
      call<{ webhook: { id: string } }>(
        api,
        'POST',
        `/api/v1/teams/${teams.demo.teamId}/webhooks`,
        {
          token: demoAdmin,
          body: { url: 'https://fuzzhook-demo.invalid/in', events: ['session.started'] },
        },
      ),
      'webhooks',
    );
    teams.demo.webhookIds.push(hook.webhook.id);
  } catch (error) {
    await stopWorkers();
    throw error;
  }

  const members = await db
    .selectFrom('team_members')
    .innerJoin('users', 'users.id', 'team_members.user_id')
    .select(['team_members.team_id', 'users.id', 'users.email'])
    .execute();
  for (const team of Object.values(teams)) {
    for (const member of members.filter((row) => row.team_id === team.teamId)) {
      team.userIds.push(member.id);
      team.emails.push(member.email.toLowerCase());
    }
  }

  const markers = new Map<string, TeamKey>();
  for (const key of ['demo', 'neighbour'] as const) {
    const team = teams[key];
    for (const value of [
      team.teamId,
      ...team.sessionIds,
      ...team.callListIds,
      ...team.overwatchGroupIds,
      ...team.userIds,
      ...team.emails,
      ...team.apiKeyIds,
      ...team.webhookIds,
      // National digits: found however the answer formats the number.
      ...Object.values(markerNumbers[key]).map((number) => number.slice(2)),
      `fuzzlist ${key} qzx`,
      `fuzzwatch ${key} qzx`,
      `fuzzlabel ${key} qzx`,
      `fuzzlink ${key} qzx`,
      `fuzz-${key}.invalid`,
      `fuzzsurname${key}`,
    ])
      markers.set(value.toLowerCase(), key);
  }
  markers.set('fuzzkey demo qzx', 'demo');
  markers.set('fuzzhook-demo.invalid', 'demo');
  // The owner's own team, for anonymous answers.
  for (const value of [teams.locus.teamId, ...teams.locus.userIds, ...teams.locus.emails])
    markers.set(value.toLowerCase(), 'locus');

  const grants = new Map<string, TeamKey>();
  for (const key of ['demo', 'neighbour'] as const)
    for (const token of teams[key].callerTokens) grants.set(token, key);
  grants.set(roles.partnerKey.token!, 'demo');

  const psapIds = (await db.selectFrom('psaps').select('id').limit(5).execute()).map(
    (row) => row.id,
  );

  // What restore() puts back.
  const roleUserIds = Object.values(roles).flatMap((role) => (role.userId ? [role.userId] : []));
  const savedUsers = await db
    .selectFrom('users')
    .selectAll()
    .where('id', 'in', roleUserIds)
    .execute();
  const savedTeams = await db.selectFrom('teams').selectAll().execute();
  const savedMembers = await db.selectFrom('team_members').selectAll().execute();
  const savedDomains = await db.selectFrom('cleared_email_domains').select('domain').execute();

  const ensureSignedIn = async (role: Role) => {
    if (!role.userId) return;
    const answer = await api.app.inject({
      method: 'GET',
      url: '/api/v1/auth/current-user',
      headers: { authorization: `Bearer ${role.token}` },
    });
    if (answer.statusCode !== 200) role.token = await mint(role.userId);
  };

  const restore = async () => {
    await db.transaction().execute(async (trx) => {
      for (const user of savedUsers)
        await trx.updateTable('users').set(user).where('id', '=', user.id).execute();
      for (const team of savedTeams)
        await trx.updateTable('teams').set(team).where('id', '=', team.id).execute();
      // Every membership as it was: the platform admin may move anyone to any team.
      await trx.deleteFrom('team_members').execute();
      await trx.insertInto('team_members').values(savedMembers).execute();
      await trx
        .insertInto('cleared_email_domains')
        .values(savedDomains)
        .onConflict((oc) => oc.column('domain').doNothing())
        .execute();
      await trx.deleteFrom('user_totp').where('user_id', 'in', roleUserIds).execute();
      await trx.deleteFrom('webauthn_credentials').where('user_id', 'in', roleUserIds).execute();
      await trx
        .updateTable('partner_api_keys')
        .set({ revoked_at: null, revoked_by: null, expires_at: null })
        .where('id', 'in', teams.demo.apiKeyIds)
        .execute();
    });
    // Sign-in failures and locks of the role accounts (the fuzzer guesses their passwords).
    const stale = await redis.keys(`${redisPrefix}sign-in:*`);
    if (stale.length > 0) await redis.del(...stale);
    for (const role of Object.values(roles)) await ensureSignedIn(role);
  };

  return {
    database,
    api,
    redis,
    redisPrefix,
    roles,
    teams,
    markers,
    grants,
    psapIds,
    restore,
    ensureSignedIn,
    close: async () => {
      await stopWorkers();
      redis.disconnect();
      await api.close();
      await database.drop();
    },
  };
}

export { DEMO_PASSWORD };
