import { createActor, fromPromise, waitFor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { describe, expect, it } from 'vitest';
import type { RequestError, SmsLanguage, TrackedLocation, TrackingEvent } from './events';
import { normalisePhoneNumber, trackingMachine } from './machine';
import {
  selectCallerRows,
  selectHeading,
  selectLatestLocation,
  selectShowsEndConfirmation,
  selectShowsEntryControls,
  selectShowsSmsPrompt,
  selectShowsWaitingModal,
  selectStatusText,
} from './selectors';

const at = (second: number): TrackedLocation => ({
  latitude: 38.9 + second / 1e4,
  longitude: -77.03,
  uncertaintyRadiusInMeters: 12,
  altitude: null,
  address: null,
  capturedFromSource: 'TEXT_MESSAGE',
  dateTimeCaptured: new Date(Date.UTC(2026, 10, 23, 10, 0, second)).toISOString(),
});

/** Effects that answer as told and record what they were asked. */
function start(answers: { lookup?: RequestError; sms?: RequestError; startStream?: RequestError }) {
  const calls = {
    startStream: [] as string[],
    lookup: [] as string[],
    sms: [] as SmsLanguage[],
    ended: 0,
    opened: [] as string[],
    closed: 0,
  };
  const machine = trackingMachine.provide({
    actors: {
      startStream: fromPromise(async ({ input }) => {
        calls.startStream.push(input.phoneNumber);
        if (answers.startStream) throw answers.startStream;
        return { connectionRequestUuid: 'request-1', token: 'socket-token' };
      }),
      lookup: fromPromise(async ({ input }) => {
        calls.lookup.push(input.connectionRequestUuid);
        if (answers.lookup) throw answers.lookup;
        return { uuid: 'lookup-1' };
      }),
      requestSms: fromPromise(async ({ input }) => {
        calls.sms.push(input.language);
        if (answers.sms) throw answers.sms;
        return { token: 'caller-link' };
      }),
      endTracking: fromPromise(async () => {
        calls.ended += 1;
      }),
    },
    actions: {
      openSocket: (_, params: { token: string }) => void calls.opened.push(params.token),
      closeSocket: () => void (calls.closed += 1),
    },
  });
  const actor = createActor(machine).start();
  const settle = () => waitFor(actor, (s) => !s.hasTag('busy') && !isInvoking(s.value));
  return { actor, calls, settle, snapshot: () => actor.getSnapshot() };
}

function isInvoking(value: unknown): boolean {
  const json = JSON.stringify(value);
  return json.includes('starting') || json.includes('lookingUp');
}

const noTeam: RequestError = { code: 'lookup-unavailable-no-team', message: 'no team' };
const messages = (snapshot: { context: { log: { message: string }[] } }) =>
  snapshot.context.log.map((entry) => entry.message);

describe('the tracking machine', () => {
  it('prefixes +1 to a number without a leading +', () => {
    expect(normalisePhoneNumber('2025550123')).toBe('+12025550123');
    expect(normalisePhoneNumber(' +442071838750 ')).toBe('+442071838750');
  });

  it('locates through the provider without offering a text message', async () => {
    const { actor, calls, settle, snapshot } = start({});
    expect(selectShowsEntryControls(snapshot())).toBe(true);
    actor.send({ type: 'LOCATE', phoneNumber: '2025550123' });
    await settle();
    expect(calls.startStream).toEqual(['+12025550123']);
    expect(calls.opened).toEqual(['socket-token']);
    expect(calls.lookup).toEqual(['request-1']);
    expect(snapshot().context.locationType).toBe('RAPID_SOS');
    expect(selectShowsSmsPrompt(snapshot())).toBe(false);
    // No text was sent: nothing to wait for in a modal while the provider's fix travels.
    expect(selectShowsWaitingModal(snapshot())).toBe(false);
    expect(selectShowsEntryControls(snapshot())).toBe(false);
    expect(selectHeading(snapshot())).toBe('Locating +12025550123');
    expect(messages(snapshot())[0]).toBe('Locating +12025550123');
  });

  it('offers a text message when the lookup fails, stores the error, and waits for the first fix', async () => {
    const { actor, calls, settle, snapshot } = start({ lookup: noTeam });
    actor.send({ type: 'LOCATE', phoneNumber: '+12025550123' });
    await settle();
    expect(snapshot().context.requestError).toEqual(noTeam);
    expect(selectShowsSmsPrompt(snapshot())).toBe(true);
    expect(selectStatusText(snapshot(), 'Connected')).toBe(
      'Unable to automatically retrieve location',
    );

    actor.send({ type: 'SEND_SMS', language: 'es' });
    await settle();
    expect(calls.sms).toEqual(['es']);
    expect(snapshot().context.locationType).toBe('TEXT_MESSAGE');
    expect(selectShowsWaitingModal(snapshot())).toBe(true);
    expect(selectStatusText(snapshot(), 'Connected')).toBe('Connected');

    actor.send({ type: 'LIVE.LOCATION', callerId: 'c1', location: at(1) });
    expect(selectShowsWaitingModal(snapshot())).toBe(false);
    expect(selectLatestLocation(snapshot())?.location).toEqual(at(1));
  });

  it('says "Unable to send SMS request for location" when the text message fails', async () => {
    const { actor, settle, snapshot } = start({
      lookup: noTeam,
      sms: { code: 'internal-error', message: 'boom' },
    });
    actor.send({ type: 'LOCATE', phoneNumber: '+12025550123' });
    await settle();
    actor.send({ type: 'SEND_SMS', language: 'en' });
    await settle();
    expect(selectStatusText(snapshot(), 'Connected')).toBe(
      'Unable to send SMS request for location',
    );
    expect(selectShowsSmsPrompt(snapshot())).toBe(true);
  });

  it('offers the text message again when the provider reports it failed, and logs each delivery status', async () => {
    const { actor, calls, settle, snapshot } = start({ lookup: noTeam });
    actor.send({ type: 'LOCATE', phoneNumber: '+12025550123' });
    await settle();
    actor.send({ type: 'SEND_SMS', language: 'fr' });
    await settle();
    actor.send({ type: 'LIVE.SMS_STATUS', callerId: 'c1', status: 'sent' });
    expect(selectShowsWaitingModal(snapshot())).toBe(true);

    actor.send({ type: 'LIVE.SMS_STATUS', callerId: 'c1', status: 'undelivered' });
    expect(selectShowsWaitingModal(snapshot())).toBe(false);
    expect(selectShowsSmsPrompt(snapshot())).toBe(true);
    expect(selectStatusText(snapshot(), 'Connected')).toBe(
      'Unable to send SMS request for location',
    );

    actor.send({ type: 'SEND_SMS', language: 'fr' });
    await settle();
    expect(calls.sms).toEqual(['fr', 'fr']);
    actor.send({ type: 'LIVE.SMS_STATUS', callerId: 'c1', status: 'delivered' });
    expect(selectStatusText(snapshot(), 'Connected')).toBe('Connected');
    expect(messages(snapshot())).toEqual(
      expect.arrayContaining([
        'Text message sent',
        'Text message was not delivered',
        'Text message delivered',
      ]),
    );

    actor.send({ type: 'LIVE.SESSION_CLOSED', reason: 'ended' });
    expect(messages(snapshot()).at(-1)).toBe('The tracking session has ended');
  });

  it('shows the e-mail verification modal for verify-email and the cleared-domain modal for unauthorized-domain', async () => {
    const first = start({ startStream: { code: 'verify-email', message: 'verify' } });
    first.actor.send({ type: 'LOCATE', phoneNumber: '+12025550123' });
    await first.settle();
    expect(first.snapshot().context.modal).toBe('email-verification');
    expect(selectShowsEntryControls(first.snapshot())).toBe(true);
    first.actor.send({ type: 'DISMISS_MODAL' });
    expect(first.snapshot().context.modal).toBeNull();

    const second = start({
      lookup: noTeam,
      sms: { code: 'unauthorized-domain', message: 'domain' },
    });
    second.actor.send({ type: 'LOCATE', phoneNumber: '+12025550123' });
    await second.settle();
    second.actor.send({ type: 'SEND_SMS', language: 'fr' });
    await second.settle();
    expect(second.snapshot().context.modal).toBe('cleared-domain');
  });

  it('applies the live events of SPEC.md §4', async () => {
    const { actor, settle, snapshot } = start({});
    actor.send({ type: 'LOCATE', phoneNumber: '+12025550123' });
    await settle();
    const live = (event: TrackingEvent) => actor.send(event);
    const c1 = () => snapshot().context.callers.c1!;

    live({ type: 'LIVE.LOCATION', callerId: 'c1', location: at(2) });
    expect(c1()).toMatchObject({ connected: true, sharing: true, focused: true });
    // Deduplicated by capture time; an older capture that arrives late takes its place in time.
    live({ type: 'LIVE.LOCATION', callerId: 'c1', location: at(2) });
    live({ type: 'LIVE.LOCATION', callerId: 'c1', location: at(1) });
    live({ type: 'LIVE.LOCATION', callerId: 'c1', location: at(3) });
    live({ type: 'LIVE.LOCATION', callerId: 'c1', location: at(1) });
    expect(c1().locations.map((l) => l.dateTimeCaptured)).toEqual([
      at(1).dateTimeCaptured,
      at(2).dateTimeCaptured,
      at(3).dateTimeCaptured,
    ]);

    live({ type: 'LIVE.TAB_FOCUS', callerId: 'c1', focused: false });
    expect(c1().focused).toBe(false);
    live({ type: 'LIVE.SHARING', callerId: 'c1', sharing: false });
    expect(c1().sharing).toBe(false);
    live({ type: 'LIVE.SHARING_ERROR', callerId: 'c1', message: 'denied' });
    live({ type: 'LIVE.CALLER_CONNECTED', callerId: 'c1', connected: true });
    live({ type: 'LIVE.SHARING', callerId: 'c1', sharing: true });
    live({ type: 'LIVE.TAB_FOCUS', callerId: 'c1', focused: true });
    live({ type: 'LIVE.CALLER_CONNECTED', callerId: 'c1', connected: false });
    expect(c1()).toMatchObject({ connected: false, sharing: false, focused: false });
    expect(messages(snapshot())).toEqual([
      'Locating +12025550123',
      'Automatic location lookup succeeded',
      'Caller Stopped Sharing',
      'Caller unable to share location',
      'Caller connected',
      'Caller disconnected',
    ]);
  });

  it('draws fixes that waited on the phone in their place in time, and logs each outage once', async () => {
    const { actor, settle, snapshot } = start({});
    actor.send({ type: 'LOCATE', phoneNumber: '+12025550123' });
    await settle();
    const late = (second: number, delayMs: number): TrackedLocation => ({ ...at(second), delayMs });
    for (const location of [at(1), late(2, 30_000), late(3, 29_000), at(10), late(5, 12_000)])
      actor.send({ type: 'LIVE.LOCATION', callerId: 'c1', location });
    const fixes = snapshot().context.callers.c1!.locations;
    expect(fixes.map((l) => l.dateTimeCaptured)).toEqual(
      [1, 2, 3, 5, 10].map((second) => at(second).dateTimeCaptured),
    );
    expect(fixes.map((l) => l.delayMs)).toEqual([undefined, 30_000, 29_000, 12_000, undefined]);
    // 2 and 3 are one outage (one entry); 5 came after 3, which was late too: no new entry.
    expect(
      messages(snapshot()).filter((message) => message.startsWith('Delayed locations')),
    ).toHaveLength(1);
    expect(selectLatestLocation(snapshot())?.location.dateTimeCaptured).toBe(
      at(10).dateTimeCaptured,
    );
  });

  it('logs each location the caller texted back, and what became of a text that held one', async () => {
    const { actor, settle, snapshot } = start({});
    actor.send({ type: 'LOCATE', phoneNumber: '+12025550123' });
    await settle();
    const texted: TrackedLocation = { ...at(4), deliveredBy: 'sms' };
    actor.send({ type: 'LIVE.TEXT_LOCATION_REQUESTED', callerId: 'c1' });
    actor.send({ type: 'LIVE.LOCATION', callerId: 'c1', location: at(2) });
    actor.send({ type: 'LIVE.LOCATION', callerId: 'c1', location: texted });
    const sms = (
      body: string,
      location?: { outcome: 'mapped' | 'duplicate' | 'not-mapped'; reason?: string },
    ) =>
      actor.send({
        type: 'LIVE.SMS_RECEIVED',
        from: '+12025550123',
        body,
        callerId: 'c1',
        location,
      });
    sms('LOC 1', { outcome: 'mapped' });
    sms('LOC 2', { outcome: 'duplicate' });
    sms('LOC 3', { outcome: 'not-mapped', reason: 'Latitude 123.4 is out of range.' });
    sms('hello');
    expect(snapshot().context.callers.c1!.locations.at(-1)).toEqual(texted);
    // A texted fix says nothing of the page: the caller is as connected as before.
    actor.send({ type: 'LIVE.CALLER_CONNECTED', callerId: 'c1', connected: false });
    actor.send({
      type: 'LIVE.LOCATION',
      callerId: 'c1',
      location: { ...at(6), deliveredBy: 'sms' },
    });
    expect(snapshot().context.callers.c1).toMatchObject({ connected: false, sharing: false });
    expect(messages(snapshot()).slice(1)).toEqual([
      'Automatic location lookup succeeded',
      'Asked the caller for their location by text',
      'Location received by text',
      'SMS Received: LOC 1',
      "SMS Received: LOC 2 (location already received from the caller's page)",
      'SMS Received: LOC 3 (location not mapped: Latitude 123.4 is out of range.)',
      'SMS Received: hello',
      'Caller disconnected',
      'Location received by text',
    ]);
  });

  it("keeps what the caller's phone last said about itself", async () => {
    const { actor, settle, snapshot } = start({});
    actor.send({ type: 'LOCATE', phoneNumber: '+12025550123' });
    await settle();
    const device = {
      battery: { level: 0.07, charging: false },
      network: null,
      visibility: 'hidden' as const,
      hiddenSince: '2026-11-24T14:02:10.000Z',
      permission: 'granted' as const,
      reportedAt: '2026-11-24T14:03:00.000Z',
    };
    actor.send({ type: 'LIVE.DEVICE', callerId: 'c1', device });
    expect(snapshot().context.callers.c1!.device).toEqual(device);
    actor.send({ type: 'LIVE.LOCATION', callerId: 'c1', location: at(1) });
    expect(snapshot().context.callers.c1!.device).toEqual(device);
    const back = { ...device, visibility: 'visible' as const, hiddenSince: null };
    actor.send({ type: 'LIVE.DEVICE', callerId: 'c1', device: back });
    expect(snapshot().context.callers.c1!.device).toEqual(back);
  });

  it('asks "Are you sure?" before ending; Cancel keeps tracking, End Tracking clears everything', async () => {
    const { actor, calls, settle, snapshot } = start({});
    actor.send({ type: 'LOCATE', phoneNumber: '+12025550123' });
    await settle();
    actor.send({ type: 'LIVE.LOCATION', callerId: 'c1', location: at(1) });
    actor.send({ type: 'END_TRACKING' });
    expect(selectShowsEndConfirmation(snapshot())).toBe(true);
    actor.send({ type: 'CANCEL_END' });
    expect(selectShowsEndConfirmation(snapshot())).toBe(false);
    expect(selectLatestLocation(snapshot())).not.toBeNull();

    actor.send({ type: 'END_TRACKING' });
    actor.send({ type: 'CONFIRM_END' });
    await waitFor(actor, (s) => s.hasTag('entry-controls'));
    expect(calls.ended).toBe(1);
    expect(calls.closed).toBe(1);
    expect(snapshot().context.log).toEqual([]);
    expect(snapshot().context.callers).toEqual({});
  });

  it('reaches every screen of the flow by real event sequences (model-based)', () => {
    const done = (id: string, output: unknown) =>
      ({ type: `xstate.done.actor.${id}`, output }) as unknown as TrackingEvent;
    const failed = (id: string, error: RequestError) =>
      ({ type: `xstate.error.actor.${id}`, error }) as unknown as TrackingEvent;
    const paths = getShortestPaths(trackingMachine, {
      events: [
        { type: 'LOCATE', phoneNumber: '2025550123' },
        { type: 'SEND_SMS', language: 'en' },
        { type: 'DECLINE_SMS' },
        { type: 'END_TRACKING' },
        { type: 'CANCEL_END' },
        { type: 'CONFIRM_END' },
        { type: 'LIVE.LOCATION', callerId: 'c1', location: at(1) },
        done('startStream', { connectionRequestUuid: 'r', token: 't' }),
        failed('startStream', { code: 'verify-email', message: '' }),
        done('lookup', { uuid: 'u' }),
        failed('lookup', noTeam),
        done('requestSms', { token: 'l' }),
        failed('requestSms', { code: 'internal-error', message: '' }),
        done('endTracking', undefined),
      ],
      serializeState: (state) =>
        JSON.stringify([state.value, state.context.statusText, state.context.modal]),
    });
    const screens = new Set(
      paths.flatMap((path) =>
        [
          selectShowsEntryControls(path.state) && 'entry',
          selectShowsSmsPrompt(path.state) && 'sms-prompt',
          selectShowsWaitingModal(path.state) && 'waiting',
          selectShowsEndConfirmation(path.state) && 'end-confirmation',
          path.state.hasTag('located') && 'located',
          path.state.context.modal,
          path.state.context.statusText,
        ].filter(Boolean),
      ),
    );
    expect([...screens].sort()).toEqual(
      [
        'Unable to automatically retrieve location',
        'Unable to send SMS request for location',
        'email-verification',
        'end-confirmation',
        'entry',
        'located',
        'sms-prompt',
        'waiting',
      ].sort(),
    );
  });

  it('does not wait for a location that arrived before the lookup answered', async () => {
    let answer: (value: { uuid: string }) => void = () => undefined;
    const machine = trackingMachine.provide({
      actors: {
        startStream: fromPromise(async () => ({ connectionRequestUuid: 'r', token: 't' })),
        lookup: fromPromise(() => new Promise<{ uuid: string }>((resolve) => (answer = resolve))),
      },
      actions: { openSocket: () => undefined },
    });
    const actor = createActor(machine).start();
    actor.send({ type: 'LOCATE', phoneNumber: '+12025550107' });
    await waitFor(actor, (s) => JSON.stringify(s.value).includes('lookingUp'));
    actor.send({
      type: 'LIVE.LOCATION',
      callerId: 'c',
      location: { ...at(1), capturedFromSource: 'RAPID_SOS' },
    });
    answer({ uuid: 'lookup-1' });
    const settled = await waitFor(actor, (s) => s.hasTag('located'));
    expect(selectShowsWaitingModal(settled)).toBe(false);
    expect(selectLatestLocation(settled)?.location.capturedFromSource).toBe('RAPID_SOS');
  });

  describe('many numbers at once', () => {
    function startMany(options: { sendFails?: RequestError } = {}) {
      const calls = {
        started: [] as unknown[],
        sent: [] as { target: unknown; language: SmsLanguage; connectionRequestUuid: string }[],
        opened: [] as string[],
        lookups: 0,
      };
      const machine = trackingMachine.provide({
        actors: {
          startMany: fromPromise(async ({ input }) => {
            calls.started.push(input.target);
            return {
              connectionRequestUuid: 'request-m',
              token: 'socket-m',
              phoneNumber: '+12025550101',
              callerId: 'c1',
            };
          }),
          sendMany: fromPromise(async ({ input }) => {
            calls.sent.push(input);
            if (options.sendFails) throw options.sendFails;
            const numbers =
              'phoneNumbers' in input.target ? input.target.phoneNumbers : ['+12025550199'];
            return {
              callers: numbers.map((phoneNumber, index) => ({
                id: phoneNumber === '+12025550101' ? 'c1' : `c-${phoneNumber}-${index}`,
                phoneNumber,
                status: 'sent' as const,
              })),
              invalid: [],
            };
          }),
          lookup: fromPromise(async () => {
            calls.lookups += 1;
            return { uuid: 'never' };
          }),
        },
        actions: {
          openSocket: (_, params: { token: string }) => void calls.opened.push(params.token),
        },
      });
      return { actor: createActor(machine).start(), calls };
    }

    it('opens the session with the first number, texts them all in the language, and waits without a lookup or prompt', async () => {
      const { actor, calls } = startMany();
      actor.send({
        type: 'LOCATE_MANY',
        target: { phoneNumbers: ['+12025550101', '+12025550102', '+12025550103'] },
        language: 'es',
      });
      const waiting = await waitFor(actor, (s) => selectShowsWaitingModal(s));
      expect(calls.started).toEqual([
        { phoneNumbers: ['+12025550101', '+12025550102', '+12025550103'] },
      ]);
      expect(calls.opened).toEqual(['socket-m']);
      expect(calls.sent).toEqual([
        {
          connectionRequestUuid: 'request-m',
          language: 'es',
          target: { phoneNumbers: ['+12025550101', '+12025550102', '+12025550103'] },
        },
      ]);
      expect(calls.lookups).toBe(0);
      expect(selectShowsSmsPrompt(waiting)).toBe(false);
      expect(selectHeading(waiting)).toBe('Locating 3 numbers');
      expect(messages(waiting)).toContain('SMS request sent to 3 numbers (Spanish)');

      // One number's text failing does not re-offer a prompt: the others may still answer.
      actor.send({ type: 'LIVE.SMS_STATUS', callerId: 'c-+12025550103-2', status: 'failed' });
      actor.send({ type: 'LIVE.SMS_STATUS', callerId: 'c1', status: 'delivered' });
      actor.send({ type: 'LIVE.CALLER_CONNECTED', callerId: 'c-+12025550102-1', connected: true });
      expect(selectShowsSmsPrompt(actor.getSnapshot())).toBe(false);
      expect(selectShowsWaitingModal(actor.getSnapshot())).toBe(true);
      expect(selectCallerRows(actor.getSnapshot()).map((row) => row.progress)).toEqual([
        'SMS delivered',
        'Link opened',
        'Failed',
      ]);
      const connectedEntry = actor
        .getSnapshot()
        .context.log.find((entry) => entry.message === 'Caller connected');
      expect(connectedEntry?.callerId).toBe('c-+12025550102-1');

      actor.send({ type: 'LIVE.LOCATION', callerId: 'c-+12025550102-1', location: at(1) });
      expect(actor.getSnapshot().hasTag('located')).toBe(true);
      expect(selectCallerRows(actor.getSnapshot())[1]?.progress).toBe('Sharing');
      actor.send({ type: 'LIVE.SHARING', callerId: 'c-+12025550102-1', sharing: false });
      expect(selectCallerRows(actor.getSnapshot())[1]?.progress).toBe('Stopped');
    });

    it('texts call lists, and adds numbers to the running session', async () => {
      const { actor, calls } = startMany();
      actor.send({ type: 'LOCATE_MANY', target: { callListIds: ['list-1'] }, language: 'fr' });
      await waitFor(actor, (s) => selectShowsWaitingModal(s));
      expect(calls.sent[0]).toMatchObject({ target: { callListIds: ['list-1'] }, language: 'fr' });

      actor.send({ type: 'ADD_NUMBERS', phoneNumbers: ['+12025550177'], language: 'zh' });
      await waitFor(actor, (s) => !s.hasTag('adding-numbers'));
      expect(calls.sent[1]).toEqual({
        connectionRequestUuid: 'request-m',
        language: 'zh',
        target: { phoneNumbers: ['+12025550177'] },
      });
      expect(Object.values(actor.getSnapshot().context.callerNumbers)).toContain('+12025550177');
    });

    it('keeps tracking when nobody could be texted, and resumes with every number', async () => {
      const { actor } = startMany({
        sendFails: { code: 'validation-failed', message: 'too many' },
      });
      actor.send({
        type: 'LOCATE_MANY',
        target: { phoneNumbers: ['+12025550101'] },
        language: 'en',
      });
      const failed = await waitFor(actor, (s) => s.hasTag('send-many-failed'));
      expect(selectStatusText(failed, 'Connected')).toBe('Unable to send SMS request for location');
      expect(failed.hasTag('tracking')).toBe(true);

      const resumed = createActor(trackingMachine).start();
      resumed.send({
        type: 'RESUME',
        phoneNumber: '+12025550101',
        connectionRequestUuid: 'r',
        token: 't',
        locationType: 'TEXT_MESSAGE',
        callers: [
          { id: 'a', phoneNumber: '+12025550101' },
          { id: 'b', phoneNumber: '+12025550102' },
        ],
      });
      expect(resumed.getSnapshot().context.callerNumbers).toEqual({
        a: '+12025550101',
        b: '+12025550102',
      });
      expect(selectHeading(resumed.getSnapshot())).toBe('Locating 2 numbers');
    });
  });
});
