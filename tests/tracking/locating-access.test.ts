import { hashPassword } from '@locus/db';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  DEMO_PASSWORD,
  signIn,
  startAuthStack,
  uniqueEmail,
  type AuthStack,
} from '../auth/support';
import { dispatcherEmail, startStream, unknownNumber } from './support';

/**
 * The probe's finding: an account that only confirmed an address on a cleared domain (no team,
 * no agency, no approval) could open sessions and text callers "Emergency services asks for
 * your location". Every locating route now needs an active team and a finished registration.
 */
let stack: AuthStack;

beforeAll(async () => {
  stack = await startAuthStack();
});
afterAll(() => stack?.close());

const db = () => stack.database.db;

/** A confirmed account on a cleared domain (demo-county.test), on the given teams, signed in. */
async function account(
  options: { teams?: string[]; registrationCompleted?: boolean } = {},
): Promise<{ id: string; token: string }> {
  const email = uniqueEmail('stranger', 'demo-county.test');
  const user = await db()
    .insertInto('users')
    .values({
      first_name: 'Sam',
      last_name: 'Stranger',
      email,
      email_confirmed_at: new Date(),
      registration_completed_at: options.registrationCompleted === false ? null : new Date(),
      password_hash: await hashPassword(DEMO_PASSWORD),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const teamId of options.teams ?? []) {
    // One after the other: the first team joined is the user's "first team".
    await db()
      .insertInto('team_members')
      .values({ team_id: teamId, user_id: user.id, role: 'member' })
      .execute();
  }
  return { id: user.id, token: await signIn(stack.api, email) };
}

async function newTeam(name: string, active: boolean): Promise<string> {
  const team = await db()
    .insertInto('teams')
    .values({ team_name: `${name} ${crypto.randomUUID().slice(0, 8)}`, is_active: active })
    .returning('id')
    .executeTakeFirstOrThrow();
  return team.id;
}

async function demoCountyId(): Promise<string> {
  const team = await db()
    .selectFrom('teams')
    .select('id')
    .where('team_name', '=', 'Demo County 911')
    .executeTakeFirstOrThrow();
  return team.id;
}

async function sessionsOf(userId: string) {
  return db()
    .selectFrom('tracking_sessions')
    .select(['id', 'team_id'])
    .where('created_by', '=', userId)
    .execute();
}

async function textsTo(phoneNumber: string): Promise<number> {
  const rows = await sql<{ n: number }>`
    select count(*)::int as n from sms_messages where phone_number = ${phoneNumber}`.execute(db());
  return rows.rows[0]!.n;
}

const post = (token: string, path: string, body: unknown) =>
  call(stack.api, 'POST', path, { token, body });

/** Every route that locates, texts or reads a caller's position, for a session of the user's. */
function locatingRequests(sessionId: string, callListId: string) {
  return [
    ['POST', '/api/v1/location/request-location', { connectionRequestUuid: sessionId }],
    [
      'POST',
      '/api/v1/location/request-text-message-location',
      { connectionRequestUuid: sessionId, language: 'en' },
    ],
    ['POST', '/api/v1/location/ask-location-by-text', { connectionRequestUuid: sessionId }],
    [
      'POST',
      '/api/v1/location/request-text-message-additional-locations',
      { connectionRequestUuid: sessionId, newNumbers: ['+12025550188'] },
    ],
    [
      'POST',
      '/api/v1/location/request-text-message-multiple-locations',
      { connectionRequestUuid: sessionId, callList: [callListId] },
    ],
    ['GET', `/api/v1/call-list/get-team-numbers/${callListId}`, undefined],
    // A rejoin hands out a fresh socket token, and the latest fix is the caller's position.
    ['GET', '/api/v1/location/active-session', undefined],
    ['GET', `/api/v1/location/get-latest-location/${sessionId}`, undefined],
  ] as const;
}

describe('an account on no team', () => {
  it('cannot start a session: 403 no-active-team, and no session row', async () => {
    const stranger = await account();
    const answer = await post(stranger.token, '/api/v1/location/start-stream', {
      phoneNumber: unknownNumber,
    });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({
      error: 'no-active-team',
      message: expect.stringMatching(/ask your agency administrator/i),
    });
    expect(await sessionsOf(stranger.id)).toEqual([]);
  });

  it('cannot text, look up, rejoin or deploy call lists once off its team, and nothing is texted', async () => {
    const demoCounty = await demoCountyId();
    const member = await account({ teams: [demoCounty] });
    const number = '+12025550177';
    const session = await startStream(stack.api, member.token, number);
    const [list] = await db()
      .selectFrom('call_lists')
      .select('id')
      .where('team_id', '=', demoCounty)
      .execute();
    await db().deleteFrom('team_members').where('user_id', '=', member.id).execute();

    for (const [method, path, body] of locatingRequests(session.uuid, list!.id)) {
      const answer = await call(stack.api, method, path, { token: member.token, body });
      expect(answer.status, path).toBe(403);
      expect(answer.body, path).toMatchObject({ error: 'no-active-team' });
    }
    const deployable = await call(
      stack.api,
      'GET',
      `/api/v1/call-list/get-deployable-call-list/${demoCounty}`,
      { token: member.token },
    );
    expect(deployable.status).toBe(403);
    expect(await textsTo(number)).toBe(0);
    expect(await textsTo('+12025550188')).toBe(0);
  });
});

describe('an account whose only team is inactive', () => {
  it('is refused exactly like one on no team', async () => {
    const member = await account({ teams: [await newTeam('Closed County', false)] });
    const answer = await post(member.token, '/api/v1/location/start-stream', {
      phoneNumber: unknownNumber,
    });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ error: 'no-active-team' });
    expect(await sessionsOf(member.id)).toEqual([]);
  });

  it('loses a running session the moment its team is deactivated', async () => {
    const teamId = await newTeam('Soon Closed County', true);
    const member = await account({ teams: [teamId] });
    const number = '+12025550178';
    const session = await startStream(stack.api, member.token, number);
    await db().updateTable('teams').set({ is_active: false }).where('id', '=', teamId).execute();
    const answer = await post(member.token, '/api/v1/location/request-text-message-location', {
      connectionRequestUuid: session.uuid,
      language: 'en',
    });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ error: 'no-active-team' });
    expect(await textsTo(number)).toBe(0);
  });
});

describe('the call lists of a deactivated team', () => {
  it('are neither read nor changed by its admin, even one still on an active team', async () => {
    const closed = await newTeam('Disbanded County', true);
    const list = await db()
      .insertInto('call_lists')
      .values({ team_id: closed, name: 'Night shift' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const stored = '+12025550176';
    await db()
      .insertInto('call_list_numbers')
      .values({ call_list_id: list.id, phone_number: stored, label: 'Ana' })
      .execute();
    // On Demo County (so it still may locate) and admin of the team about to be deactivated.
    const admin = await account({ teams: [await demoCountyId()] });
    await db()
      .insertInto('team_members')
      .values({ team_id: closed, user_id: admin.id, role: 'admin' })
      .execute();
    const numbers = await call(stack.api, 'GET', `/api/v1/call-list/numbers/${list.id}`, {
      token: admin.token,
    });
    expect(numbers.status).toBe(200);

    await db().updateTable('teams').set({ is_active: false }).where('id', '=', closed).execute();
    const base = '/api/v1/call-list';
    const requests = [
      ['GET', `${base}/numbers/${list.id}`, undefined],
      ['GET', `${base}/get-team-numbers/${list.id}`, undefined],
      ['GET', `${base}/get-call-list-team/${list.id}`, undefined],
      ['GET', `${base}/get-team-cl-users/${list.id}`, undefined],
      ['GET', `${base}/get-team-call-lists/${closed}`, undefined],
      ['POST', `${base}/add-new-user/${list.id}`, { phoneNumber: '+12025550175' }],
      ['PUT', `${base}/remove-numbers/${list.id}`, { phoneNumbers: [stored] }],
      ['PUT', `${base}/rename/${list.id}`, { callListName: 'Renamed' }],
      ['PUT', `${base}/remove-call-list-team/${list.id}`, undefined],
      ['POST', `${base}/create-call-list/${closed}`, { callListName: 'Another' }],
    ] as const;
    for (const [method, path, body] of requests) {
      const answer = await call(stack.api, method, path, { token: admin.token, body });
      expect(answer.status, path).toBe(403);
      expect(answer.body, path).toMatchObject({ error: 'no-active-team' });
    }
    const found = await call<unknown[]>(stack.api, 'GET', `${base}/search?search=night`, {
      token: admin.token,
    });
    expect(found.body).toEqual([]);
    // Nothing changed, and a platform admin still reads the list.
    const owner = await signIn(stack.api, 'owner@locus.test');
    const kept = await call(stack.api, 'GET', `${base}/numbers/${list.id}`, { token: owner });
    expect(kept.status).toBe(200);
    expect(kept.body).toEqual([{ phoneNumber: stored, label: 'Ana' }]);
  });
});

describe('a member of an active team', () => {
  it('locates for its active team, even when the first team it joined is inactive', async () => {
    const demoCounty = await demoCountyId();
    const member = await account({ teams: [await newTeam('Old County', false), demoCounty] });
    const number = '+12025550179';
    const session = await startStream(stack.api, member.token, number);
    expect(await sessionsOf(member.id)).toEqual([{ id: session.uuid, team_id: demoCounty }]);
    const texted = await post(member.token, '/api/v1/location/request-text-message-location', {
      connectionRequestUuid: session.uuid,
      language: 'en',
    });
    expect(texted.status).toBe(200);
    const [text] = await db()
      .selectFrom('sms_messages')
      .select('body')
      .where('phone_number', '=', number)
      .execute();
    // Texted in the name of the active team, never the inactive one.
    expect(text!.body).toContain('Demo County 911');
  });

  it('still needs a finished registration: 403 registration-incomplete', async () => {
    const member = await account({ teams: [await demoCountyId()], registrationCompleted: false });
    const answer = await post(member.token, '/api/v1/location/start-stream', {
      phoneNumber: unknownNumber,
    });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ error: 'registration-incomplete' });
    expect(await sessionsOf(member.id)).toEqual([]);
  });

  it('keeps the demo dispatcher locating', async () => {
    const token = await signIn(stack.api, dispatcherEmail);
    const session = await startStream(stack.api, token, unknownNumber);
    expect(session.uuid).toMatch(/^[0-9a-f-]{36}$/);
  });
});
