import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeTwilio } from '../fakes/twilio-server';
import { call, signIn, startAuthStack, type AuthStack } from '../auth/support';
import type { TestSocket } from '../support/sockets';
import {
  callerSocket,
  dispatcherEmail,
  joinSession,
  linkTokenIn,
  startStream,
  twilioStackOptions,
  type ConnectionRequest,
} from './support';

const publicUrl = 'https://locus.test';
let fake: FakeTwilio;
let stack: AuthStack;
let dispatcher: string;

beforeAll(async () => {
  fake = await FakeTwilio.start();
  const options = twilioStackOptions(fake, publicUrl);
  // The API waits 2 s for a send's outcome, so that a slow Twilio's late answer is quick to play.
  stack = await startAuthStack({ ...options, env: { ...options.env, SMS_WAIT_MS: '2000' } });
  dispatcher = await signIn(stack.api, dispatcherEmail);
});
afterAll(async () => {
  await stack?.close();
  await fake?.close();
});

const inboundPath = '/api/v1/sms/twilio/inbound';
const statusPath = '/api/v1/sms/twilio/status';

/** Twilio calling a webhook: signed over the public URL, delivered to this instance. */
function twilioPosts(path: string, params: Record<string, string>, options = {}) {
  return fake.callback(`${stack.api.url}${path}`, params, {
    signedUrl: `${publicUrl}${path}`,
    ...options,
  });
}

async function textCaller(
  phoneNumber: string,
  language = 'en',
): Promise<{
  request: ConnectionRequest;
  socket: TestSocket;
  answer: { status: number; body: unknown };
}> {
  const request = await startStream(stack.api, dispatcher, phoneNumber);
  const socket = await joinSession(stack.api, request);
  const answer = await call(stack.api, 'POST', '/api/v1/location/request-text-message-location', {
    token: dispatcher,
    body: { connectionRequestUuid: request.uuid, language },
  });
  return { request, socket, answer };
}

const inboundCount = async () =>
  (
    await sql<{
      n: number;
    }>`select count(*)::int as n from sms_messages where direction = 'inbound'`.execute(
      stack.database.db,
    )
  ).rows[0]!.n;

describe('texting through Twilio', () => {
  it('sends the link with a status callback, and shows delivery and replies to the dispatcher', async () => {
    // The team has a partner endpoint for text statuses (issue 15): Twilio's callbacks reach it.
    const team = await sql<{ id: string }>`
      select id from teams where team_name = 'Demo County 911'`.execute(stack.database.db);
    const endpoint = await sql<{ id: string }>`
      insert into partner_webhooks (team_id, url, events, secret)
      values (${team.rows[0]!.id}, 'https://receiver.invalid/hooks', ${['sms.status']},
        'whsec_dGVzdA==')
      returning id`.execute(stack.database.db);
    const { socket, answer } = await textCaller('+12025550171');
    expect(answer.status).toBe(200);
    const message = fake.messages.find((sent) => sent.to === '+12025550171')!;
    expect(message.body).toContain(`${publicUrl}/share?token=`);
    expect(message.statusCallback).toBe(`${publicUrl}${statusPath}`);
    // The live link is not kept in the database once Twilio has the text.
    const stored = await sql<{ body: string }>`
      select body from sms_messages where phone_number = '+12025550171' and direction = 'outbound'`.execute(
      stack.database.db,
    );
    expect(stored.rows[0]!.body).toContain('/share?token=[sent]');
    expect(stored.rows[0]!.body).not.toContain(linkTokenIn(message.body));
    await socket.next((frame) => frame.event === 'sms-status' && frame.data.status === 'sent');

    const delivered = await twilioPosts(statusPath, {
      MessageSid: message.sid,
      MessageStatus: 'delivered',
      To: message.to,
    });
    expect(delivered.status).toBe(204);
    await socket.next((frame) => frame.event === 'sms-status' && frame.data.status === 'delivered');
    const announced = await sql<{ status: string }>`
      select payload->'data'->>'status' as status from partner_webhook_deliveries
      where webhook_id = ${endpoint.rows[0]!.id} and event = 'sms.status'
      order by created_at`.execute(stack.database.db);
    expect(announced.rows.map((row) => row.status)).toEqual(['sent', 'delivered']);
    await sql`delete from partner_webhooks where id = ${endpoint.rows[0]!.id}`.execute(
      stack.database.db,
    );

    const reply = await twilioPosts(inboundPath, {
      MessageSid: 'SM00000000000000000000000000000001',
      From: '+12025550171',
      To: '+15005550006',
      Body: 'I am at the north gate',
    });
    expect(reply.status).toBe(200);
    expect(await reply.text()).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
    const received = await socket.event('sms-received');
    expect(received.data.body).toBe('I am at the north gate');
    await socket.close();
  });

  it('accepts webhooks only with a valid X-Twilio-Signature, and changes nothing otherwise', async () => {
    const params = {
      MessageSid: 'SM00000000000000000000000000000002',
      From: '+12025550171',
      To: '+15005550006',
      Body: 'STOP',
    };
    const before = await inboundCount();
    const missing = await fetch(`${stack.api.url}${inboundPath}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params),
    });
    expect(missing.status).toBe(403);
    expect(await missing.json()).toMatchObject({ error: 'forbidden' });
    // Signed for another body: the signature covers every parameter.
    const altered = await twilioPosts(inboundPath, params, {
      signedParams: { ...params, Body: 'hello' },
    });
    expect(altered.status).toBe(403);
    const wrongKey = await twilioPosts(inboundPath, params, { authToken: 'not-the-auth-token' });
    expect(wrongKey.status).toBe(403);
    expect(await inboundCount()).toBe(before);
    const optOuts = await sql<{ n: number }>`select count(*)::int as n from sms_opt_outs`.execute(
      stack.database.db,
    );
    expect(optOuts.rows[0]!.n).toBe(0);
  });

  it('answers HELP in the language the number was texted in', async () => {
    const { socket } = await textCaller('+12025550172', 'fr');
    const reply = await twilioPosts(inboundPath, {
      MessageSid: 'SM00000000000000000000000000000003',
      From: '+12025550172',
      To: '+15005550006',
      Body: ' help ',
    });
    const twiml = await reply.text();
    expect(twiml).toMatch(/<Response><Message>.+<\/Message><\/Response>$/);
    const { callerTexts } = await import('@locus/contract');
    expect(twiml).toContain(callerTexts.fr.smsHelpReply.slice(0, 20).replace(/'/g, '&#39;'));
    await socket.close();
  });

  it("STOP revokes the number's link and blocks further texts until START", async () => {
    const phone = '+12025550173';
    const { request, socket } = await textCaller(phone);
    const linkToken = linkTokenIn(fake.messages.find((sent) => sent.to === phone)!.body);
    const sharing = await callerSocket(stack.api, linkToken);
    await socket.next(
      (frame) => frame.event === 'caller-connected' && frame.data.connected === true,
    );
    const stop = await twilioPosts(inboundPath, {
      MessageSid: 'SM00000000000000000000000000000004',
      From: phone,
      To: '+15005550006',
      Body: 'STOP',
    });
    expect(await stop.text()).toContain('<Message>');
    await socket.next((frame) => frame.event === 'sms-received' && frame.data.body === 'STOP');

    // The page that was sharing is closed, and learns from its link that the number stopped.
    expect(await sharing.closed()).toBe(4401);
    const link = await call(stack.api, 'GET', `/api/v1/caller/link?token=${linkToken}`);
    expect(link.body).toEqual({ status: 'stopped', language: 'en' });
    const caller = await callerSocket(stack.api, linkToken);
    expect(await caller.closed()).toBe(4401);

    const sent = fake.messages.length;
    const again = await call(stack.api, 'POST', '/api/v1/location/request-text-message-location', {
      token: dispatcher,
      body: { connectionRequestUuid: request.uuid, language: 'en' },
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'sms-opted-out' });
    expect(fake.messages.length).toBe(sent);

    await twilioPosts(inboundPath, {
      MessageSid: 'SM00000000000000000000000000000005',
      From: phone,
      To: '+15005550006',
      Body: 'START',
    });
    const resumed = await call(
      stack.api,
      'POST',
      '/api/v1/location/request-text-message-location',
      {
        token: dispatcher,
        body: { connectionRequestUuid: request.uuid, language: 'en' },
      },
    );
    expect(resumed.status).toBe(200);
    expect(fake.messages.length).toBe(sent + 1);
    await socket.close();
  });

  it('answers sms-failed when Twilio refuses the number, and tells the dispatcher socket', async () => {
    fake.landlines.add('+12025550174');
    const { socket, answer } = await textCaller('+12025550174');
    expect(answer.status).toBe(502);
    expect(answer.body).toMatchObject({ error: 'sms-failed' });
    await socket.next((frame) => frame.event === 'sms-status' && frame.data.status === 'failed');
    await socket.close();
  });

  it('applies a delivery report that arrives before the worker has stored the message id', async () => {
    const number = '+12025550176';
    let early: Response | undefined;
    // Twilio reports "delivered" before its answer to the send reaches the worker.
    fake.beforeAnswer = async (message) => {
      if (message.to !== number) return;
      early = await twilioPosts(statusPath, {
        MessageSid: message.sid,
        MessageStatus: 'delivered',
        To: number,
        AccountSid: fake.accountSid,
      });
    };
    try {
      const { request, socket, answer } = await textCaller(number);
      expect(answer.status).toBe(200);
      expect(early?.ok).toBe(true);
      await socket.next(
        (frame) => frame.event === 'sms-status' && frame.data.status === 'delivered',
      );
      const rows = await sql<{ status: string; kept: number }>`
        select m.status, (select count(*)::int from sms_early_reports e
                          where e.provider_message_id = m.provider_message_id) as kept
        from sms_messages m where m.session_id = ${request.uuid}`.execute(stack.database.db);
      // Applied, and no longer kept.
      expect(rows.rows).toEqual([{ status: 'delivered', kept: 0 }]);
      await socket.close();
    } finally {
      fake.beforeAnswer = undefined;
    }
  });

  it('applies a report kept for a text whose worker died after storing its id (the job run again)', async () => {
    const { request, socket, answer } = await textCaller('+12025550178');
    expect(answer.status).toBe(200);
    await socket.next((frame) => frame.event === 'sms-status' && frame.data.status === 'sent');
    const [sms] = (
      await sql<{ id: string; sid: string }>`
        select id, provider_message_id as sid from sms_messages
        where session_id = ${request.uuid}`.execute(stack.database.db)
    ).rows;
    // What a worker killed between committing the id and applying the kept reports leaves.
    await sql`insert into sms_early_reports (provider_message_id, status, error)
              values (${sms!.sid}, 'delivered', null)`.execute(stack.database.db);
    // BullMQ runs the stalled job again.
    await stack.api.app.locus.queues.enqueue('smsSend', { smsId: sms!.id }, `again-${sms!.id}`);
    await socket.next((frame) => frame.event === 'sms-status' && frame.data.status === 'delivered');
    const kept = await sql<{ kept: number }>`
      select count(*)::int as kept from sms_early_reports
      where provider_message_id = ${sms!.sid}`.execute(stack.database.db);
    expect(kept.rows).toEqual([{ kept: 0 }]);
    await socket.close();
  });

  it('tells the dispatcher of a refusal that comes after the API stopped waiting, and fails the request', async () => {
    const number = '+12025550177';
    fake.landlines.add(number);
    let answerTwilio = () => {};
    fake.hold = new Promise((resolve) => (answerTwilio = resolve));
    try {
      const { request, socket, answer } = await textCaller(number);
      // The API waited its 2 s and answered 200 (the text is still with Twilio, so no 502).
      expect(answer.status).toBe(200);
      answerTwilio();
      await socket.next((frame) => frame.event === 'sms-status' && frame.data.status === 'failed');
      await expect
        .poll(async () => {
          const session = await sql<{ error: string | null }>`
            select request_error as error from tracking_sessions
            where id = ${request.uuid}`.execute(stack.database.db);
          return session.rows[0]?.error ?? null;
        })
        .toBe('sms-failed');
      await socket.close();
    } finally {
      fake.hold = undefined;
    }
  });
});
