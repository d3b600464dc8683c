import { createActor, fromPromise, waitFor } from 'xstate';
import { describe, expect, it } from 'vitest';
import { sessionLifecycleStates } from '../session-lifecycle/machine';
import type { TrackedLocation } from './events';
import { trackingMachine } from './machine';
import { selectLifecycleState } from './selectors';

/** A promise the test settles when it wants the step to move on. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

const fix: TrackedLocation = {
  latitude: 38.9,
  longitude: -77,
  uncertaintyRadiusInMeters: 12,
  altitude: null,
  address: null,
  capturedFromSource: 'TEXT_MESSAGE',
  dateTimeCaptured: new Date(Date.UTC(2026, 10, 25, 10, 0, 0)).toISOString(),
};

describe('the tracking machine read in the session-lifecycle names', () => {
  it('passes requested, lookingUp, texting, waiting and sharing as the server does, then none', async () => {
    const started = deferred<{ connectionRequestUuid: string; token: string }>();
    const lookedUp = deferred<{ uuid: string }>();
    const texted = deferred<{ token: string }>();
    const actor = createActor(
      trackingMachine.provide({
        actors: {
          startStream: fromPromise(() => started.promise),
          lookup: fromPromise(() => lookedUp.promise),
          requestSms: fromPromise(() => texted.promise),
          endTracking: fromPromise<void, { connectionRequestUuid: string | null }>(async () => {}),
        },
        actions: { openSocket: () => undefined, closeSocket: () => undefined },
      }),
    ).start();
    const seen: (string | null)[] = [];
    const state = () => selectLifecycleState(actor.getSnapshot());
    const reach = (name: string) => waitFor(actor, () => state() === name);

    seen.push(state());
    actor.send({ type: 'LOCATE', phoneNumber: '+12025550123' });
    seen.push(state());
    started.resolve({ connectionRequestUuid: 'request-1', token: 'socket' });
    await reach('lookingUp');
    seen.push(state());
    lookedUp.reject({ code: 'lookup-no-location', message: 'no location' });
    await reach('texting');
    seen.push(state());
    actor.send({ type: 'SEND_SMS', language: 'en' });
    seen.push(state());
    texted.resolve({ token: 'link' });
    await reach('waiting');
    seen.push(state());
    actor.send({ type: 'LIVE.LOCATION', callerId: 'caller-1', location: fix });
    seen.push(state());
    actor.send({ type: 'END_TRACKING' });
    actor.send({ type: 'CONFIRM_END' });
    await waitFor(actor, () => state() === null);
    seen.push(state());

    expect(seen).toEqual([
      null,
      'requested',
      'lookingUp',
      'texting',
      'texting',
      'waiting',
      'sharing',
      null,
    ]);
    // Every name it gives is one of the server machine's.
    for (const name of seen) if (name !== null) expect(sessionLifecycleStates).toContain(name);
  });

  it('reads a resumed session as sharing once a location is back, else as waiting after a text', () => {
    const actor = createActor(trackingMachine).start();
    actor.send({
      type: 'RESUME',
      connectionRequestUuid: 'request-1',
      token: 'socket',
      phoneNumber: '+12025550123',
      locationType: 'TEXT_MESSAGE',
    });
    expect(selectLifecycleState(actor.getSnapshot())).toBe('waiting');
    actor.send({ type: 'LIVE.LOCATION', callerId: 'caller-1', location: fix });
    expect(selectLifecycleState(actor.getSnapshot())).toBe('sharing');
  });
});
