import { callerTexts, maxNumbersPerRequest } from '@locus/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, startAuthStack, type AuthStack } from '../auth/support';
import { fixAt } from '../support/sockets';
import {
  callerSocket,
  dispatcherEmail,
  joinSession,
  linkTokenIn,
  otherTeamEmail,
  outboxSms,
  startStream,
} from './support';

let stack: AuthStack;
let dispatcher: string;

beforeAll(async () => {
  stack = await startAuthStack();
  dispatcher = await signIn(stack.api, dispatcherEmail);
});
afterAll(() => stack?.close());

interface Texted {
  callers: { id: string; phoneNumber: string; status: string }[];
  invalid: string[];
}

const addNumbers = (token: string, sessionId: string, newNumbers: string[], language = 'en') =>
  call<Texted>(stack.api, 'POST', '/api/v1/location/request-text-message-additional-locations', {
    token,
    body: { connectionRequestUuid: sessionId, newNumbers, language },
  });

const textsSent = async () =>
  (
    await sql<{
      n: number;
    }>`select count(*)::int as n from sms_messages where direction = 'outbound'`.execute(
      stack.database.db,
    )
  ).rows[0]!.n;

describe('texting several numbers', () => {
  it('texts three typed numbers in Spanish, one link each, merging duplicates and refusing invalid ones', async () => {
    const request = await startStream(stack.api, dispatcher, '+12025550150');
    const answer = await addNumbers(
      dispatcher,
      request.uuid,
      ['2025550151', '+1 202 555 0152', '+12025550151', '+12025550153', '555', 'not a number'],
      'es',
    );
    expect(answer.status).toBe(200);
    expect(answer.body.invalid).toEqual(['555', 'not a number']);
    expect(answer.body.callers.map((caller) => [caller.phoneNumber, caller.status])).toEqual([
      ['+12025550151', 'sent'],
      ['+12025550152', 'sent'],
      ['+12025550153', 'sent'],
    ]);
    const links = new Set<string>();
    for (const number of ['+12025550151', '+12025550152', '+12025550153']) {
      const texts = await outboxSms(stack.api, number);
      expect(texts).toHaveLength(1);
      expect(texts[0]!.body).toBe(
        callerTexts.es.sms({
          agencyName: 'Demo County 911',
          link: texts[0]!.body.match(/https?:\/\/\S+\/share\?token=[A-Za-z0-9_-]{43}/)![0],
        }),
      );
      links.add(linkTokenIn(texts[0]!.body));
    }
    expect(links.size).toBe(3);
    const active = await call<{ session: { callers: { phoneNumber: string }[] } }>(
      stack.api,
      'GET',
      '/api/v1/location/active-session',
      { token: dispatcher },
    );
    expect(active.body.session.callers.map((caller) => caller.phoneNumber)).toEqual([
      '+12025550150',
      '+12025550151',
      '+12025550152',
      '+12025550153',
    ]);
  });

  it(`refuses more than ${maxNumbersPerRequest} numbers in one request, and texts nobody`, async () => {
    const request = await startStream(stack.api, dispatcher, '+12025550154');
    const before = await textsSent();
    const numbers = Array.from(
      { length: maxNumbersPerRequest + 1 },
      (_, i) => `+1202555${String(1000 + i).padStart(4, '0')}`,
    );
    const answer = await addNumbers(dispatcher, request.uuid, numbers);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'validation-failed' });
    expect(await textsSent()).toBe(before);
  });

  it('reaches a number added to a running session: its fixes arrive under its own caller id', async () => {
    const request = await startStream(stack.api, dispatcher, '+12025550155');
    const socket = await joinSession(stack.api, request);
    const answer = await addNumbers(dispatcher, request.uuid, ['+12025550156']);
    const added = answer.body.callers[0]!;
    const caller = await callerSocket(
      stack.api,
      linkTokenIn((await outboxSms(stack.api, '+12025550156'))[0]!.body),
    );
    caller.send('fix', fixAt(Date.now() - 2_000, 0));
    const fix = await socket.event('new-location-available');
    expect(fix.data.callerId).toBe(added.id);
    expect(added.id).not.toBe(request.id);
    await caller.close();
    await socket.close();
  });

  it("gives another team's dispatcher 404 and texts nobody", async () => {
    const request = await startStream(stack.api, dispatcher, '+12025550157');
    const other = await signIn(stack.api, otherTeamEmail);
    const before = await textsSent();
    const answer = await addNumbers(other, request.uuid, ['+12025550158']);
    expect(answer.status).toBe(404);
    expect(await textsSent()).toBe(before);
  });

  it("texts every number of the team's call lists once, in French, and refuses another team's list", async () => {
    const db = stack.database.db;
    const list = async (team: string, name: string, numbers: string[]) => {
      const row = await sql<{ id: string }>`
        insert into call_lists (team_id, name)
        values ((select id from teams where team_name = ${team}), ${name}) returning id`.execute(
        db,
      );
      const id = row.rows[0]!.id;
      for (const number of numbers)
        await sql`insert into call_list_numbers (call_list_id, phone_number) values (${id}, ${number})`.execute(
          db,
        );
      return id;
    };
    const boats = await list('Demo County 911', 'Test boats', ['+12025550160', '+12025550161']);
    const divers = await list('Demo County 911', 'Test divers', ['+12025550161', '+12025550162']);
    const theirs = await list('Neighbouring County', 'Their list', ['+12025550163']);
    const request = await startStream(stack.api, dispatcher, '+12025550160');
    const send = (callList: string[]) =>
      call<Texted>(stack.api, 'POST', '/api/v1/location/request-text-message-multiple-locations', {
        token: dispatcher,
        body: { connectionRequestUuid: request.uuid, callList, language: 'fr' },
      });

    const before = await textsSent();
    const refused = await send([boats, theirs]);
    expect(refused.status).toBe(404);
    expect(await textsSent()).toBe(before);

    const answer = await send([boats, divers]);
    expect(answer.status).toBe(200);
    expect(answer.body.callers.map((caller) => caller.phoneNumber).sort()).toEqual([
      '+12025550160',
      '+12025550161',
      '+12025550162',
    ]);
    for (const number of ['+12025550160', '+12025550161', '+12025550162']) {
      const texts = await outboxSms(stack.api, number);
      expect(texts).toHaveLength(1);
      expect(texts[0]!.body).toContain(
        callerTexts.fr.sms({ agencyName: 'Demo County 911', link: 'LINK' }).split('LINK')[0]!,
      );
    }
  });
});
