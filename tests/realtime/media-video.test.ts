import { openSession, type OpenedSession } from '@locus/api';
import { callerTexts, closeCodes, mediaLimits, realtimeLimits } from '@locus/contract';
import { sql } from 'kysely';
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, testRedisPrefix, type TestApi } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';
import { TestSocket, type ReceivedFrame } from '../support/sockets';

// Issue 19 over real sockets: dispatchers on instance A, callers on instance B (and a second
// dispatcher on B), so every request, viewer and signal crosses Redis.
let database: TestDatabase;
let apiA: TestApi;
let apiB: TestApi;
const turnSecret = 'media-test-secret-0123456789abcdef';
const turnUrl = 'turn:127.0.0.1:3478?transport=udp';

beforeAll(async () => {
  database = await freshDatabase();
  const redisPrefix = testRedisPrefix();
  const env = { TURN_URLS: turnUrl, TURN_SECRET: turnSecret };
  apiA = await startApi({ databaseUrl: database.url, redisPrefix, env });
  apiB = await startApi({ databaseUrl: database.url, redisPrefix, env });
});

afterAll(async () => {
  await apiA?.close();
  await apiB?.close();
  await database?.drop();
});

const newSession = () => openSession(database.db, { callers: [{ phoneNumber: '+12025550123' }] });
const callerIdOf = (session: OpenedSession) => session.callers[0]!.callerId;

/**
 * Another dispatcher token for the session, as a colleague watching it has: one token opens at
 * most `realtimeLimits.maxSocketsPerToken` sockets, the oldest giving way.
 */
async function colleagueToken(session: OpenedSession): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await database.db
    .insertInto('connection_tokens')
    .values({
      token_hash: createHash('sha256').update(token).digest(),
      kind: 'dispatcher',
      session_id: session.sessionId,
      caller_id: null,
      user_id: null,
      expires_at: sql<Date>`now() + interval '1 hour'`,
    })
    .execute();
  return token;
}

async function dispatcherOn(
  api: TestApi,
  session: OpenedSession,
  token = session.dispatcherToken,
): Promise<TestSocket> {
  const socket = await TestSocket.open(`${api.wsUrl}/api/v1/socket?token=${token}`);
  socket.send('join', { sessionId: session.sessionId });
  await socket.event('joined');
  return socket;
}

async function callerOn(api: TestApi, session: OpenedSession): Promise<TestSocket> {
  const socket = await TestSocket.open(
    `${api.wsUrl}/api/v1/caller/socket?token=${session.callers[0]!.token}`,
  );
  return socket;
}

const errorOf = (socket: TestSocket, error: string, after = 0) =>
  socket.next(
    (frame) =>
      frame.event === 'error' &&
      frame.data.error === error &&
      socket.frames.indexOf(frame) >= after,
  );

/** The caller's video runs and the dispatcher watches it: both sides' `video-viewer`. */
async function watching(
  dispatcher: TestSocket,
  caller: TestSocket,
  session: OpenedSession,
): Promise<string> {
  const callerId = callerIdOf(session);
  if (!dispatcher.frames.some((f) => f.event === 'video-state' && f.data.state === 'started')) {
    caller.send('video-state', { state: 'started' });
    await dispatcher.next((f) => f.event === 'video-state' && f.data.state === 'started');
  }
  const before = dispatcher.countOf('video-viewer');
  dispatcher.send('video-watch', { callerId });
  const [mine] = (await dispatcher.count('video-viewer', before + 1)).slice(before);
  const viewerId = mine!.data.viewerId as string;
  await caller.next((f) => f.event === 'video-viewer' && f.data.viewerId === viewerId);
  return viewerId;
}

const offer = { description: { type: 'offer', sdp: 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\n' } };
const answer = { description: { type: 'answer', sdp: 'v=0\r\no=- 3 4 IN IP4 127.0.0.1\r\n' } };
const candidate = (n: number) => ({
  candidate: {
    candidate: `candidate:${n} 1 udp 2122260223 10.0.0.${n} 5000${n % 10} typ host`,
    sdpMid: '0',
    sdpMLineIndex: 0,
  },
});

describe('asking the caller for video or a photo', () => {
  it('delivers the request across instances with TURN credentials; the answer is a sequenced event', async () => {
    const session = await newSession();
    const callerId = callerIdOf(session);
    const dispatcher = await dispatcherOn(apiA, session);
    const caller = await callerOn(apiB, session);
    await dispatcher.next((f) => f.event === 'caller-connected' && f.data.connected === true);

    dispatcher.send('media-request', { callerId, kind: 'video', audio: true });
    const [requested, request] = await Promise.all([
      dispatcher.event('media-requested'),
      caller.event('media-request'),
    ]);
    expect(requested.data).toMatchObject({
      sessionId: session.sessionId,
      callerId,
      kind: 'video',
      audio: true,
    });
    expect(request.data.requestId).toBe(requested.data.requestId);
    expect(request.data).toMatchObject({ kind: 'video', audio: true });
    const [turn] = request.data.iceServers as {
      urls: string[];
      username: string;
      credential: string;
    }[];
    expect(turn!.urls).toEqual([turnUrl]);
    const [expiry, label] = turn!.username.split(':');
    expect(label).toBe(session.sessionId);
    const lifetime = Number(expiry) - Date.now() / 1000;
    expect(lifetime).toBeGreaterThan(mediaLimits.turnCredentialSeconds - 60);
    expect(lifetime).toBeLessThanOrEqual(mediaLimits.turnCredentialSeconds);
    expect(turn!.credential).toBe(
      createHmac('sha1', turnSecret).update(turn!.username).digest('base64'),
    );

    // Sound only if the caller allows it too.
    caller.send('media-answer', {
      requestId: request.data.requestId,
      answer: 'allowed',
      audio: false,
    });
    const answered = await dispatcher.event('media-answered');
    expect(answered.data).toMatchObject({
      callerId,
      kind: 'video',
      requestId: request.data.requestId,
      answer: 'allowed',
      audio: false,
    });
    expect(answered.data.seq).toBeGreaterThan(requested.data.seq!);

    // The Allow is kept as a consent receipt: what the request showed, in the caller's language.
    const receipt = async () =>
      database.db
        .selectFrom('consent_receipts')
        .select(['language', 'shown_text', 'tapped_at', 'user_agent'])
        .where('caller_id', '=', callerId)
        .executeTakeFirst();
    await expect.poll(receipt).toBeDefined();
    const kept = (await receipt())!;
    expect(kept.language).toBe('en');
    expect(kept.tapped_at).toBeNull();
    expect(kept.shown_text).toMatchObject({
      screen: 'media-video',
      title: callerTexts.en.page.mediaVideoRequestTitle,
      lines: [callerTexts.en.page.mediaVideoRequestBody, callerTexts.en.page.mediaVideoAudioNote],
      button: callerTexts.en.page.mediaAllowButton,
    });

    // Answered: it is no longer open, so a second answer is refused and nothing is published.
    caller.send('media-answer', { requestId: request.data.requestId, answer: 'declined' });
    await errorOf(caller, 'not-found');
    expect(dispatcher.countOf('media-answered')).toBe(1);
    await caller.close();
    await dispatcher.close();
  });

  it('shows a decline to the dispatcher and never asks again by itself', async () => {
    const session = await newSession();
    const callerId = callerIdOf(session);
    const dispatcher = await dispatcherOn(apiA, session);
    const caller = await callerOn(apiB, session);
    dispatcher.send('media-request', { callerId, kind: 'photo', audio: true });
    const request = await caller.event('media-request');
    // A photo asks for no sound and needs no peer connection.
    expect(request.data).toMatchObject({ kind: 'photo', audio: false, iceServers: [] });
    caller.send('media-answer', { requestId: request.data.requestId, answer: 'declined' });
    const answered = await dispatcher.event('media-answered');
    expect(answered.data).toMatchObject({ kind: 'photo', answer: 'declined', audio: false });
    // A decline is no consent: no receipt.
    const receipts = await database.db
      .selectFrom('consent_receipts')
      .select('id')
      .where('caller_id', '=', callerId)
      .execute();
    expect(receipts).toEqual([]);

    // A reconnecting caller gets no request: the declined one is closed.
    await caller.close();
    const again = await callerOn(apiA, session);
    again.send('tab-focus', { focused: true });
    await dispatcher.next((f) => f.event === 'is-tab-focused');
    expect(again.countOf('media-request')).toBe(0);
    await again.close();
    await dispatcher.close();
  });

  it('hands an unanswered request again to a caller who reconnects, on any instance', async () => {
    const session = await newSession();
    const callerId = callerIdOf(session);
    const dispatcher = await dispatcherOn(apiA, session);
    dispatcher.send('media-request', { callerId, kind: 'video', audio: false });
    const requested = await dispatcher.event('media-requested');
    // The caller was not connected when it was asked.
    const caller = await callerOn(apiA, session);
    const request = await caller.event('media-request');
    expect(request.data.requestId).toBe(requested.data.requestId);
    caller.send('media-answer', { requestId: request.data.requestId, answer: 'allowed' });
    await dispatcher.event('media-answered');
    await caller.close();
    await dispatcher.close();
  });

  it('refuses a request for a caller of another session', async () => {
    const session = await newSession();
    const other = await newSession();
    const dispatcher = await dispatcherOn(apiA, session);
    dispatcher.send('media-request', { callerId: callerIdOf(other), kind: 'video', audio: false });
    await errorOf(dispatcher, 'not-found');
    const otherCaller = await callerOn(apiB, other);
    otherCaller.send('tab-focus', { focused: true });
    const otherDispatcher = await dispatcherOn(apiB, other);
    await otherDispatcher.next((f) => f.event === 'is-tab-focused');
    expect(otherCaller.countOf('media-request')).toBe(0);
    expect(otherDispatcher.countOf('media-requested')).toBe(0);
    await Promise.all([otherCaller.close(), otherDispatcher.close(), dispatcher.close()]);
  });
});

describe('live video signalling', () => {
  it('relays signals across instances between the caller and one viewer only', async () => {
    const session = await newSession();
    const callerId = callerIdOf(session);
    const first = await dispatcherOn(apiA, session);
    const second = await dispatcherOn(apiB, session);
    const caller = await callerOn(apiB, session);

    caller.send('video-state', { state: 'started' });
    const started = await first.next((f) => f.event === 'video-state');
    expect(started.data).toMatchObject({ callerId, state: 'started', by: 'caller' });
    await second.next((f) => f.event === 'video-state');

    const firstViewer = await watching(first, caller, session);
    const secondViewer = await watching(second, caller, session);
    expect(firstViewer).not.toBe(secondViewer);
    const viewerFrame = first.of('video-viewer')[0]!;
    expect(viewerFrame.data.callerId).toBe(callerId);
    expect((viewerFrame.data.iceServers as unknown[]).length).toBe(1);

    // Caller → the first viewer: an offer and a candidate, in order; the second sees nothing.
    caller.send('video-signal', { viewerId: firstViewer, signal: offer });
    caller.send('video-signal', { viewerId: firstViewer, signal: candidate(1) });
    const toFirst = await first.count('video-signal', 2);
    expect(toFirst.map((f) => f.data)).toEqual([
      { callerId, viewerId: firstViewer, signal: offer },
      { callerId, viewerId: firstViewer, signal: candidate(1) },
    ]);
    // Dispatcher → caller: named by the viewer id of that socket.
    second.send('video-signal', { callerId, signal: answer });
    const toCaller = await caller.event('video-signal');
    expect(toCaller.data).toEqual({ viewerId: secondViewer, signal: answer });
    caller.send('video-signal', { viewerId: secondViewer, signal: candidate(2) });
    await second.next((f) => f.event === 'video-signal');
    expect(second.of('video-signal').map((f) => f.data.viewerId)).toEqual([secondViewer]);
    expect(first.countOf('video-signal')).toBe(2);

    // A signal before watching has no viewer to go to.
    const third = await dispatcherOn(apiA, session);
    third.send('video-signal', { callerId, signal: answer });
    await errorOf(third, 'not-found');

    // A viewer whose socket closes: the caller is told.
    await first.close();
    const left = await caller.event('video-viewer-left');
    expect(left.data).toEqual({ viewerId: firstViewer });
    // Its viewer id is gone: a signal to it is refused.
    caller.send('video-signal', { viewerId: firstViewer, signal: candidate(3) });
    await errorOf(caller, 'not-found');
    await Promise.all([second.close(), third.close(), caller.close()]);
  });

  it('allows at most mediaLimits.maxVideoViewers viewers per caller', async () => {
    const session = await newSession();
    const caller = await callerOn(apiB, session);
    const viewers: TestSocket[] = [];
    for (let i = 0; i < mediaLimits.maxVideoViewers; i += 1) {
      const dispatcher = await dispatcherOn(
        i % 2 ? apiA : apiB,
        session,
        await colleagueToken(session),
      );
      await watching(dispatcher, caller, session);
      viewers.push(dispatcher);
    }
    const oneTooMany = await dispatcherOn(apiA, session, await colleagueToken(session));
    await oneTooMany.next((f) => f.event === 'video-state');
    oneTooMany.send('video-watch', { callerId: callerIdOf(session) });
    const refused = await errorOf(oneTooMany, 'conflict');
    expect(refused.data.message).toMatch(/viewers/);
    // A place frees when a viewer leaves.
    await viewers.shift()!.close();
    await caller.event('video-viewer-left');
    await watching(oneTooMany, caller, session);
    await Promise.all([...viewers, oneTooMany, caller].map((socket) => socket.close()));
  });

  it('refuses a signal naming a viewer of another session', async () => {
    const session = await newSession();
    const other = await newSession();
    const dispatcher = await dispatcherOn(apiA, session);
    const caller = await callerOn(apiB, session);
    const viewerId = await watching(dispatcher, caller, session);

    // The other session's caller (on the dispatcher's instance, too) names that viewer id.
    const intruder = await callerOn(apiA, other);
    intruder.send('video-state', { state: 'started' });
    intruder.send('video-signal', { viewerId, signal: offer });
    const refused = await errorOf(intruder, 'not-found');
    expect(refused.data.message).toMatch(/viewer/);
    // The other session's dispatcher watching cannot reach this caller either.
    const otherDispatcher = await dispatcherOn(apiB, other);
    otherDispatcher.send('video-watch', { callerId: callerIdOf(session) });
    await errorOf(otherDispatcher, 'conflict');
    otherDispatcher.send('video-signal', { callerId: callerIdOf(session), signal: answer });
    await errorOf(otherDispatcher, 'not-found');

    // Proof that nothing was relayed: a signal sent after them is the first to arrive.
    caller.send('video-signal', { viewerId, signal: candidate(7) });
    const first = await dispatcher.event('video-signal');
    expect(first.data.signal).toEqual(candidate(7));
    expect(dispatcher.countOf('video-signal')).toBe(1);
    expect(caller.countOf('video-signal')).toBe(0);
    await Promise.all([dispatcher, caller, intruder, otherDispatcher].map((s) => s.close()));
  });

  it('rejects invalid signal frames with the error shape, and rate-limits a flood', async () => {
    const session = await newSession();
    const callerId = callerIdOf(session);
    const dispatcher = await dispatcherOn(apiA, session);
    const caller = await callerOn(apiB, session);
    const viewerId = await watching(dispatcher, caller, session);

    const invalid: unknown[] = [
      { viewerId, signal: {} },
      { viewerId, signal: { ...offer, ...candidate(1) } },
      { viewerId, signal: { description: { type: 'pranswer', sdp: 'v=0' } } },
      {
        viewerId,
        signal: { description: { type: 'offer', sdp: 'x'.repeat(mediaLimits.maxSdpChars + 1) } },
      },
      { viewerId, signal: offer, extra: true },
      { signal: offer },
    ];
    for (const data of invalid) {
      const at = caller.frames.length;
      caller.send('video-signal', data);
      const refused = await errorOf(caller, 'invalid-frame', at);
      expect(refused.data).toMatchObject({
        error: 'invalid-frame',
        message: 'Invalid video-signal.',
      });
      expect((refused.data.issues as unknown[]).length).toBeGreaterThan(0);
    }
    const at = dispatcher.frames.length;
    dispatcher.send('video-signal', { callerId, signal: { candidate: { candidate: 1 } } });
    const refused = await errorOf(dispatcher, 'invalid-frame', at);
    expect(refused.data.issues).toEqual([
      { path: 'signal.candidate.candidate', message: expect.any(String) },
    ]);
    expect(dispatcher.countOf('video-signal')).toBe(0);

    // A flood: the allowance goes through, the rest is answered `rate-limited`; the socket
    // stays. Sent in tens, each followed by a frame whose answer says every signal before it
    // was handled (a caller's frames are read in order), until the first refusal.
    const rateLimited = () =>
      caller.frames.filter((f) => f.event === 'error' && f.data.error === 'rate-limited').length;
    let sent = 0;
    while (rateLimited() === 0) {
      for (let n = 0; n < 10; n += 1)
        caller.send('video-signal', { viewerId, signal: candidate(sent++) });
      const answers = caller.frames.length;
      caller.send('no-such-event', {});
      await caller.next(() =>
        caller.frames.slice(answers).some((f) => f.data.error === 'unknown-event'),
      );
    }
    expect(sent).toBeGreaterThanOrEqual(mediaLimits.signalBurst - invalid.length);
    const relayed = await dispatcher.count('video-signal', sent - rateLimited());
    expect(relayed.length).toBe(sent - rateLimited());
    expect(caller.closeCode).toBeUndefined();
    // One that goes on regardless, past every answer, is closed (try again later).
    for (let n = 0; n < realtimeLimits.rateLimitedFramesBeforeClose + 5; n += 1)
      caller.send('video-signal', { viewerId, signal: candidate(n) });
    expect(await caller.closed()).toBe(closeCodes.tryAgainLater);
    await dispatcher.close();
  });

  it('says again what a page’s video is after a reconnect: news only, and never another tab’s', async () => {
    const session = await newSession();
    const callerId = callerIdOf(session);
    const dispatcher = await dispatcherOn(apiA, session);
    const caller = await callerOn(apiB, session);
    const [first, otherTab, second, missed] = Array.from({ length: 4 }, () => randomUUID());
    caller.send('video-state', { state: 'started', videoId: first });
    await dispatcher.count('video-state', 1);
    await watching(dispatcher, caller, session);
    const states = () =>
      dispatcher
        .of('video-state')
        .map((f) => `${f.data.state as string} by ${f.data.by as string}`);

    // Another tab of the same link, with an old video of its own: neither its stop nor its
    // start is about the video that runs. Then the first tab, reloaded: its video is gone.
    const reloaded = await callerOn(apiA, session);
    reloaded.send('video-state', { state: 'stopped', videoId: otherTab, resent: true });
    reloaded.send('video-state', { state: 'started', videoId: otherTab, resent: true });
    reloaded.send('video-state', { state: 'stopped', videoId: first, resent: true });
    await dispatcher.count('video-state', 2);
    expect(states()).toEqual(['started by caller', 'stopped by network']);
    dispatcher.send('video-watch', { callerId });
    await errorOf(dispatcher, 'conflict');

    // The dispatcher stops a video while the page that films it is away; when it comes back
    // saying it still films, it is told to stop, and nothing is announced.
    reloaded.send('video-state', { state: 'started', videoId: second });
    await dispatcher.count('video-state', 3);
    dispatcher.send('video-stop', { callerId });
    await dispatcher.count('video-state', 4);
    const away = await callerOn(apiB, session);
    const stopsBefore = away.countOf('video-stop');
    away.send('video-state', { state: 'started', videoId: second, resent: true });
    await away.count('video-stop', stopsBefore + 1);

    // A start sent while the socket was down, said again: news once, not twice. A stop of a
    // video that is not running is not news either.
    away.send('video-state', { state: 'started', videoId: missed, resent: true });
    away.send('video-state', { state: 'started', videoId: missed, resent: true });
    away.send('video-state', { state: 'stopped', videoId: missed });
    away.send('video-state', { state: 'stopped', videoId: missed });
    away.send('video-state', { state: 'started' });
    await dispatcher.count('video-state', 7);
    expect(states()).toEqual([
      'started by caller',
      'stopped by network',
      'started by caller',
      'stopped by dispatcher',
      'started by caller',
      'stopped by caller',
      'started by caller',
    ]);

    // A fall back to stills sent while the socket was down: said again, it is news once.
    const stills = randomUUID();
    away.send('video-state', { state: 'started', videoId: stills });
    away.send('video-state', { state: 'stills', videoId: stills, resent: true });
    away.send('video-state', { state: 'stills', videoId: stills, resent: true });
    away.send('video-state', { state: 'stopped', videoId: stills });
    await dispatcher.count('video-state', 10);
    expect(states().slice(7)).toEqual([
      'started by caller',
      'stills by caller',
      'stopped by caller',
    ]);
    await Promise.all([dispatcher.close(), caller.close(), reloaded.close(), away.close()]);
  });

  it('stops the video when the dispatcher stops it, and when the session ends', async () => {
    const session = await newSession();
    const callerId = callerIdOf(session);
    const dispatcher = await dispatcherOn(apiA, session);
    const caller = await callerOn(apiB, session);
    await watching(dispatcher, caller, session);

    dispatcher.send('video-stop', { callerId });
    await caller.event('video-stop');
    const stopped = await dispatcher.next(
      (f) => f.event === 'video-state' && f.data.state === 'stopped',
    );
    expect(stopped.data).toMatchObject({ callerId, by: 'dispatcher' });
    // Stopped: nobody can watch until the caller starts again.
    dispatcher.send('video-watch', { callerId });
    await errorOf(dispatcher, 'conflict');

    caller.send('video-state', { state: 'started' });
    await dispatcher.next(
      (f) =>
        f.event === 'video-state' && f.data.state === 'started' && f.data.seq! > stopped.data.seq!,
    );
    const stopsBefore = caller.countOf('video-stop');
    await apiA.app.locus.hub.endSession(session.sessionId);
    await caller.event('session-ended');
    expect(caller.countOf('video-stop')).toBe(stopsBefore + 1);
    const order = caller.frames.map((f: ReceivedFrame) => f.event);
    expect(order.lastIndexOf('video-stop')).toBeLessThan(order.lastIndexOf('session-ended'));

    // Recorded once (every instance hears the end; one takes the running video).
    const stored = async () => {
      await Promise.all([apiA.app.locus.writer.flush(), apiB.app.locus.writer.flush()]);
      return database.db
        .selectFrom('session_events')
        .select(['event', 'payload', 'seq'])
        .where('session_id', '=', session.sessionId)
        .where('event', '=', 'video-state')
        .orderBy('seq')
        .execute();
    };
    let rows = await stored();
    while (rows.length < 4) rows = await stored();
    expect(rows.map((row) => row.payload)).toEqual([
      expect.objectContaining({ state: 'started', by: 'caller' }),
      expect.objectContaining({ state: 'stopped', by: 'dispatcher' }),
      expect.objectContaining({ state: 'started', by: 'caller' }),
      expect.objectContaining({ state: 'stopped', by: 'session-ended' }),
    ]);
    await Promise.all([dispatcher.closed(), caller.closed()]);
  });
});
