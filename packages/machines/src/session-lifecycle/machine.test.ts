import { createActor, type SnapshotFrom } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { describe, expect, it } from 'vitest';
import type { SessionLifecycleEvent } from './events';
import { sessionLifecycleMachine, sessionLifecycleStates } from './machine';
import {
  sessionLifecycleStateOf,
  stepSessionLifecycle,
  type PersistedSessionLifecycle,
} from './run';
import { replayPath } from '../testing/replay-path';

const at = 1_700_000_000_000;
// Every event the API reports, with each code it reports.
const events: SessionLifecycleEvent[] = [
  { type: 'LOOKUP_STARTED', at },
  { type: 'LOOKUP_FOUND', at },
  { type: 'LOOKUP_FAILED', code: 'lookup-no-location', at },
  { type: 'TEXT_QUEUED', at },
  { type: 'TEXT_SENT', at },
  { type: 'TEXT_FAILED', code: 'sms-failed', at },
  { type: 'TEXT_FAILED', code: 'sms-opted-out', at },
  { type: 'LOCATION_ASKED_BY_TEXT', at },
  { type: 'FIX_RECEIVED', at },
  { type: 'REJOIN', at },
  { type: 'END', at },
];

// A state is where it is, what it stores, and what it may still hear of; the counters and the
// last event's time only count.
const serializeState = (state: SnapshotFrom<typeof sessionLifecycleMachine>) =>
  JSON.stringify([
    state.value,
    state.context.lookups > 0,
    state.context.texts > 0,
    state.context.locationType,
    state.context.requestError,
    state.context.endedAt,
  ]);
const paths = () => getShortestPaths(sessionLifecycleMachine, { events, serializeState });

function run(...sequence: SessionLifecycleEvent['type'][]) {
  const actor = createActor(sessionLifecycleMachine).start();
  for (const type of sequence) actor.send(events.find((event) => event.type === type)!);
  return actor;
}

describe('the session-lifecycle machine', () => {
  it('reaches every state by real event sequences, and the graph is the machine', () => {
    const all = paths();
    expect(new Set(all.map((path) => path.state.value))).toEqual(new Set(sessionLifecycleStates));
    for (const path of all) {
      const actor = createActor(sessionLifecycleMachine).start();
      replayPath(actor, path.steps);
      expect(actor.getSnapshot().value).toEqual(path.state.value);
      expect(serializeState(actor.getSnapshot())).toBe(serializeState(path.state));
    }
  });

  it('follows the flow of SPEC.md §4: lookup, a text, waiting, the first fix, the end', () => {
    const found = run('LOOKUP_STARTED', 'LOOKUP_FOUND').getSnapshot();
    expect(found.value).toBe('sharing');
    expect(found.context).toMatchObject({ locationType: 'RAPID_SOS', requestError: null });

    const actor = run('LOOKUP_STARTED');
    expect(actor.getSnapshot().value).toBe('lookingUp');
    actor.send({ type: 'LOOKUP_FAILED', code: 'lookup-timeout', at });
    expect(actor.getSnapshot().value).toBe('texting');
    expect(actor.getSnapshot().context.requestError).toBe('lookup-timeout');
    actor.send({ type: 'TEXT_QUEUED', at });
    expect(actor.getSnapshot().context).toMatchObject({
      locationType: 'TEXT_MESSAGE',
      requestError: null,
    });
    actor.send({ type: 'TEXT_SENT', at });
    expect(actor.getSnapshot().value).toBe('waiting');
    actor.send({ type: 'TEXT_FAILED', code: 'sms-failed', at });
    expect(actor.getSnapshot().value).toBe('texting');
    actor.send({ type: 'TEXT_QUEUED', at });
    actor.send({ type: 'TEXT_SENT', at });
    actor.send({ type: 'FIX_RECEIVED', at });
    expect(actor.getSnapshot().value).toBe('sharing');
    actor.send({ type: 'END', at: at + 5 });
    expect(actor.getSnapshot().value).toBe('ended');
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().context.endedAt).toBe(at + 5);
  });

  it('refuses every event once ended, whatever the way there', () => {
    for (const path of paths()) {
      if (path.state.value !== 'ended') continue;
      const actor = createActor(sessionLifecycleMachine).start();
      for (const step of path.steps) actor.send(step.event);
      for (const event of events) expect(actor.getSnapshot().can(event)).toBe(false);
    }
  });

  it('refuses the result of a lookup or a text that was never started', () => {
    const fresh = createActor(sessionLifecycleMachine).start().getSnapshot();
    expect(fresh.can({ type: 'LOOKUP_FOUND', at })).toBe(false);
    expect(fresh.can({ type: 'LOOKUP_FAILED', code: 'lookup-no-location', at })).toBe(false);
    expect(fresh.can({ type: 'TEXT_SENT', at })).toBe(false);
    // Reached without a lookup or a text, they stay refused in every state.
    for (const path of paths()) {
      const { lookups, texts } = path.state.context;
      if (path.state.value === 'ended') continue;
      expect(path.state.can({ type: 'LOOKUP_FOUND', at })).toBe(lookups > 0);
      expect(path.state.can({ type: 'TEXT_SENT', at })).toBe(texts > 0);
    }
  });

  it('leaves sharing only by ending: later requests and failures change what is stored', () => {
    for (const sequence of [
      ['LOOKUP_STARTED', 'LOOKUP_FAILED'],
      ['TEXT_QUEUED', 'TEXT_FAILED'],
      ['LOCATION_ASKED_BY_TEXT', 'REJOIN', 'TEXT_SENT'],
    ] as const) {
      const actor = run('TEXT_QUEUED', 'FIX_RECEIVED', ...sequence);
      expect(actor.getSnapshot().value).toBe('sharing');
    }
    expect(
      run('FIX_RECEIVED', 'LOOKUP_STARTED', 'LOOKUP_FAILED').getSnapshot().context.requestError,
    ).toBe('lookup-no-location');
  });

  it('steps a snapshot stored as JSON, as in Postgres, and stores nothing for a refusal', () => {
    const first = stepSessionLifecycle(null, { type: 'TEXT_QUEUED', at });
    expect(first).toMatchObject({ taken: true, from: 'requested', state: 'texting' });
    if (!first.taken) throw new Error('not taken');
    const stored = JSON.parse(JSON.stringify(first.persisted)) as PersistedSessionLifecycle;
    expect(sessionLifecycleStateOf(stored)).toBe('texting');
    const ended = stepSessionLifecycle(stored, { type: 'END', at: at + 1 });
    if (!ended.taken) throw new Error('not taken');
    expect(ended.context.endedAt).toBe(at + 1);
    const again = JSON.parse(JSON.stringify(ended.persisted)) as PersistedSessionLifecycle;
    expect(stepSessionLifecycle(again, { type: 'END', at: at + 2 })).toEqual({
      taken: false,
      state: 'ended',
    });
    expect(sessionLifecycleStateOf(null)).toBe('requested');
  });
});
