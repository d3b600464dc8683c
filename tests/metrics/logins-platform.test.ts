import { SignInLockout } from '@locus/api';
import { signInLockout } from '@locus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, DEMO_PASSWORD, signIn, startAuthStack, type AuthStack } from '../auth/support';
import { idsOf, insertSession, insertSignIn } from './fixtures';

/**
 * Issue 13: login/get-total-logins, login/get-user-logins and platform/metrics, over sign-ins
 * and sessions inserted as the API records them, in 2025 (far from the seed's own history), then
 * over real sign-ins through the API.
 */
let stack: AuthStack;
let owner: string;
let teamAdmin: string;
let ids: Awaited<ReturnType<typeof idsOf>>;
let demo: string;
let neighbour: string;
let locus: string;
let dana: string;
let devon: string;
let nico: string;
let nadia: string;

const at = (iso: string) => new Date(iso);
const totals = (teamId: string, from: string, to: string) =>
  `/api/v1/login/get-total-logins/${teamId}/${from}/${to}`;
const perUser = (teamId: string, from: string, to: string) =>
  `/api/v1/login/get-user-logins/${teamId}/${from}/${to}`;
const platform = (from: string, to: string) => `/api/v1/platform/metrics/${from}/${to}`;

interface UserLoginRow {
  userId: string;
  name: string;
  succeeded: number;
  failed: number;
  lastSignInAt: string | null;
}
interface LoginTotalsAnswer {
  logins: {
    succeeded: number;
    failed: number;
    users: number;
    byDay: { day: string; succeeded: number; failed: number }[];
  };
}
interface PlatformAnswer {
  platform: { logins: { day: string; succeeded: number; failed: number }[] };
}

/** The team's members in the answer's order: by last name, then first name (ASCII names). */
async function membersOf(teamId: string) {
  const rows = await stack.database.db
    .selectFrom('team_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.first_name', 'u.last_name'])
    .where('m.team_id', '=', teamId)
    .execute();
  const key = (row: (typeof rows)[number]) =>
    [row.last_name.toLowerCase(), row.first_name.toLowerCase(), row.id].join('\u0000');
  return rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

async function auditRow(values: {
  action: string;
  actor: string | null;
  subject: string;
  teamId: string | null;
  at: Date;
  detail?: Record<string, unknown>;
}) {
  await stack.database.db
    .insertInto('audit_log')
    .values({
      action: values.action,
      actor_user_id: values.actor,
      subject: values.subject,
      team_id: values.teamId,
      at: values.at,
      detail: JSON.stringify(values.detail ?? {}),
    })
    .execute();
}

beforeAll(async () => {
  stack = await startAuthStack({ worker: false });
  [owner, teamAdmin] = await Promise.all([
    signIn(stack.api, 'owner@locus.test'),
    signIn(stack.api, 'teamadmin@demo-county.test'),
  ]);
  const db = stack.database.db;
  ids = await idsOf(db);
  demo = ids.team('Demo County 911');
  neighbour = ids.team('Neighbouring County');
  locus = ids.team('Locus');
  dana = ids.user('dispatcher@demo-county.test');
  devon = ids.user('dispatcher2@demo-county.test');
  nico = ids.user('dispatcher@neighbour-county.test');
  nadia = ids.user('teamadmin@neighbour-county.test');
  // Nico works for both centres: his sign-ins land on his first team's trail (Neighbouring
  // County) and still count for Demo County, whose member he is too.
  await db
    .insertInto('team_members')
    .values({ team_id: demo, user_id: nico, role: 'member' })
    .execute();

  // Dana: 23:59 CDT on 30 September (outside a Chicago range starting 1 October, inside the
  // UTC one), two on 1 October in Chicago (the second at 23:30 CDT, already 2 October in UTC),
  // a failure at 00:30 CDT on 2 October, and one at 00:00 CDT on 4 October (just past the end).
  await insertSignIn(db, { userId: dana, teamId: demo, at: at('2025-10-01T04:59:00Z') });
  await insertSignIn(db, { userId: dana, teamId: demo, at: at('2025-10-01T15:00:00Z') });
  await insertSignIn(db, { userId: dana, teamId: demo, at: at('2025-10-02T04:30:00Z') });
  await insertSignIn(db, {
    userId: dana,
    teamId: demo,
    at: at('2025-10-02T05:30:00Z'),
    failed: true,
    email: 'dispatcher@demo-county.test',
  });
  await insertSignIn(db, { userId: dana, teamId: demo, at: at('2025-10-04T05:00:00Z') });
  // Not a sign-in.
  await auditRow({
    action: 'sign-out',
    actor: dana,
    subject: dana,
    teamId: demo,
    at: at('2025-10-01T16:00:00Z'),
  });

  // Devon, on 3 October: a wrong code that locked the account (one attempt: the trail writes
  // 'sign-in.mfa-failed', 'sign-in.failed' and 'sign-in.locked' for it), then a passkey
  // sign-in (one sign-in: 'sign-in.passkey', then 'sign-in').
  const wrongCode = at('2025-10-03T11:59:00Z');
  await auditRow({
    action: 'sign-in.mfa-failed',
    actor: null,
    subject: devon,
    teamId: null,
    at: wrongCode,
    detail: { method: 'totp', ip: '203.0.113.9' },
  });
  await insertSignIn(db, {
    userId: devon,
    teamId: demo,
    at: wrongCode,
    failed: true,
    email: 'dispatcher2@demo-county.test',
  });
  await auditRow({
    action: 'sign-in.locked',
    actor: null,
    subject: 'dispatcher2@demo-county.test',
    teamId: demo,
    at: wrongCode,
    detail: { userId: devon, failures: 5 },
  });
  const passkey = at('2025-10-03T12:00:00Z');
  await auditRow({
    action: 'sign-in.passkey',
    actor: devon,
    subject: devon,
    teamId: null,
    at: passkey,
  });
  await insertSignIn(db, { userId: devon, teamId: demo, at: passkey });

  // The neighbours: Nico (a member of both teams) and Nadia (Neighbouring County only).
  await insertSignIn(db, { userId: nico, teamId: neighbour, at: at('2025-10-02T12:00:00Z') });
  await insertSignIn(db, { userId: nadia, teamId: neighbour, at: at('2025-10-02T13:00:00Z') });
  // An address with no account: no user, no team; the platform's logins only.
  await insertSignIn(db, {
    userId: null,
    teamId: null,
    at: at('2025-10-02T12:00:00Z'),
    failed: true,
    email: 'nobody@nowhere.test',
  });

  // Sessions, for the platform's side-by-side totals and growth (UTC months).
  const a = at('2025-10-01T15:00:00Z');
  await insertSession(db, {
    teamId: demo,
    userId: dana,
    createdAt: a,
    endedAt: at('2025-10-01T15:10:00Z'),
    callers: [
      {
        language: 'es',
        textSentAt: a,
        linkOpenedAt: at('2025-10-01T15:00:30Z'),
        sharedAt: at('2025-10-01T15:00:50Z'),
        fixes: [[at('2025-10-01T15:01:00Z'), 20]],
      },
      {},
    ],
    chat: { openedAt: a, messages: [{ sender: 'caller' }] },
    transferredTo: devon,
  });
  await insertSession(db, { teamId: demo, userId: devon, createdAt: at('2025-10-02T04:30:00Z') });
  await insertSession(db, {
    teamId: demo,
    userId: dana,
    createdAt: at('2025-09-30T23:00:00Z'),
    callers: [{ textSentAt: at('2025-09-30T23:00:05Z'), textStatus: 'failed' }],
  });
  await insertSession(db, {
    teamId: neighbour,
    userId: nico,
    createdAt: at('2025-10-03T10:00:00Z'),
    callers: [{ textSentAt: at('2025-10-03T10:00:05Z') }],
  });
  // Just outside the UTC range, on both sides.
  await insertSession(db, { teamId: demo, userId: dana, createdAt: at('2025-10-04T00:00:00Z') });
  await insertSession(db, { teamId: demo, userId: dana, createdAt: at('2025-09-29T23:59:59Z') });

  // New accounts: one in September, one in October (UTC).
  for (const [email, createdAt] of [
    ['new.september@agency.test', '2025-09-30T12:00:00Z'],
    ['new.october@agency.test', '2025-10-02T00:00:00Z'],
  ] as const) {
    await db
      .insertInto('users')
      .values({
        email,
        first_name: 'New',
        last_name: 'Person',
        password_hash: 'not-a-hash',
        created_at: at(createdAt),
      })
      .execute();
  }
});

afterAll(async () => {
  await stack?.close();
});

describe('GET /api/v1/login/get-total-logins', () => {
  it('counts the members’ sign-ins once each, per day in America/Chicago', async () => {
    const answer = await call(stack.api, 'GET', totals(demo, '2025-10-01', '2025-10-03'), {
      token: teamAdmin,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      from: '2025-10-01',
      to: '2025-10-03',
      timeZone: 'America/Chicago',
      logins: {
        succeeded: 4,
        failed: 2,
        users: 3,
        byDay: [
          // Dana at 10:00 CDT, and at 23:30 CDT (04:30 UTC on the 2nd).
          { day: '2025-10-01', succeeded: 2, failed: 0 },
          // Dana's failure at 00:30 CDT; Nico (a member through his second team).
          { day: '2025-10-02', succeeded: 1, failed: 1 },
          // Devon: one wrong code, one passkey sign-in.
          { day: '2025-10-03', succeeded: 1, failed: 1 },
        ],
      },
    });
  });

  it('answers zeros for a range without sign-ins, every day listed', async () => {
    const answer = await call(stack.api, 'GET', totals(demo, '2025-06-01', '2025-06-02'), {
      token: teamAdmin,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      from: '2025-06-01',
      to: '2025-06-02',
      timeZone: 'America/Chicago',
      logins: {
        succeeded: 0,
        failed: 0,
        users: 0,
        byDay: [
          { day: '2025-06-01', succeeded: 0, failed: 0 },
          { day: '2025-06-02', succeeded: 0, failed: 0 },
        ],
      },
    });
  });
});

describe('GET /api/v1/login/get-user-logins', () => {
  it('lists every member by name, those who never signed in too', async () => {
    const answer = await call<{ logins: { users: UserLoginRow[] } }>(
      stack.api,
      'GET',
      perUser(demo, '2025-10-01', '2025-10-03'),
      { token: teamAdmin },
    );
    expect(answer.status).toBe(200);
    const known: Record<string, Omit<UserLoginRow, 'userId' | 'name'>> = {
      [dana]: { succeeded: 2, failed: 1, lastSignInAt: '2025-10-02T04:30:00.000Z' },
      [devon]: { succeeded: 1, failed: 1, lastSignInAt: '2025-10-03T12:00:00.000Z' },
      [nico]: { succeeded: 1, failed: 0, lastSignInAt: '2025-10-02T12:00:00.000Z' },
    };
    const members = await membersOf(demo);
    expect(members.length).toBe(21);
    expect(answer.body).toEqual({
      from: '2025-10-01',
      to: '2025-10-03',
      timeZone: 'America/Chicago',
      logins: {
        users: members.map((member) => ({
          userId: member.id,
          name: `${member.first_name} ${member.last_name}`,
          ...(known[member.id] ?? { succeeded: 0, failed: 0, lastSignInAt: null }),
        })),
      },
    });
    // The order, checked against names the seed documents rather than the sort above.
    const names = answer.body.logins.users.map((user) => user.name);
    const positions = ['Terry Admin', 'Marcus Bell', 'Dana Dispatcher', 'Devon Dispatcher'].map(
      (name) => names.indexOf(name),
    );
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(positions[0]).toBe(0);
  });

  it('answers every member with zeros for a range without sign-ins', async () => {
    const answer = await call<{ logins: { users: UserLoginRow[] } }>(
      stack.api,
      'GET',
      perUser(demo, '2025-06-01', '2025-06-02'),
      { token: teamAdmin },
    );
    expect(answer.status).toBe(200);
    const members = await membersOf(demo);
    expect(answer.body.logins.users).toEqual(
      members.map((member) => ({
        userId: member.id,
        name: `${member.first_name} ${member.last_name}`,
        succeeded: 0,
        failed: 0,
        lastSignInAt: null,
      })),
    );
  });
});

describe('GET /api/v1/platform/metrics', () => {
  const zeros = { sessions: 0, numbers: 0, located: 0, textsSent: 0, transfers: 0, chats: 0 };

  it('shows every team side by side, growth per UTC month and every sign-in per UTC day', async () => {
    const answer = await call(stack.api, 'GET', platform('2025-09-30', '2025-10-03'), {
      token: owner,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      from: '2025-09-30',
      to: '2025-10-03',
      timeZone: 'UTC',
      platform: {
        teams: [
          {
            teamId: demo,
            teamName: 'Demo County 911',
            sessions: 3,
            numbers: 4,
            located: 1,
            // The failed text was still handed to the provider (sent_at), as get-ct-totals counts.
            textsSent: 2,
            transfers: 1,
            chats: 1,
            // Dana 3 (one at 04:59 UTC on 1 October), Devon 1, Nico 1.
            signIns: 5,
          },
          { teamId: locus, teamName: 'Locus', ...zeros, signIns: 0 },
          {
            teamId: neighbour,
            teamName: 'Neighbouring County',
            ...zeros,
            sessions: 1,
            numbers: 1,
            textsSent: 1,
            // Nadia and Nico.
            signIns: 2,
          },
        ],
        growth: [
          { month: '2025-09', sessions: 1, activeTeams: 1, newUsers: 1 },
          { month: '2025-10', sessions: 3, activeTeams: 2, newUsers: 1 },
        ],
        logins: [
          { day: '2025-09-30', succeeded: 0, failed: 0 },
          { day: '2025-10-01', succeeded: 2, failed: 0 },
          // Dana (04:30), Nico, Nadia; Dana's failure and the unknown address's.
          { day: '2025-10-02', succeeded: 3, failed: 2 },
          { day: '2025-10-03', succeeded: 1, failed: 1 },
        ],
      },
    });
  });

  it('answers zeros for a range without history', async () => {
    const answer = await call(stack.api, 'GET', platform('2024-01-31', '2024-02-01'), {
      token: owner,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      from: '2024-01-31',
      to: '2024-02-01',
      timeZone: 'UTC',
      platform: {
        teams: [
          { teamId: demo, teamName: 'Demo County 911', ...zeros, signIns: 0 },
          { teamId: locus, teamName: 'Locus', ...zeros, signIns: 0 },
          { teamId: neighbour, teamName: 'Neighbouring County', ...zeros, signIns: 0 },
        ],
        growth: [
          { month: '2024-01', sessions: 0, activeTeams: 0, newUsers: 0 },
          { month: '2024-02', sessions: 0, activeTeams: 0, newUsers: 0 },
        ],
        logins: [
          { day: '2024-01-31', succeeded: 0, failed: 0 },
          { day: '2024-02-01', succeeded: 0, failed: 0 },
        ],
      },
    });
  });

  it('is for platform admins only: a team admin gets 403, a bad range 400', async () => {
    const refused = await call<{ error: string }>(
      stack.api,
      'GET',
      platform('2025-09-30', '2025-10-03'),
      { token: teamAdmin },
    );
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('forbidden');
    const backwards = await call<{ issues?: { path: string }[] }>(
      stack.api,
      'GET',
      platform('2025-10-03', '2025-09-30'),
      { token: owner },
    );
    expect(backwards.status).toBe(400);
    expect(backwards.body.issues?.[0]?.path).toBe('to');
  });
});

describe('sign-ins through the API are recorded', () => {
  /** Yesterday to tomorrow in the zone, so that a run at midnight still covers "now". */
  function around(now: Date, timeZone: string) {
    const day = (date: Date) =>
      new Intl.DateTimeFormat('en-CA', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      }).format(date);
    return [day(new Date(now.getTime() - 86_400_000)), day(new Date(now.getTime() + 86_400_000))];
  }
  const sum = (days: { succeeded: number; failed: number }[]) =>
    days.reduce(
      (total, day) => ({
        succeeded: total.succeeded + day.succeeded,
        failed: total.failed + day.failed,
      }),
      { succeeded: 0, failed: 0 },
    );

  // One range for every read, so that counts before and after an action compare like for like.
  const [from, to] = around(new Date(), 'America/Chicago') as [string, string];
  const [utcFrom, utcTo] = around(new Date(), 'UTC') as [string, string];

  /** Demo County's counts, some members' and the platform's, over that range. */
  async function read() {
    const [team, users, all] = await Promise.all([
      call<LoginTotalsAnswer>(stack.api, 'GET', totals(demo, from, to), { token: teamAdmin }),
      call<{ logins: { users: UserLoginRow[] } }>(stack.api, 'GET', perUser(demo, from, to), {
        token: teamAdmin,
      }),
      call<PlatformAnswer>(stack.api, 'GET', platform(utcFrom, utcTo), { token: owner }),
    ]);
    expect([team.status, users.status, all.status]).toEqual([200, 200, 200]);
    const row = (id: string) => users.body.logins.users.find((user) => user.userId === id)!;
    return {
      team: team.body.logins,
      member: row,
      devon: row(devon),
      dana: row(dana),
      platform: sum(all.body.platform.logins),
    };
  }
  const change = (
    before: { succeeded: number; failed: number },
    after: { succeeded: number; failed: number },
  ) => ({ succeeded: after.succeeded - before.succeeded, failed: after.failed - before.failed });

  it('counts a real sign-in and a real failure for the team, an unknown address for the platform only', async () => {
    const before = await read();
    const startedAt = Date.now();

    const good = await call(stack.api, 'POST', '/api/v1/auth/sign-in', {
      body: {
        email: 'dispatcher2@demo-county.test',
        password: DEMO_PASSWORD,
        staySignedIn: false,
      },
    });
    expect(good.status).toBe(200);
    const wrong = await call(stack.api, 'POST', '/api/v1/auth/sign-in', {
      body: {
        email: 'dispatcher@demo-county.test',
        password: 'not-the-password',
        staySignedIn: false,
      },
    });
    expect(wrong.status).toBe(401);
    const unknown = await call(stack.api, 'POST', '/api/v1/auth/sign-in', {
      body: {
        email: 'nobody-here@demo-county.test',
        password: 'not-the-password',
        staySignedIn: false,
      },
    });
    expect(unknown.status).toBe(401);

    const after = await read();
    expect({
      succeeded: after.team.succeeded - before.team.succeeded,
      failed: after.team.failed - before.team.failed,
    }).toEqual({ succeeded: 1, failed: 1 });
    expect(sum(after.team.byDay)).toEqual({
      succeeded: after.team.succeeded,
      failed: after.team.failed,
    });
    expect(after.devon.succeeded - before.devon.succeeded).toBe(1);
    expect(Date.parse(after.devon.lastSignInAt!)).toBeGreaterThanOrEqual(startedAt - 1000);
    expect(after.dana.failed - before.dana.failed).toBe(1);
    expect({
      succeeded: after.platform.succeeded - before.platform.succeeded,
      failed: after.platform.failed - before.platform.failed,
    }).toEqual({ succeeded: 1, failed: 2 });
  });

  it('counts an attempt on a locked account as a failed sign-in, and wrong current passwords not at all', async () => {
    const email = 'grace.mwangi@demo-county.test';
    const grace = ids.user(email);
    const before = await read();

    const token = await signIn(stack.api, email);
    // Wrong current passwords in change-password, as many as lock the account: they count
    // toward the lock, but they are no sign-ins.
    const answers = [];
    for (let attempt = 1; attempt <= signInLockout.maxFailures; attempt += 1) {
      const answer = await call(stack.api, 'POST', '/api/v1/auth/change-password', {
        token,
        body: { currentPassword: `wrong-${attempt}`, newPassword: 'Lantern-orchard-sleet-42' },
      });
      answers.push(answer.body);
    }
    expect(answers.at(-1)).toMatchObject({ error: 'account-locked' });
    // The right password on the locked account: refused, a failed sign-in all the same.
    const locked = await call(stack.api, 'POST', '/api/v1/auth/sign-in', {
      body: { email, password: DEMO_PASSWORD, staySignedIn: false },
    });
    expect(locked.body).toMatchObject({ error: 'account-locked' });

    const after = await read();
    expect(change(before.team, after.team)).toEqual({ succeeded: 1, failed: 1 });
    expect(change(before.member(grace), after.member(grace))).toEqual({
      succeeded: 1,
      failed: 1,
    });
    expect(change(before.platform, after.platform)).toEqual({ succeeded: 1, failed: 1 });
    await new SignInLockout(stack.api.app.locus.redis, stack.redisPrefix).unlockAccount(email);
  });
});
