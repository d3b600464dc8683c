// Issue 18, item 3 (the socket half): generated frames of every shape, valid and not, sent over
// real sockets to a real API. Whatever arrives, the server answers only with frames the contract
// describes, closes a socket only with a documented code, keeps serving the next frame, and puts
// on the dispatcher's map only fixes the contract accepts.
import { openSession, type OpenedSession } from '@locus/api';
import {
  callerClientEvents,
  callerServerEvents,
  CallerFix,
  closeCodes,
  dispatcherServerEvents,
  type EventMap,
} from '@locus/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, testRedisPrefix, type TestApi } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';
import { TestSocket, type ReceivedFrame } from '../support/sockets';

let database: TestDatabase;
let api: TestApi;

beforeAll(async () => {
  database = await freshDatabase();
  api = await startApi({
    databaseUrl: database.url,
    redisPrefix: testRedisPrefix(),
    // The parser is under test, not the rate limiter (bad-input.test.ts covers that).
    env: { CALLER_MAX_EVENTS_PER_SECOND: '100000', CALLER_EVENT_BURST: '100000' },
  });
});

afterAll(async () => {
  await api?.close();
  await database?.drop();
});

const documentedCloseCodes = new Set<number>(Object.values(closeCodes));

/** A frame the server sent, checked against the contract's schema for its event. */
function expectContractFrame(events: EventMap, frame: ReceivedFrame): void {
  const schema = events[frame.event];
  expect(schema, `undocumented event "${frame.event}"`).toBeDefined();
  const parsed = schema!.safeParse(frame.data);
  expect(parsed.success, `${frame.event}: ${JSON.stringify(frame.data).slice(0, 300)}`).toBe(true);
}

const json = fc.jsonValue({ maxDepth: 3 });
const number = fc.oneof(
  fc.double({ noNaN: false }),
  fc.integer(),
  fc.constantFrom(0, -1, 90.0001, 1e308, Number.MAX_SAFE_INTEGER),
);
/** Fix-shaped data with any of its fields missing, mistyped or out of range. */
const fixLike = fc.record(
  {
    latitude: fc.oneof(number, json),
    longitude: fc.oneof(number, json),
    accuracy: fc.oneof(number, json),
    // Older than every probe (below), so that a valid fuzzed fix never makes a probe look old.
    capturedAt: fc.oneof(
      fc.integer({ min: Date.now() - 20 * 3_600_000, max: Date.now() - 3_600_000 }),
      number,
      json,
    ),
    n: fc.oneof(fc.integer(), json),
    queuedMs: fc.oneof(fc.integer(), json),
    extra: json,
  },
  { requiredKeys: [] },
);
/** A valid fix, or one with a single field spoiled: the edges a schema must hold. */
const nearlyValidFix = fc
  .tuple(
    fc.record({
      latitude: fc.double({ min: -90, max: 90, noNaN: true }),
      longitude: fc.double({ min: -180, max: 180, noNaN: true }),
      accuracy: fc.double({ min: 0, max: 5_000, noNaN: true }),
      capturedAt: fc.integer({ min: Date.now() - 20 * 3_600_000, max: Date.now() - 3_600_000 }),
    }),
    fc.option(
      fc.tuple(
        fc.constantFrom('latitude', 'longitude', 'accuracy', 'capturedAt', 'n'),
        fc.oneof(number, json),
      ),
      { freq: 2 },
    ),
  )
  .map(([fix, spoil]) => (spoil ? { ...fix, [spoil[0]]: spoil[1] } : fix));
const callerEventNames = Object.keys(callerClientEvents);

/** What a phone, a broken client or an attacker might send down the caller's socket. */
const callerFrame: fc.Arbitrary<string | Uint8Array> = fc.oneof(
  fc.string({ maxLength: 200 }),
  json.map((value) => JSON.stringify(value)),
  fc.uint8Array({ maxLength: 64 }),
  fc
    .record({
      event: fc.oneof(fc.constantFrom(...callerEventNames, 'join'), fc.string({ maxLength: 70 })),
      data: json,
    })
    .map((frame) => JSON.stringify(frame)),
  fc
    .record({ event: fc.constantFrom('fix', 'fixes'), data: fc.oneof(fixLike, nearlyValidFix) })
    .map(({ event, data }) =>
      JSON.stringify(event === 'fix' ? { event, data } : { event, data: { fixes: [data, data] } }),
    ),
);

const key = (latitude: unknown, longitude: unknown): string => `${latitude},${longitude}`;

describe('the caller socket, fuzzed', () => {
  it('answers every frame in the contract, keeps taking fixes, and maps only valid ones', async () => {
    const session: OpenedSession = await openSession(database.db, {
      callers: [{ phoneNumber: '+12025550150' }],
    });
    const dispatcher = await TestSocket.open(
      `${api.wsUrl}/api/v1/socket?token=${session.dispatcherToken}`,
    );
    dispatcher.send('join', { sessionId: session.sessionId });
    await dispatcher.event('joined');
    const callerUrl = `${api.wsUrl}/api/v1/caller/socket?token=${session.callers[0]!.token}`;
    let caller = await TestSocket.open(callerUrl);
    /** Every fix the contract accepts that went out, by position: the only ones that may map. */
    const validSent = new Set<string>();
    // Half an hour ago, a second apart: newer than any fuzzed fix, within the 24 h a fix may be.
    let probeAt = Date.now() - 30 * 60_000;
    let probes = 0;
    let closes = 0;

    await fc.assert(
      fc.asyncProperty(callerFrame, async (frame) => {
        const before = caller.frames.length;
        if (typeof frame === 'string') {
          try {
            const parsed = JSON.parse(frame) as { event?: unknown; data?: unknown };
            const fixes =
              parsed.event === 'fix'
                ? [parsed.data]
                : parsed.event === 'fixes'
                  ? ((parsed.data as { fixes?: unknown[] } | null)?.fixes ?? [])
                  : [];
            for (const fix of Array.isArray(fixes) ? fixes : []) {
              const valid = CallerFix.safeParse(fix);
              if (valid.success) validSent.add(key(valid.data.latitude, valid.data.longitude));
            }
          } catch {
            // not JSON: nothing in it can map
          }
        }
        caller.sendRaw(typeof frame === 'string' ? frame : Buffer.from(frame));
        // A valid fix right after it: frames are handled in order, so its ack means the fuzzed
        // frame was handled, and the socket still takes fixes.
        probes += 1;
        probeAt += 1_000;
        const probe = { latitude: 10, longitude: probes / 1e4, accuracy: 5, capturedAt: probeAt };
        validSent.add(key(probe.latitude, probe.longitude));
        caller.send('fix', probe);
        const ackOrClose = await Promise.race([
          caller.next((f) => f.event === 'ack' && f.data.capturedAt === probe.capturedAt),
          caller.closed(),
        ]);
        for (const answer of caller.frames.slice(before))
          expectContractFrame(callerServerEvents, answer);
        if (typeof ackOrClose === 'number') {
          expect(documentedCloseCodes.has(ackOrClose), `close code ${ackOrClose}`).toBe(true);
          closes += 1;
          caller = await TestSocket.open(callerUrl);
        }
      }),
      { numRuns: 300 },
    );
    await caller.close();

    // Every probe reached the map (but those of sockets closed under them), everything the
    // dispatcher got is in the contract, and every fix on the map or in Postgres was valid.
    const fixes = await dispatcher.count('new-location-available', probes - closes);
    await api.app.locus.writer.flush();
    for (const frame of dispatcher.frames) expectContractFrame(dispatcherServerEvents, frame);
    for (const fix of fixes)
      expect(validSent.has(key(fix.data.latitude, fix.data.longitude))).toBe(true);
    const stored = await database.db
      .selectFrom('location_fixes')
      .select(['latitude', 'longitude'])
      .where('session_id', '=', session.sessionId)
      .execute();
    for (const row of stored) expect(validSent.has(key(row.latitude, row.longitude))).toBe(true);
    await dispatcher.close();
  });
});

/** What a console, a broken client or an attacker might send down the dispatcher's socket. */
const dispatcherFrame: fc.Arbitrary<string | Uint8Array> = fc.oneof(
  fc.string({ maxLength: 200 }),
  json.map((value) => JSON.stringify(value)),
  fc.uint8Array({ maxLength: 64 }),
  fc
    .record({
      event: fc.oneof(fc.constantFrom('join', 'chat', 'fix'), fc.string({ maxLength: 70 })),
      data: fc.oneof(
        json,
        fc.record(
          { sessionId: fc.oneof(fc.uuid(), json), lastSeq: fc.oneof(fc.integer(), json) },
          { requiredKeys: [] },
        ),
      ),
    })
    .map((frame) => JSON.stringify(frame)),
);

describe('the dispatcher socket, fuzzed', () => {
  it('answers every frame in the contract, closes only with documented codes, and still joins', async () => {
    const session = await openSession(database.db, { callers: [{ phoneNumber: '+12025550151' }] });
    const url = `${api.wsUrl}/api/v1/socket?token=${session.dispatcherToken}`;
    await fc.assert(
      fc.asyncProperty(dispatcherFrame, async (frame) => {
        const socket = await TestSocket.open(url);
        socket.sendRaw(typeof frame === 'string' ? frame : Buffer.from(frame));
        // The real join after it: the socket must still work, unless the fuzzed frame was a join
        // itself (then this one is refused as a second join) or one for another session (404).
        socket.send('join', { sessionId: session.sessionId });
        const outcome = await Promise.race([
          socket.next(
            (f) =>
              f.event === 'joined' ||
              (f.event === 'error' && f.data.message === 'This socket has already joined.'),
          ),
          socket.closed(),
        ]);
        for (const answer of socket.frames) expectContractFrame(dispatcherServerEvents, answer);
        if (typeof outcome === 'number') {
          expect(documentedCloseCodes.has(outcome), `close code ${outcome}`).toBe(true);
          expect(outcome).toBe(closeCodes.notFound);
        } else {
          await socket.close();
        }
      }),
      { numRuns: 200 },
    );
  });
});
