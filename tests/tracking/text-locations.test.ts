import { callerTexts, formatLocationText } from '@locus/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeTwilio } from '../fakes/twilio-server';
import { call, signIn, startAuthStack, type AuthStack } from '../auth/support';
import type { TestSocket } from '../support/sockets';
import {
  callerSocket,
  dispatcherEmail,
  joinSession,
  otherTeamEmail,
  linkTokenIn,
  startStream,
  twilioFrom as locusNumber,
  twilioStackOptions,
  type ConnectionRequest,
} from './support';

// Issue 23: when mobile data fails but texts pass, the caller texts their position back (the
// page's prefilled "LOC …" text, a map link, a Plus Code…) to the number that texted the link,
// through Twilio's signed inbound webhook; it reaches the dispatcher like any other fix, once.

const publicUrl = 'https://locus.test';
let fake: FakeTwilio;
let stack: AuthStack;
let dispatcher: string;

beforeAll(async () => {
  fake = await FakeTwilio.start();
  stack = await startAuthStack(twilioStackOptions(fake, publicUrl));
  dispatcher = await signIn(stack.api, dispatcherEmail);
});
afterAll(async () => {
  await stack?.close();
  await fake?.close();
});

const inboundPath = '/api/v1/sms/twilio/inbound';
let sid = 0;

/** The caller's phone texting Locus: Twilio signs the webhook over the public URL. */
function textFrom(from: string, body: string) {
  sid += 1;
  const path = inboundPath;
  return fake.callback(
    `${stack.api.url}${path}`,
    { MessageSid: `SM${String(sid).padStart(32, '0')}`, From: from, To: locusNumber, Body: body },
    { signedUrl: `${publicUrl}${path}` },
  );
}

interface Texted {
  request: ConnectionRequest;
  dispatcherSocket: TestSocket;
  linkToken: string;
  code: string;
}

/** A session for `phone`, its link texted, and the text code the caller's page would use. */
async function textedCaller(phone: string, language = 'en', by = dispatcher): Promise<Texted> {
  const request = await startStream(stack.api, by, phone);
  const dispatcherSocket = await joinSession(stack.api, request);
  const answer = await call(stack.api, 'POST', '/api/v1/location/request-text-message-location', {
    token: by,
    body: { connectionRequestUuid: request.uuid, language },
  });
  expect(answer.status).toBe(200);
  const linkToken = linkTokenIn(fake.messages.filter((sent) => sent.to === phone).at(-1)!.body);
  const link = await call(stack.api, 'GET', `/api/v1/caller/link?token=${linkToken}`);
  const textBack = (link.body as { textBack: { number: string; code: string; afterMs: number } })
    .textBack;
  expect(textBack).toMatchObject({ number: locusNumber, afterMs: 20_000 });
  expect(textBack.code).toMatch(/^[2-9A-HJ-NP-Z]{4}$/);
  return { request, dispatcherSocket, linkToken, code: textBack.code };
}

const fixRows = async (sessionId: string) =>
  (
    await sql<{
      captured_at: Date;
      delivered_by: string | null;
      latitude: number;
    }>`select captured_at, delivered_by, latitude from location_fixes where session_id = ${sessionId} order by seq`.execute(
      stack.database.db,
    )
  ).rows;

/** Fixes are written in batches: wait until Postgres holds `count` for the session. */
async function storedFixes(sessionId: string, count: number) {
  for (;;) {
    const rows = await fixRows(sessionId);
    if (rows.length >= count) return rows;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// Whole seconds, a little in the past: the text carries the time of day to the second.
const takenAt = () => Math.floor((Date.now() - 30_000) / 1000) * 1000;

describe('a location texted back by the caller', () => {
  it("the page's LOC text becomes a fix at the text's capture time, stored once; the page's own copy is a duplicate", async () => {
    const phone = '+12025550181';
    const { request, dispatcherSocket, linkToken, code } = await textedCaller(phone);
    const capturedAt = takenAt();
    const fix = { latitude: 38.8977, longitude: -77.03653, accuracy: 12.4, capturedAt };
    const reply = await textFrom(phone, formatLocationText(fix, code));
    expect(reply.status).toBe(200);

    const location = await dispatcherSocket.next(
      (frame) => frame.event === 'new-location-available' && frame.data.deliveredBy === 'sms',
    );
    expect(location.data).toMatchObject({
      latitude: 38.8977,
      longitude: -77.03653,
      uncertaintyRadiusInMeters: 12,
      capturedFromSource: 'TEXT_MESSAGE',
      dateTimeCaptured: new Date(capturedAt).toISOString(),
      deliveredBy: 'sms',
    });
    const received = await dispatcherSocket.event('sms-received');
    expect(received.data.location).toEqual({ outcome: 'mapped' });
    // The link funnel counts the caller as shared (issue 13), though no page reported it.
    const callerRow = await sql<{ shared_at: Date | null; texts_sent: number }>`
      select shared_at, texts_sent from session_callers where session_id = ${request.uuid}
    `.execute(stack.database.db);
    expect(callerRow.rows).toEqual([{ shared_at: expect.any(Date), texts_sent: 1 }]);

    // The network comes back: the page sends what it queued, the same fix (to the millisecond).
    const page = await callerSocket(stack.api, linkToken);
    page.send('fix', { ...fix, accuracy: 12.4, capturedAt: capturedAt + 345, n: 1 });
    expect((await page.event('ack')).data).toMatchObject({ n: 1, outcome: 'duplicate' });
    // …and a newer one, which is new.
    page.send('fix', { ...fix, latitude: 38.898, capturedAt: capturedAt + 5_000, n: 2 });
    expect((await page.next((f) => f.event === 'ack' && f.data.n === 2)).data.outcome).toBe(
      'stored',
    );
    const rows = await storedFixes(request.uuid, 2);
    expect(rows.map((row) => row.delivered_by)).toEqual(['sms', null]);
    expect(rows[0]!.captured_at.getTime()).toBe(capturedAt);

    // A dispatcher joining later (from Postgres) sees it marked as texted too.
    const late = await joinSession(stack.api, request);
    const replayed = await late.next(
      (frame) => frame.event === 'new-location-available' && frame.data.deliveredBy === 'sms',
    );
    expect(replayed.data.dateTimeCaptured).toBe(new Date(capturedAt).toISOString());
    await Promise.all([late.close(), page.close(), dispatcherSocket.close()]);
  });

  it('a fix the page already delivered, texted afterwards, is not stored twice', async () => {
    const phone = '+12025550182';
    const { request, dispatcherSocket, linkToken, code } = await textedCaller(phone);
    const capturedAt = takenAt() + 678;
    const fix = { latitude: 40.7128, longitude: -74.006, accuracy: 8, capturedAt, n: 1 };
    const page = await callerSocket(stack.api, linkToken);
    page.send('fix', fix);
    expect((await page.event('ack')).data.outcome).toBe('stored');

    await textFrom(phone, `My location ${formatLocationText(fix, code)}`);
    const received = await dispatcherSocket.event('sms-received');
    expect(received.data.location).toEqual({ outcome: 'duplicate' });
    await stack.api.app.locus.writer.flush();
    expect(await fixRows(request.uuid)).toHaveLength(1);
    expect(
      dispatcherSocket.of('new-location-available').filter((f) => f.data.deliveredBy === 'sms'),
    ).toHaveLength(0);
    await Promise.all([page.close(), dispatcherSocket.close()]);
  });

  it('maps nothing for an unknown code or an impossible position, and says why in the session log', async () => {
    const phone = '+12025550183';
    const { request, dispatcherSocket, code } = await textedCaller(phone);
    const other = code === 'ZZZZ' ? 'YYYY' : 'ZZZZ';
    await textFrom(phone, `LOC 38.89770,-77.03650 ±12m 10:00:00Z #${other}`);
    const unknown = await dispatcherSocket.event('sms-received');
    expect(unknown.data.location).toMatchObject({ outcome: 'not-mapped' });
    expect(String((unknown.data.location as { reason: string }).reason)).toMatch(/code/i);

    await textFrom(phone, `LOC 123.40000,-77.03650 ±12m 10:00:00Z #${code}`);
    const outOfRange = await dispatcherSocket.next(
      (frame) => frame.event === 'sms-received' && frame !== unknown,
    );
    expect(outOfRange.data.body).toContain('123.4');
    expect(outOfRange.data.location).toMatchObject({ outcome: 'not-mapped' });

    // Ordinary words are shown as they are, with no location verdict.
    await textFrom(phone, 'We are 2 adults, 3 kids, at the blue car');
    const words = await dispatcherSocket.next(
      (frame) => frame.event === 'sms-received' && String(frame.data.body).startsWith('We are'),
    );
    expect(words.data.location).toBeUndefined();
    expect(await fixRows(request.uuid)).toHaveLength(0);
    expect(dispatcherSocket.countOf('new-location-available')).toBe(0);
    await dispatcherSocket.close();
  });

  it('keeps a location from a number no active session texted in the inbound log, with the reason', async () => {
    const stranger = '+12025550189';
    const reply = await textFrom(stranger, 'geo:38.8977,-77.0365');
    expect(reply.status).toBe(200);
    const rows = await sql<{ note: string | null; session_id: string | null }>`
      select note, session_id from sms_messages where phone_number = ${stranger} and direction = 'inbound'`.execute(
      stack.database.db,
    );
    expect(rows.rows).toEqual([
      { note: 'Location not mapped: no active session texted this number.', session_id: null },
    ]);
  });

  it('"Ask for location by text" texts the caller in their language; their shared map link becomes a fix', async () => {
    const phone = '+12025550184';
    const { request, dispatcherSocket } = await textedCaller(phone, 'es');
    const asked = await call(stack.api, 'POST', '/api/v1/location/ask-location-by-text', {
      token: dispatcher,
      body: { connectionRequestUuid: request.uuid },
    });
    expect(asked.status).toBe(200);
    expect(fake.messages.filter((sent) => sent.to === phone).at(-1)!.body).toBe(
      callerTexts.es.smsAskLocation,
    );
    await dispatcherSocket.event('text-location-requested');

    await textFrom(phone, 'Estoy aquí: https://maps.google.com/?q=40.416775,-3.703790');
    const location = await dispatcherSocket.next(
      (frame) => frame.event === 'new-location-available' && frame.data.deliveredBy === 'sms',
    );
    expect(location.data).toMatchObject({ latitude: 40.416775, longitude: -3.70379 });
    // A map link says nothing of accuracy: drawn wide rather than falsely precise.
    expect(location.data.uncertaintyRadiusInMeters).toBe(100);

    // Bad input changes nothing: another team's caller, or a caller of no session.
    const wrongCaller = await call(stack.api, 'POST', '/api/v1/location/ask-location-by-text', {
      token: dispatcher,
      body: {
        connectionRequestUuid: request.uuid,
        callerId: '00000000-0000-4000-8000-000000000000',
      },
    });
    expect(wrongCaller.status).toBe(404);
    const invalid = await call(stack.api, 'POST', '/api/v1/location/ask-location-by-text', {
      token: dispatcher,
      body: { connectionRequestUuid: 'nope' },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ error: 'validation-failed' });
    await dispatcherSocket.close();
  });

  it('goes to the session that texted the number last, only while it is active; a code picks another active one', async () => {
    const phone = '+12025550185';
    const first = await textedCaller(phone);
    // Another agency texts the same number afterwards, then ends its session.
    const neighbour = await signIn(stack.api, otherTeamEmail);
    const second = await textedCaller(phone, 'en', neighbour);
    const ended = await call(
      stack.api,
      'POST',
      `/api/v1/location/set-date-time-completed/${second.request.uuid}`,
      { token: neighbour, body: {} },
    );
    expect(ended.status).toBe(200);

    // A map link meant for the agency that texted last is not mapped into the other one's case.
    await textFrom(phone, 'https://maps.google.com/?q=38.8977,-77.0365');
    const note = await sql<{ note: string | null }>`
      select note from sms_messages where phone_number = ${phone} and direction = 'inbound'`.execute(
      stack.database.db,
    );
    expect(note.rows).toEqual([
      { note: 'Location not mapped: no active session texted this number.' },
    ]);
    // The first agency's page text, with its code, still reaches it.
    const capturedAt = takenAt();
    await textFrom(
      phone,
      formatLocationText(
        { latitude: 38.9, longitude: -77.03, accuracy: 5, capturedAt },
        first.code,
      ),
    );
    const location = await first.dispatcherSocket.next(
      (frame) => frame.event === 'new-location-available' && frame.data.deliveredBy === 'sms',
    );
    expect(location.data.dateTimeCaptured).toBe(new Date(capturedAt).toISOString());
    // The text itself is announced right after its fix (the next seq): once, as mapped. (It may
    // not have arrived yet when the fix has: wait for it rather than count at once.)
    await first.dispatcherSocket.next(
      (frame) =>
        frame.event === 'sms-received' &&
        (frame.data as { location?: { outcome: string } }).location?.outcome === 'mapped',
    );
    expect(first.dispatcherSocket.of('sms-received')).toHaveLength(1);
    await Promise.all([first.dispatcherSocket.close(), second.dispatcherSocket.close()]);
  });

  it("a phone clock running fast: the position is mapped at the text's arrival, not a day back", async () => {
    const phone = '+12025550186';
    const { dispatcherSocket, code } = await textedCaller(phone);
    const before = Date.now();
    const ahead = before + 5 * 60_000;
    await textFrom(
      phone,
      formatLocationText(
        { latitude: 38.9, longitude: -77.03, accuracy: 5, capturedAt: ahead },
        code,
      ),
    );
    const location = await dispatcherSocket.next(
      (frame) => frame.event === 'new-location-available' && frame.data.deliveredBy === 'sms',
    );
    const mappedAt = Date.parse(String(location.data.dateTimeCaptured));
    expect(mappedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(mappedAt).toBeLessThanOrEqual(Date.now());
    await dispatcherSocket.close();
  });
});
