import { createActor, type SnapshotFrom } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { describe, expect, it } from 'vitest';
import {
  selectLockoutState,
  signInLockoutMachine,
  signInLockoutStates,
  stepSignInLockout,
  type SignInLockoutEvent,
} from './lockout';

const policy = { maxFailures: 3, lockMs: 600_000 };
const t0 = 1_000_000;
const during = t0 + 1_000;
const after = t0 + policy.lockMs + 5_000;
const events: SignInLockoutEvent[] = [during, after].flatMap((at) => [
  { type: 'FAIL' as const, at },
  { type: 'SUCCEED' as const, at },
  { type: 'TICK' as const, at },
]);
events.push({ type: 'UNLOCK' });

const serializeState = (state: SnapshotFrom<typeof signInLockoutMachine>) =>
  JSON.stringify([state.value, state.context.failures, state.context.lockedUntil !== null]);

describe('the sign-in lockout machine', () => {
  it('reaches every state by real event sequences: the third failure locks', () => {
    const paths = getShortestPaths(signInLockoutMachine, { events, input: policy, serializeState });
    expect(new Set(paths.map((path) => path.state.value))).toEqual(new Set(signInLockoutStates));
    const locked = paths.find((path) => path.state.value === 'locked')!;
    expect(locked.steps.filter((step) => step.event.type === 'FAIL')).toHaveLength(3);
    for (const path of paths) {
      const actor = createActor(signInLockoutMachine, { input: policy }).start();
      for (const step of path.steps) actor.send(step.event);
      expect(serializeState(actor.getSnapshot())).toBe(serializeState(path.state));
    }
  });

  it('refuses every attempt while locked, and opens when the time is up or an admin unlocks', () => {
    const actor = createActor(signInLockoutMachine, { input: policy }).start();
    for (let i = 0; i < 3; i += 1) actor.send({ type: 'FAIL', at: t0 });
    expect(actor.getSnapshot().value).toBe('locked');
    expect(actor.getSnapshot().context.lockedUntil).toBe(t0 + policy.lockMs);
    for (const type of ['FAIL', 'SUCCEED', 'TICK'] as const)
      expect(actor.getSnapshot().can({ type, at: t0 + policy.lockMs - 1 })).toBe(false);
    actor.send({ type: 'TICK', at: t0 + policy.lockMs });
    expect(actor.getSnapshot().value).toBe('open');
    expect(actor.getSnapshot().context.failures).toBe(0);

    const unlocked = stepSignInLockout(
      policy,
      { failures: 0, countingSince: null, lockedUntil: after },
      {
        type: 'UNLOCK',
      },
    );
    expect(unlocked).toMatchObject({ taken: true, state: 'open' });
  });

  it('counts failures within the lock time only, and a success starts again', () => {
    const stored = { failures: 2, countingSince: t0, lockedUntil: null };
    expect(stepSignInLockout(policy, stored, { type: 'FAIL', at: during }).state).toBe('locked');
    const late = stepSignInLockout(policy, stored, { type: 'FAIL', at: after });
    expect(late).toMatchObject({ state: 'open', context: { failures: 1, countingSince: after } });
    const success = stepSignInLockout(policy, stored, { type: 'SUCCEED', at: during });
    expect(success.context.failures).toBe(0);
  });

  it('names the state the sign-in modal shows from the API\u2019s refusal', () => {
    expect(selectLockoutState({ code: 'account-locked' })).toBe('locked');
    expect(selectLockoutState({ code: 'invalid-credentials' })).toBe('open');
    expect(selectLockoutState(null)).toBe('open');
  });
});
