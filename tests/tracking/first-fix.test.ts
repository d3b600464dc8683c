import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, startAuthStack, type AuthStack } from '../auth/support';
import { fixAt } from '../support/sockets';
import {
  callerSocket,
  dispatcherEmail,
  foundNumber,
  joinSession,
  linkTokenIn,
  outboxSms,
  startStream,
} from './support';

// Issue 13: the session's first fix (when, from where, how precise) and its best uncertainty,
// recorded by the batch writer in the transaction that stores the fix.
let stack: AuthStack;
let dispatcher: string;

beforeAll(async () => {
  stack = await startAuthStack();
  dispatcher = await signIn(stack.api, dispatcherEmail);
});
afterAll(() => stack?.close());

const post = (path: string, body: unknown) =>
  call(stack.api, 'POST', path, { token: dispatcher, body });

const sessionRow = (sessionId: string) =>
  stack.database.db
    .selectFrom('tracking_sessions')
    .select(['first_fix_at', 'first_fix_source', 'first_fix_uncertainty_m', 'best_uncertainty_m'])
    .where('id', '=', sessionId)
    .executeTakeFirstOrThrow();

describe("a session's first fix", () => {
  it("is the automatic lookup's when it found the phone, and the caller's later fixes keep it", async () => {
    const request = await startStream(stack.api, dispatcher, foundNumber);
    const socket = await joinSession(stack.api, request);
    const lookup = await post('/api/v1/location/request-location', {
      connectionRequestUuid: request.uuid,
      language: 'en',
    });
    expect(lookup.status).toBe(200);
    await socket.event('new-location-available');
    await stack.api.app.locus.writer.flush();

    const found = await stack.database.db
      .selectFrom('location_lookups')
      .select('uncertainty_radius_m')
      .where('session_id', '=', request.uuid)
      .executeTakeFirstOrThrow();
    const [fix] = await stack.database.db
      .selectFrom('location_fixes')
      .select(['received_at', 'source'])
      .where('session_id', '=', request.uuid)
      .execute();
    expect(fix!.source).toBe('RAPID_SOS');
    const first = await sessionRow(request.uuid);
    expect(first).toEqual({
      first_fix_at: fix!.received_at,
      first_fix_source: 'lookup',
      first_fix_uncertainty_m: found.uncertainty_radius_m,
      best_uncertainty_m: found.uncertainty_radius_m,
    });

    // The caller's link: a sharper fix improves the best uncertainty, not the first fix.
    const sms = await post('/api/v1/location/request-text-message-location', {
      connectionRequestUuid: request.uuid,
      language: 'en',
    });
    expect(sms.status).toBe(200);
    const [text] = await outboxSms(stack.api, foundNumber);
    const caller = await callerSocket(stack.api, linkTokenIn(text!.body));
    const sharp = { ...fixAt(Date.now() - 2_000, 0), accuracy: 2 };
    caller.send('fix', sharp);
    await caller.next((frame) => frame.event === 'ack' && frame.data.outcome === 'stored');
    await stack.api.app.locus.writer.flush();
    expect(await sessionRow(request.uuid)).toEqual({ ...first, best_uncertainty_m: 2 });

    await caller.close();
    await socket.close();
  });
});
