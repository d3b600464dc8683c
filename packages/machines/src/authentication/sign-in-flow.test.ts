import { createActor, type SnapshotFrom } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { describe, expect, it } from 'vitest';
import {
  SignInFlow,
  signInFlowMachine,
  signInFlowStateOf,
  signInFlowStates,
  type PersistedSignInFlow,
  type SignInFlowEvent,
} from './sign-in-flow';
import { replayPath } from '../testing/replay-path';

const policy = { maxAttempts: 2, challengeTtlMs: 300_000 };
const issuedAt = 1_000_000;
const inTime = issuedAt + 1_000;
const late = issuedAt + policy.challengeTtlMs;

// Every fact the server can learn, with each answer it can get.
const events: SignInFlowEvent[] = [
  { type: 'PASSWORD_SUBMITTED' },
  { type: 'ACCOUNT_LOCKED' },
  ...[true, false].flatMap((accountExists) =>
    [true, false].map((matches) => ({
      type: 'PASSWORD_CHECKED' as const,
      accountExists,
      matches,
    })),
  ),
  { type: 'LOCK_DECIDED', locked: true },
  { type: 'LOCK_DECIDED', locked: false },
  { type: 'CHALLENGE_ISSUED', methods: ['totp', 'recovery'], at: issuedAt },
  { type: 'NO_SECOND_FACTOR' },
  ...[1, 2, 3].flatMap((attempt) =>
    [inTime, late].map((at) => ({ type: 'CODE_SUBMITTED' as const, attempt, at })),
  ),
  { type: 'CODE_CHECKED', accepted: true },
  { type: 'CODE_CHECKED', accepted: false },
];

// A state is where it is and which attempt it is on; the rest follows from the events.
const serializeState = (state: SnapshotFrom<typeof signInFlowMachine>) =>
  JSON.stringify([state.value, state.context.attempt, state.context.failedStep]);
const paths = () => getShortestPaths(signInFlowMachine, { events, input: policy, serializeState });

function run(...sequence: SignInFlowEvent[]) {
  const flow = SignInFlow.start(policy);
  for (const event of sequence) expect(flow.send(event)).toBe(true);
  return flow;
}

const challenge: SignInFlowEvent[] = [
  { type: 'PASSWORD_SUBMITTED' },
  { type: 'PASSWORD_CHECKED', accountExists: true, matches: true },
  { type: 'CHALLENGE_ISSUED', methods: ['totp', 'recovery'], at: issuedAt },
];

describe('the sign-in flow machine', () => {
  it('reaches every state by real event sequences, and the graph is the machine', () => {
    const all = paths();
    expect(new Set(all.map((path) => path.state.value))).toEqual(new Set(signInFlowStates));
    for (const path of all) {
      const actor = createActor(signInFlowMachine, { input: policy }).start();
      replayPath(actor, path.steps);
      expect(serializeState(actor.getSnapshot())).toBe(serializeState(path.state));
    }
  });

  it('either takes or refuses every event in every reachable state, and ends in the final ones', () => {
    for (const path of paths()) {
      const persisted = (() => {
        const actor = createActor(signInFlowMachine, { input: policy }).start();
        for (const step of path.steps) actor.send(step.event);
        return actor.getPersistedSnapshot();
      })();
      const state = signInFlowStateOf(persisted);
      const final = ['signedIn', 'refused', 'locked', 'expired'].includes(state);
      for (const event of events) {
        const flow = SignInFlow.resume(persisted);
        const taken = flow.send(event);
        if (final) expect(taken).toBe(false);
        // A refused event changes nothing.
        if (!taken) expect(flow.state()).toBe(state);
      }
    }
  });

  it('refuses a locked account before its password, and counts a wrong one or an unknown address', () => {
    expect(run({ type: 'PASSWORD_SUBMITTED' }, { type: 'ACCOUNT_LOCKED' }).state()).toBe('locked');
    for (const checked of [
      { accountExists: false, matches: false },
      { accountExists: true, matches: false },
    ]) {
      const flow = run({ type: 'PASSWORD_SUBMITTED' }, { type: 'PASSWORD_CHECKED', ...checked });
      expect(flow.state()).toBe('countingFailure');
      expect(flow.send({ type: 'NO_SECOND_FACTOR' })).toBe(false);
      expect(flow.send({ type: 'LOCK_DECIDED', locked: false })).toBe(true);
      expect(flow.state()).toBe('refused');
    }
    const locking = run(
      { type: 'PASSWORD_SUBMITTED' },
      { type: 'PASSWORD_CHECKED', accountExists: true, matches: false },
      { type: 'LOCK_DECIDED', locked: true },
    );
    expect(locking.state()).toBe('locked');
  });

  it('signs in with the password alone, or asks for a second factor', () => {
    const alone = run(
      { type: 'PASSWORD_SUBMITTED' },
      { type: 'PASSWORD_CHECKED', accountExists: true, matches: true },
      { type: 'NO_SECOND_FACTOR' },
    );
    expect(alone.state()).toBe('signedIn');
    const flow = run(...challenge);
    expect(flow.state()).toBe('secondFactor');
    expect(flow.context).toMatchObject({
      methods: ['totp', 'recovery'],
      challengeExpiresAt: issuedAt + policy.challengeTtlMs,
    });
    expect(flow.takesCode(inTime)).toBe(true);
    expect(flow.takesCode(late)).toBe(false);
  });

  it('takes codes until one is right, the attempts run out, the time is up or the account locks', () => {
    const right = run(
      ...challenge,
      { type: 'CODE_SUBMITTED', attempt: 1, at: inTime },
      { type: 'CODE_CHECKED', accepted: true },
    );
    expect(right.state()).toBe('signedIn');

    const wrong = run(
      ...challenge,
      { type: 'CODE_SUBMITTED', attempt: 1, at: inTime },
      { type: 'CODE_CHECKED', accepted: false },
      { type: 'LOCK_DECIDED', locked: false },
    );
    expect(wrong.state()).toBe('secondFactor');
    // The last attempt's wrong code ends the challenge; one past the limit is not looked at.
    wrong.send({ type: 'CODE_SUBMITTED', attempt: 2, at: inTime });
    wrong.send({ type: 'CODE_CHECKED', accepted: false });
    wrong.send({ type: 'LOCK_DECIDED', locked: false });
    expect(wrong.state()).toBe('expired');
    expect(run(...challenge, { type: 'CODE_SUBMITTED', attempt: 3, at: inTime }).state()).toBe(
      'expired',
    );
    expect(run(...challenge, { type: 'CODE_SUBMITTED', attempt: 1, at: late }).state()).toBe(
      'expired',
    );
    const locked = run(
      ...challenge,
      { type: 'CODE_SUBMITTED', attempt: 1, at: inTime },
      { type: 'ACCOUNT_LOCKED' },
    );
    expect(locked.state()).toBe('locked');
  });

  it('survives a round trip through JSON, as it does through Redis, and refuses a replay', () => {
    const stored = JSON.parse(JSON.stringify(run(...challenge).persisted())) as PersistedSignInFlow;
    const flow = SignInFlow.resume(stored);
    expect(flow.send({ type: 'CODE_SUBMITTED', attempt: 1, at: inTime })).toBe(true);
    expect(flow.send({ type: 'CODE_CHECKED', accepted: true })).toBe(true);
    const signedIn = JSON.parse(JSON.stringify(flow.persisted())) as PersistedSignInFlow;
    expect(signInFlowStateOf(signedIn)).toBe('signedIn');
    const replay = SignInFlow.resume(signedIn);
    expect(replay.takesCode(inTime)).toBe(false);
    expect(replay.send({ type: 'CODE_SUBMITTED', attempt: 2, at: inTime })).toBe(false);
    expect(replay.state()).toBe('signedIn');
  });
});
