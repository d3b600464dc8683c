import { callerTexts, chatLimits } from '@locus/contract';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, startAuthStack, type AuthStack } from '../auth/support';
import { TestSocket, type ReceivedFrame } from '../support/sockets';
import {
  callerSocket,
  dispatcherEmail,
  linkTokenIn,
  otherTeamEmail,
  outboxSms,
} from '../tracking/support';
import {
  chat,
  chatEvents,
  chatSession,
  expectInOrderOnce,
  FakeTranslator,
  initiateChat,
  type ChatSession,
} from './support';

let stack: AuthStack;
let engine: (typeof stack.api.app.locus.chat)['translator'];

beforeAll(async () => {
  stack = await startAuthStack();
  engine = stack.api.app.locus.chat.translator;
});
afterEach(() => {
  stack.api.app.locus.chat.translator = engine;
});
afterAll(async () => {
  await stack?.close();
});

const messageWith = (text: string) => (frame: ReceivedFrame) =>
  frame.event === 'chat-message' && frame.data.text === text;

const texts = (socket: TestSocket) => socket.of('chat-message').map((frame) => frame.data.text);

const highestSeq = (socket: TestSocket) =>
  Math.max(0, ...socket.frames.map((frame) => Number(frame.data.seq ?? 0)));

async function storedMessages(sessionId: string) {
  const rows = await sql<{ seq: number; sender: string; body: string; client_id: string }>`
    select seq, sender, body, client_id from chat_messages where session_id = ${sessionId} order by seq`.execute(
    stack.database.db,
  );
  return rows.rows;
}

/** A session with the chat opened and the caller's page joined to it (lastSeq 0). */
async function openedChat(phoneNumber: string, language: 'en' | 'es' | 'fr' | 'zh' = 'en') {
  const session = await chatSession(stack.api, dispatcherEmail, phoneNumber, language);
  session.caller.send('chat-join', { lastSeq: 0 });
  expect((await initiateChat(stack.api, session)).status).toBe(200);
  await session.caller.event('chat-opened');
  await session.dispatcher.event('chat-opened');
  return session;
}

const toCaller = (session: ChatSession, text: string, clientId = randomUUID()) =>
  chat(session.dispatcher, { callerId: session.callerId, clientId, text });

describe('chat between the dispatcher and the caller', () => {
  it('opens once, then carries messages both ways, stored with their seq', async () => {
    const session = await chatSession(stack.api, dispatcherEmail, '+12025550181');
    session.caller.send('chat-join', { lastSeq: 0 });
    // Before the dispatcher opens the chat, neither side can write.
    const early = await toCaller(session, 'Hello?');
    expect(early.data).toMatchObject({ outcome: 'refused' });
    expect(early.data.reason).toMatch(/not opened/);
    expect((await chat(session.caller, { text: 'help' })).data.outcome).toBe('refused');

    const opened = await initiateChat(stack.api, session);
    expect(opened.status).toBe(200);
    const again = await initiateChat(stack.api, session);
    expect(again.body.chatInitiatedAt).toBe(opened.body.chatInitiatedAt);
    const announced = await session.caller.event('chat-opened');
    expect(announced.data).toMatchObject({
      sessionId: session.request.uuid,
      callerId: session.callerId,
    });

    const ack = await toCaller(session, 'Are you hurt?');
    expect(ack.data).toMatchObject({ outcome: 'stored', messageId: expect.any(String) });
    const received = await session.caller.next(messageWith('Are you hurt?'));
    expect(received.data).toMatchObject({
      seq: ack.data.seq,
      messageId: ack.data.messageId,
      callerId: session.callerId,
      from: 'dispatcher',
      senderName: 'Dana Dispatcher',
      language: 'en',
      quickReply: null,
      // An English session: translation off.
      translation: null,
      translationStatus: 'off',
    });

    const back = await chat(session.caller, { text: 'No, but I cannot talk' });
    expect(back.data.outcome).toBe('stored');
    const atDispatcher = await session.dispatcher.next(messageWith('No, but I cannot talk'));
    expect(atDispatcher.data).toMatchObject({
      seq: back.data.seq,
      from: 'caller',
      senderName: null,
      language: 'en',
      translationStatus: 'off',
    });
    await session.caller.next(messageWith('No, but I cannot talk'));

    expect(await storedMessages(session.request.uuid)).toEqual([
      {
        seq: ack.data.seq,
        sender: 'dispatcher',
        body: 'Are you hurt?',
        client_id: ack.data.clientId,
      },
      {
        seq: back.data.seq,
        sender: 'caller',
        body: 'No, but I cannot talk',
        client_id: back.data.clientId,
      },
    ]);
    // Opened once: one announcement, though the route was called twice.
    expect(session.caller.countOf('chat-opened')).toBe(1);
    expect(session.dispatcher.countOf('chat-opened')).toBe(1);
    // The page never shared a location, and its socket carries nothing but its chat.
    expect(session.caller.frames.every((frame) => frame.event.startsWith('chat-'))).toBe(true);
  });

  it('delivers every message exactly once, in order, after reconnects on both sides and a reload', async () => {
    const session = await openedChat('+12025550182');
    await toCaller(session, 'one');
    await session.caller.next(messageWith('one'));
    const callerSeen = highestSeq(session.caller);
    await session.caller.close();

    await toCaller(session, 'two');
    await toCaller(session, 'three');
    const back = await callerSocket(stack.api, session.linkToken);
    back.send('chat-join', { lastSeq: callerSeen });
    await back.count('chat-message', 2);
    await toCaller(session, 'four');
    await back.count('chat-message', 3);
    expect(texts(back)).toEqual(['two', 'three', 'four']);
    expectInOrderOnce(chatEvents(back));

    // The caller writes while the dispatcher's console is away.
    const dispatcherSeen = highestSeq(session.dispatcher);
    await session.dispatcher.close();
    expect((await chat(back, { text: 'I am here' })).data.outcome).toBe('stored');
    const rejoined = await TestSocket.open(
      `${stack.api.wsUrl}/api/v1/socket?token=${session.request.token}`,
    );
    rejoined.send('join', { sessionId: session.request.uuid, lastSeq: dispatcherSeen });
    await rejoined.event('joined');
    expect(texts(rejoined)).toEqual(['I am here']);

    // A reload on both sides: everything again, once, in order.
    const reloaded = await callerSocket(stack.api, session.linkToken);
    reloaded.send('chat-join', { lastSeq: 0 });
    await reloaded.count('chat-message', 5);
    expect(chatEvents(reloaded).map((frame) => frame.event)).toEqual([
      'chat-opened',
      ...Array<string>(5).fill('chat-message'),
    ]);
    expect(texts(reloaded)).toEqual(['one', 'two', 'three', 'four', 'I am here']);
    expectInOrderOnce(chatEvents(reloaded));
    expect(reloaded.frames.every((frame) => frame.event.startsWith('chat-'))).toBe(true);

    const console = await TestSocket.open(
      `${stack.api.wsUrl}/api/v1/socket?token=${session.request.token}`,
    );
    console.send('join', { sessionId: session.request.uuid, lastSeq: 0 });
    await console.event('joined');
    expect(texts(console)).toEqual(['one', 'two', 'three', 'four', 'I am here']);
    expectInOrderOnce(console.of('chat-message'));
    const stored = await storedMessages(session.request.uuid);
    expect(stored.map((row) => row.seq)).toEqual(
      console.of('chat-message').map((frame) => frame.data.seq),
    );
  });
});

describe('who may read and write', () => {
  it("answers another team's session 404, and a caller reads only their own chat", async () => {
    const session = await chatSession(stack.api, dispatcherEmail, '+12025550183');
    const outsider = await signIn(stack.api, otherTeamEmail);
    const path = `/api/v1/location/chat-initiated/${session.request.uuid}`;
    expect((await call(stack.api, 'POST', path, { token: outsider, body: {} })).status).toBe(404);
    const transcript = `/api/v1/location/chat-transcript/${session.request.uuid}`;
    expect((await call(stack.api, 'GET', transcript, { token: outsider })).status).toBe(404);

    const added = await call<{ callers: { id: string }[] }>(
      stack.api,
      'POST',
      '/api/v1/location/request-text-message-additional-locations',
      {
        token: session.authToken,
        body: {
          connectionRequestUuid: session.request.uuid,
          newNumbers: ['+12025550184'],
          language: 'en',
        },
      },
    );
    expect(added.status).toBe(200);
    const secondId = added.body.callers[0]!.id;
    const second = await callerSocket(
      stack.api,
      linkTokenIn((await outboxSms(stack.api, '+12025550184'))[0]!.body),
    );
    second.send('chat-join', { lastSeq: 0 });
    session.caller.send('chat-join', { lastSeq: 0 });
    expect((await initiateChat(stack.api, session)).status).toBe(200);
    expect((await second.event('chat-opened')).data.callerId).toBe(secondId);
    expect((await session.caller.event('chat-opened')).data.callerId).toBe(session.callerId);

    await toCaller(session, 'for the first caller');
    await chat(session.dispatcher, { callerId: secondId, clientId: randomUUID(), text: 'for you' });
    await second.next(messageWith('for you'));
    await session.caller.next(messageWith('for the first caller'));
    // The first caller's message was published before; the second caller never got it.
    expect(texts(second)).toEqual(['for you']);
    expect(chatEvents(second).every((frame) => frame.data.callerId === secondId)).toBe(true);
    // A caller cannot write as another: the frame has no room for a caller id.
    const posing = await chat(second, { callerId: session.callerId, text: 'as the first' });
    expect(posing.data.outcome).toBe('refused');

    const reloaded = await callerSocket(
      stack.api,
      linkTokenIn((await outboxSms(stack.api, '+12025550184'))[0]!.body),
    );
    reloaded.send('chat-join', { lastSeq: 0 });
    await reloaded.next(messageWith('for you'));
    expect(chatEvents(reloaded).map((frame) => frame.data.callerId)).toEqual([secondId, secondId]);

    // An ended session cannot be opened for chat.
    const ended = await call(
      stack.api,
      'POST',
      `/api/v1/location/set-date-time-completed/${session.request.uuid}`,
      { token: session.authToken, body: {} },
    );
    expect(ended.status).toBe(200);
    expect((await initiateChat(stack.api, session)).status).toBe(409);
  });
});

describe('after a transfer, and callers added later', () => {
  it('refuses a dispatcher whose case moved to a colleague, even on a socket still open', async () => {
    const session = await openedChat('+12025550171');
    expect((await toCaller(session, 'mine still')).data.outcome).toBe('stored');
    // The case moved (what an accepted transfer commits) before this socket was closed.
    const colleague = await stack.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'dispatcher2@demo-county.test')
      .executeTakeFirstOrThrow();
    await stack.database.db
      .updateTable('tracking_sessions')
      .set({ dispatcher_id: colleague.id })
      .where('id', '=', session.request.uuid)
      .execute();
    const late = await toCaller(session, 'not mine any more');
    expect(late.data).toMatchObject({
      outcome: 'refused',
      reason: 'This case is no longer yours; nothing was sent.',
    });
    expect((await storedMessages(session.request.uuid)).map((row) => row.body)).toEqual([
      'mine still',
    ]);
    // The caller can still write; the dispatcher who has the case reads it.
    expect((await chat(session.caller, { text: 'hello?' })).data.outcome).toBe('stored');
  });

  it('opens the chat for a caller added after it was opened, once, and repairs a lost announcement', async () => {
    const session = await openedChat('+12025550172');
    const added = await call<{ callers: { id: string }[] }>(
      stack.api,
      'POST',
      '/api/v1/location/request-text-message-additional-locations',
      {
        token: session.authToken,
        body: {
          connectionRequestUuid: session.request.uuid,
          newNumbers: ['+12025550173'],
          language: 'en',
        },
      },
    );
    expect(added.status).toBe(200);
    const secondId = added.body.callers[0]!.id;
    const link = linkTokenIn((await outboxSms(stack.api, '+12025550173'))[0]!.body);
    const second = await callerSocket(stack.api, link);
    second.send('chat-join', { lastSeq: 0 });
    expect((await second.event('chat-opened')).data.callerId).toBe(secondId);
    // The new caller can write at once.
    expect((await chat(second, { text: 'I am here too' })).data.outcome).toBe('stored');

    // An announcement lost midway (marker never set): chat-initiated again makes it, and
    // nobody already told is told twice.
    await stack.database.db
      .updateTable('session_callers')
      .set({ chat_opened_at: null })
      .where('id', '=', secondId)
      .execute();
    expect((await initiateChat(stack.api, session)).status).toBe(200);
    await second.count('chat-opened', 2);
    expect((await initiateChat(stack.api, session)).status).toBe(200);
    await toCaller(session, 'to the first caller, after');
    await session.caller.next(messageWith('to the first caller, after'));
    const reloaded = await callerSocket(stack.api, link);
    reloaded.send('chat-join', { lastSeq: 0 });
    await chat(session.dispatcher, { callerId: secondId, clientId: randomUUID(), text: 'last' });
    await reloaded.next(messageWith('last'));
    expect(reloaded.of('chat-opened')).toHaveLength(2);
    expect(session.caller.of('chat-opened')).toHaveLength(1);
  });
});

describe('bad input', () => {
  it('refuses empty and over-long messages, stores nothing for them, and keeps HTML as inert text', async () => {
    const session = await openedChat('+12025550185');
    const blank = await toCaller(session, '   ');
    expect(blank.data.outcome).toBe('refused');
    const long = await toCaller(session, 'x'.repeat(2_001));
    expect(long.data.outcome).toBe('refused');
    const both = await chat(session.dispatcher, {
      callerId: session.callerId,
      clientId: randomUUID(),
      text: 'hi',
      quickReply: 'are-you-safe',
    });
    expect(both.data.outcome).toBe('refused');
    const stranger = await chat(session.dispatcher, {
      callerId: randomUUID(),
      clientId: randomUUID(),
      text: 'who are you',
    });
    expect(stranger.data).toMatchObject({
      outcome: 'refused',
      reason: 'No such caller in this session.',
    });

    const html = '<img src=x onerror="alert(1)"><script>alert(2)</script>';
    expect((await toCaller(session, html)).data.outcome).toBe('stored');
    expect((await session.caller.next(messageWith(html))).data.text).toBe(html);
    const longest = 'y'.repeat(2_000);
    expect((await chat(session.caller, { text: longest })).data.outcome).toBe('stored');
    expect((await chat(session.caller, { text: '' })).data.outcome).toBe('refused');

    const stored = await storedMessages(session.request.uuid);
    expect(stored.map((row) => row.body)).toEqual([html, longest]);
    expect(session.dispatcher.closeCode).toBeUndefined();
  });

  it('answers a flood with refused acks and rate-limited errors, stores only what the limit allows, and stays open', async () => {
    const session = await openedChat('+12025550186');
    const ids = Array.from({ length: 20 }, () => randomUUID());
    for (const [i, clientId] of ids.entries())
      session.dispatcher.send('chat', { callerId: session.callerId, clientId, text: `flood ${i}` });
    await session.dispatcher.count('chat-ack', 20);
    const acks = session.dispatcher.of('chat-ack');
    const stored = acks.filter((frame) => frame.data.outcome === 'stored');
    expect(stored).toHaveLength(5);
    const refused = acks.filter((frame) => frame.data.outcome === 'refused');
    expect(refused).toHaveLength(15);
    // Exactly `rate-limited` (contract: ChatAck): the client may send them again later.
    expect(refused.every((frame) => frame.data.reason === 'rate-limited')).toBe(true);
    expect(
      session.dispatcher.of('error').filter((frame) => frame.data.error === 'rate-limited'),
    ).toHaveLength(15);
    expect((await storedMessages(session.request.uuid)).map((row) => row.client_id)).toEqual(
      stored.map((frame) => frame.data.clientId),
    );
    // Still open and live: the caller's answer reaches it.
    await chat(session.caller, { text: 'still there?' });
    await session.dispatcher.next(messageWith('still there?'));
    expect(session.dispatcher.closeCode).toBeUndefined();
    await session.caller.count('chat-message', 6);
  });

  it("answers a caller's flood with refused acks and rate-limited errors, stores none of the refused, and keeps the page's socket working", async () => {
    const session = await openedChat('+12025550193');
    const ids = Array.from({ length: 20 }, () => randomUUID());
    for (const [i, clientId] of ids.entries())
      session.caller.send('chat', { clientId, text: `help ${i}` });
    await session.caller.count('chat-ack', 20);
    const acks = session.caller.of('chat-ack');
    // One ack per message, none twice.
    expect(new Set(acks.map((frame) => frame.data.clientId))).toEqual(new Set(ids));
    const stored = acks.filter((frame) => frame.data.outcome === 'stored');
    const refused = acks.filter((frame) => frame.data.outcome === 'refused');
    expect(stored).toHaveLength(chatLimits.burst);
    expect(refused).toHaveLength(20 - chatLimits.burst);
    expect(refused.every((frame) => frame.data.reason === 'rate-limited')).toBe(true);
    expect(
      session.caller.of('error').filter((frame) => frame.data.error === 'rate-limited'),
    ).toHaveLength(20 - chatLimits.burst);
    // Only what was acknowledged as stored is stored, and only that reaches the dispatcher.
    const storedIds = stored.map((frame) => frame.data.clientId);
    const rows = await storedMessages(session.request.uuid);
    expect(rows.map((row) => row.client_id).sort()).toEqual([...storedIds].sort());
    expect(rows.every((row) => row.sender === 'caller')).toBe(true);
    const refusedIds = new Set(refused.map((frame) => frame.data.clientId));
    expect(rows.some((row) => refusedIds.has(row.client_id))).toBe(false);
    await session.dispatcher.count('chat-message', chatLimits.burst);

    // The page's socket stays open and live: the dispatcher's answer reaches it, and the
    // dispatcher (another sender, another allowance) is not held back by the caller's flood.
    const answer = await toCaller(session, 'Stay calm, help is coming');
    expect(answer.data.outcome).toBe('stored');
    await session.caller.next(messageWith('Stay calm, help is coming'));
    expect(session.caller.closeCode).toBeUndefined();
    const storedBodies = (await storedMessages(session.request.uuid)).map((row) => row.body);
    expect(storedBodies).toHaveLength(chatLimits.burst + 1);
    expect(storedBodies.at(-1)).toBe('Stay calm, help is coming');
    expect(
      session.dispatcher.of('chat-message').filter((frame) => frame.data.from === 'caller'),
    ).toHaveLength(chatLimits.burst);
  });

  it('stores a message resent with the same client id after a reconnect once', async () => {
    const session = await openedChat('+12025550187');
    const clientId = randomUUID();
    const first = await toCaller(session, 'once', clientId);
    await session.dispatcher.close();
    const rejoined = await TestSocket.open(
      `${stack.api.wsUrl}/api/v1/socket?token=${session.request.token}`,
    );
    rejoined.send('join', { sessionId: session.request.uuid, lastSeq: 0 });
    await rejoined.event('joined');
    const resent = await chat(rejoined, { callerId: session.callerId, clientId, text: 'once' });
    expect(resent.data).toMatchObject({
      outcome: 'stored',
      messageId: first.data.messageId,
      seq: first.data.seq,
    });

    const callerClientId = randomUUID();
    const mine = await chat(session.caller, { clientId: callerClientId, text: 'me too' });
    await session.caller.close();
    const again = await callerSocket(stack.api, session.linkToken);
    again.send('chat-join', { lastSeq: 0 });
    const twice = await chat(again, { clientId: callerClientId, text: 'me too' });
    expect(twice.data).toMatchObject({ messageId: mine.data.messageId, seq: mine.data.seq });
    // Whatever was announced before the next message has arrived by then.
    await chat(rejoined, { callerId: session.callerId, clientId: randomUUID(), text: 'after' });
    await again.next(messageWith('after'));
    expect(texts(again)).toEqual(['once', 'me too', 'after']);
    expect((await storedMessages(session.request.uuid)).map((row) => row.body)).toEqual([
      'once',
      'me too',
      'after',
    ]);
  });
});

describe('storage out of reach', () => {
  it('refuses a message it cannot store, with an error the sender sees, announces nothing, and stores the resend once', async () => {
    const session = await openedChat('+12025550192');
    const clientId = randomUUID();
    // The chat's table out of reach, as when Postgres is down for it.
    await sql`alter table chat_messages rename to chat_messages_away`.execute(stack.database.db);
    let refused: ReceivedFrame;
    try {
      refused = await toCaller(session, 'lost?', clientId);
    } finally {
      await sql`alter table chat_messages_away rename to chat_messages`.execute(stack.database.db);
    }
    expect(refused.data).toMatchObject({ outcome: 'refused', clientId });
    expect((await session.dispatcher.next((frame) => frame.event === 'error')).data.error).toBe(
      'service-unavailable',
    );
    const resent = await toCaller(session, 'lost?', clientId);
    expect(resent.data.outcome).toBe('stored');
    await session.caller.next(messageWith('lost?'));
    expect(texts(session.caller)).toEqual(['lost?']);
    expect((await storedMessages(session.request.uuid)).map((row) => row.body)).toEqual(['lost?']);
    expect(session.dispatcher.closeCode).toBeUndefined();
  });
});

describe('translation', () => {
  it("translates into the reader's language, sends the original after the deadline, and translates quick replies from the catalogue", async () => {
    const fake = new FakeTranslator([
      ['en', 'es'],
      ['es', 'en'],
    ]);
    stack.api.app.locus.chat.translator = fake;
    const session = await openedChat('+12025550188', 'es');

    await toCaller(session, 'Where are you?');
    expect((await session.caller.next(messageWith('Where are you?'))).data).toMatchObject({
      language: 'en',
      translation: { language: 'es', text: '[es] Where are you?' },
      translationStatus: 'translated',
    });
    await chat(session.caller, { text: 'Estoy en casa' });
    expect((await session.dispatcher.next(messageWith('Estoy en casa'))).data).toMatchObject({
      language: 'es',
      translation: { language: 'en', text: '[en] Estoy en casa' },
      translationStatus: 'translated',
    });

    // An engine slower than the deadline: the original first, its translation after. Timed
    // from the send to the caller's receipt, while the translation is still held.
    fake.hold('Slow one');
    const sentAt = performance.now();
    const arrival = session.caller
      .next(messageWith('Slow one'))
      .then((frame) => ({ frame, after: performance.now() - sentAt }));
    const slow = await toCaller(session, 'Slow one');
    const { frame: pending, after } = await arrival;
    expect(pending.data).toMatchObject({ translation: null, translationStatus: 'pending' });
    // It waited for the translation up to the deadline (less a little for timer rounding)…
    expect(after).toBeGreaterThanOrEqual(chatLimits.translationDeadlineMs - 50);
    // …and was not held for it: the translation is still held here, so the original's arrival
    // at all proves that. The bound only catches a deadline set far longer; it is twice the
    // deadline because the time includes Redis, the socket and this process's own event loop
    // on a loaded 2-core machine.
    expect(after).toBeLessThan(chatLimits.translationDeadlineMs * 2);
    expect(fake.calls.filter((c) => c.text === 'Slow one')).toHaveLength(1);
    fake.release('Slow one');
    const later = await session.caller.event('chat-translation');
    expect(later.data).toMatchObject({
      callerId: session.callerId,
      messageId: slow.data.messageId,
      translation: { language: 'es', text: '[es] Slow one' },
      translationStatus: 'translated',
    });
    expect(Number(later.data.seq)).toBeGreaterThan(Number(pending.data.seq));
    await session.dispatcher.event('chat-translation');
    const row = await sql<{ translation_status: string; translation_text: string }>`
      select translation_status, translation_text from chat_messages where id = ${slow.data.messageId as string}`.execute(
      stack.database.db,
    );
    expect(row.rows[0]).toEqual({
      translation_status: 'translated',
      translation_text: '[es] Slow one',
    });

    // A quick reply needs no engine: the catalogue has it in every language.
    const calls = fake.calls.length;
    const quick = await chat(session.dispatcher, {
      callerId: session.callerId,
      clientId: randomUUID(),
      quickReply: 'are-you-safe',
    });
    const reply = (
      await session.caller.next(
        (frame) => frame.event === 'chat-message' && frame.data.messageId === quick.data.messageId,
      )
    ).data;
    expect(reply).toMatchObject({
      quickReply: 'are-you-safe',
      text: callerTexts.en.quickReplies['are-you-safe'],
      language: 'en',
      translation: { language: 'es', text: callerTexts.es.quickReplies['are-you-safe'] },
      translationStatus: 'catalogue',
    });
    expect(fake.calls).toHaveLength(calls);
  });

  it('marks a pair no engine covers not translated, at once', async () => {
    const fake = new FakeTranslator([
      ['en', 'es'],
      ['es', 'en'],
    ]);
    stack.api.app.locus.chat.translator = fake;
    const session = await openedChat('+12025550189', 'fr');
    await toCaller(session, 'Hello');
    expect((await session.caller.next(messageWith('Hello'))).data).toMatchObject({
      translation: null,
      translationStatus: 'not-translated',
    });
    await chat(session.caller, { text: 'Bonjour' });
    expect((await session.dispatcher.next(messageWith('Bonjour'))).data).toMatchObject({
      language: 'fr',
      translation: null,
      translationStatus: 'not-translated',
    });
    expect(fake.calls).toEqual([]);
  });

  it('translates a Mandarin session into zh where the engine covers the pair, and marks the rest not translated', async () => {
    // This engine has English to Mandarin, and not Mandarin to English.
    const fake = new FakeTranslator([['en', 'zh']]);
    stack.api.app.locus.chat.translator = fake;
    const session = await openedChat('+12025550194', 'zh');

    // SPEC.md §4: Mandarin means the session translates into zh.
    const ack = await toCaller(session, 'Are you safe?');
    expect((await session.caller.next(messageWith('Are you safe?'))).data).toMatchObject({
      language: 'en',
      translation: { language: 'zh', text: '[zh] Are you safe?' },
      translationStatus: 'translated',
    });
    const written = await chat(session.caller, { text: '我在家里' });
    expect((await session.dispatcher.next(messageWith('我在家里'))).data).toMatchObject({
      language: 'zh',
      translation: null,
      translationStatus: 'not-translated',
    });
    expect(fake.calls).toEqual([{ text: 'Are you safe?', from: 'en', to: 'zh' }]);

    // A quick reply comes from the catalogue's Mandarin, no engine needed.
    const quick = await chat(session.dispatcher, {
      callerId: session.callerId,
      clientId: randomUUID(),
      quickReply: 'can-you-talk',
    });
    expect(
      (
        await session.caller.next(
          (frame) =>
            frame.event === 'chat-message' && frame.data.messageId === quick.data.messageId,
        )
      ).data,
    ).toMatchObject({
      translation: { language: 'zh', text: callerTexts.zh.quickReplies['can-you-talk'] },
      translationStatus: 'catalogue',
    });
    expect(fake.calls).toHaveLength(1);

    const rows = await sql<{
      id: string;
      language: string;
      translation_language: string | null;
      translation_status: string;
    }>`select id, language, translation_language, translation_status from chat_messages
       where session_id = ${session.request.uuid} order by seq`.execute(stack.database.db);
    expect(rows.rows).toEqual([
      {
        id: ack.data.messageId,
        language: 'en',
        translation_language: 'zh',
        translation_status: 'translated',
      },
      {
        id: written.data.messageId,
        language: 'zh',
        translation_language: null,
        translation_status: 'not-translated',
      },
      {
        id: quick.data.messageId,
        language: 'en',
        translation_language: 'zh',
        translation_status: 'catalogue',
      },
    ]);
  });
});
