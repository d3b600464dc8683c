import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, startAuthStack, type AuthStack } from '../auth/support';
import { otherTeamEmail, startStream } from './support';

/**
 * The probe texted `+1 900…` (premium-rate), and nothing limited how many texts one account
 * could send in the name of emergency services. Small limits here (3 per user, 5 per team) so
 * the test reaches them; the defaults are in .env.example.
 */
let stack: AuthStack;
let dispatcher: string;
let dispatcher2: string;
let teamAdmin: string;
let neighbour: string;

beforeAll(async () => {
  stack = await startAuthStack({
    env: {
      SMS_RATE_LIMIT_PER_USER: '3',
      SMS_RATE_LIMIT_PER_TEAM: '5',
      SMS_RATE_LIMIT_WINDOW_SECONDS: '600',
    },
  });
  [dispatcher, dispatcher2, teamAdmin, neighbour] = await Promise.all([
    signIn(stack.api, 'dispatcher@demo-county.test'),
    signIn(stack.api, 'dispatcher2@demo-county.test'),
    signIn(stack.api, 'teamadmin@demo-county.test'),
    signIn(stack.api, otherTeamEmail),
  ]);
});
afterAll(() => stack?.close());

const premium = '+19005550100';
const tollFree = '+18005550100';

async function textsTo(phoneNumber: string): Promise<number> {
  const rows = await sql<{ n: number }>`
    select count(*)::int as n from sms_messages where phone_number = ${phoneNumber}`.execute(
    stack.database.db,
  );
  return rows.rows[0]!.n;
}

async function textLink(token: string, phoneNumber: string) {
  const session = await startStream(stack.api, token, phoneNumber);
  const answer = await call(stack.api, 'POST', '/api/v1/location/request-text-message-location', {
    token,
    body: { connectionRequestUuid: session.uuid, language: 'en' },
  });
  return { session, answer };
}

// The neighbouring county's dispatcher sends 2 texts here, within the limit of 3 per user.
describe('numbers that cannot receive texts', () => {
  it('refuses a premium-rate and a toll-free number with untextable-number, and texts neither', async () => {
    for (const [number, kind] of [
      [premium, /premium-rate/],
      [tollFree, /toll-free/],
    ] as const) {
      const { session, answer } = await textLink(neighbour, number);
      expect(answer.status, number).toBe(422);
      expect(answer.body).toMatchObject({
        error: 'untextable-number',
        message: expect.stringMatching(kind),
      });
      expect(answer.body.message).toMatch(/cannot receive text messages/);
      const asked = await call(stack.api, 'POST', '/api/v1/location/ask-location-by-text', {
        token: neighbour,
        body: { connectionRequestUuid: session.uuid },
      });
      expect(asked.status).toBe(422);
      expect(asked.body).toMatchObject({ error: 'untextable-number' });
      expect(await textsTo(number)).toBe(0);
    }
  });

  it('texts an ordinary number', async () => {
    const number = '+12025550171';
    const { answer } = await textLink(neighbour, number);
    expect(answer.status).toBe(200);
    expect(await textsTo(number)).toBe(1);
  });

  it('lists untextable numbers of a many-number request apart and texts the others', async () => {
    const session = await startStream(stack.api, neighbour, '+12025550172');
    const answer = await call<{
      callers: { phoneNumber: string; status: string }[];
      invalid: string[];
      untextable: { phoneNumber: string; reason: string }[];
    }>(stack.api, 'POST', '/api/v1/location/request-text-message-additional-locations', {
      token: neighbour,
      body: { connectionRequestUuid: session.uuid, newNumbers: [premium, '+12025550172', '12'] },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.untextable).toEqual([
      { phoneNumber: premium, reason: 'a premium-rate number' },
    ]);
    expect(answer.body.invalid).toEqual(['12']);
    expect(answer.body.callers.map((caller) => caller.phoneNumber)).toEqual(['+12025550172']);
    expect(await textsTo(premium)).toBe(0);
    expect(await textsTo('+12025550172')).toBe(1);
  });

  it('refuses a many-number request beyond the allowance whole: 429, and nobody is texted', async () => {
    // The neighbour has 1 text left; two numbers do not fit.
    const session = await startStream(stack.api, neighbour, '+12025550173');
    const answer = await call(
      stack.api,
      'POST',
      '/api/v1/location/request-text-message-additional-locations',
      {
        token: neighbour,
        body: { connectionRequestUuid: session.uuid, newNumbers: ['+12025550173', '+12025550174'] },
      },
    );
    expect(answer.status).toBe(429);
    expect(answer.body).toMatchObject({ error: 'rate-limited' });
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await textsTo('+12025550173')).toBe(0);
    expect(await textsTo('+12025550174')).toBe(0);
  });
});

// Demo County: 3 texts per dispatcher, 5 for the whole team.
describe('the per-user and per-team limits', () => {
  it('does not count texts to a number that replied STOP: the dispatcher still sends their 3', async () => {
    const stopped = '+12025550180';
    await stack.database.db.insertInto('sms_opt_outs').values({ phone_number: stopped }).execute();
    // More refusals than the whole allowance: none of them was sent, so none of them counts.
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      const { answer } = await textLink(dispatcher, stopped);
      expect(answer.status).toBe(409);
      expect(answer.body).toMatchObject({ error: 'sms-opted-out' });
    }
    expect(await textsTo(stopped)).toBe(0);
    for (const number of ['+12025550181', '+12025550182', '+12025550183']) {
      const { answer } = await textLink(dispatcher, number);
      expect(answer.status, number).toBe(200);
    }
  });

  it('answers the 4th text of one dispatcher 429 with Retry-After, and sends it nowhere', async () => {
    const { session, answer } = await textLink(dispatcher, '+12025550184');
    expect(answer.status).toBe(429);
    expect(answer.body).toMatchObject({
      error: 'rate-limited',
      message: expect.stringMatching(/^You have sent too many text messages/),
    });
    const retryAfter = Number(answer.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(await textsTo('+12025550184')).toBe(0);
    // Asking for a location by text is a text too.
    const asked = await call(stack.api, 'POST', '/api/v1/location/ask-location-by-text', {
      token: dispatcher,
      body: { connectionRequestUuid: session.uuid },
    });
    expect(asked.status).toBe(429);
    expect(asked.headers.get('retry-after')).not.toBeNull();
    expect(await textsTo('+12025550184')).toBe(0);
  });

  it('lets another dispatcher of the team text while the team is under its limit', async () => {
    for (const number of ['+12025550185', '+12025550186']) {
      const { answer } = await textLink(dispatcher2, number);
      expect(answer.status, number).toBe(200);
    }
  });

  it('stops every dispatcher of the team once the team has sent its 5', async () => {
    // dispatcher2 has sent 2 of their own 3, but the team has sent 3 + 2 = 5.
    for (const token of [dispatcher2, teamAdmin]) {
      const { answer } = await textLink(token, '+12025550187');
      expect(answer.status).toBe(429);
      expect(answer.body).toMatchObject({
        error: 'rate-limited',
        message: expect.stringMatching(/^Your team has sent too many text messages/),
      });
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(await textsTo('+12025550187')).toBe(0);
  });
});
