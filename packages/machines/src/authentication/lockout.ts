import { assign, createActor, setup, type SnapshotFrom } from 'xstate';

/**
 * The sign-in lockout's states (SPEC.md: 5 failures lock an account for 10 minutes): `open`
 * counts failures; `locked` refuses every attempt until its time is up. The web's sign-in modal
 * reads the same names (`selectLockoutState`).
 */
export const signInLockoutStates = ['open', 'locked'] as const;
export type SignInLockoutState = (typeof signInLockoutStates)[number];

export interface SignInLockoutPolicy {
  maxFailures: number;
  /** How long a lock lasts, and how long failures are counted towards one (ms). */
  lockMs: number;
}

export interface SignInLockoutContext extends SignInLockoutPolicy {
  /** Failures counted towards a lock since `countingSince`. */
  failures: number;
  countingSince: number | null;
  lockedUntil: number | null;
}

/** `at`: when (ms since the epoch, the server's clock); the machine has no timers. */
export type SignInLockoutEvent =
  /** A wrong password (or an unknown address, counted alike). */
  | { type: 'FAIL'; at: number }
  /** A correct password: the count starts again. */
  | { type: 'SUCCEED'; at: number }
  /** An admin lifts the lock, or the password was reset. */
  | { type: 'UNLOCK' }
  /** Time passes: a lock whose time is up opens. */
  | { type: 'TICK'; at: number };

const lockOver = ({ context, event }: { context: SignInLockoutContext; event: { at: number } }) =>
  context.lockedUntil !== null && event.at >= context.lockedUntil;
const windowOver = (context: SignInLockoutContext, at: number) =>
  context.countingSince === null || at >= context.countingSince + context.lockMs;
const cleared = { failures: 0, countingSince: null, lockedUntil: null };

/**
 * One account's lockout. A failure in `open` is counted (a count older than `lockMs` starts
 * again); the `maxFailures`-th locks the account for `lockMs` and forgets the count. While
 * locked, an attempt is refused (the API answers `account-locked` before checking the password);
 * once the time is up any event opens it again. Run by the API's sign-in service on the state
 * it keeps in Redis (`services/api/src/modules/auth/lockout.ts`).
 */
export const signInLockoutMachine = setup({
  types: {
    context: {} as SignInLockoutContext,
    events: {} as SignInLockoutEvent,
    input: {} as SignInLockoutPolicy,
  },
  guards: {
    locksNow: ({ context, event }) => {
      if (event.type !== 'FAIL') return false;
      const counted = windowOver(context, event.at) ? 0 : context.failures;
      return counted + 1 >= context.maxFailures;
    },
    lockOver: ({ context, event }) => event.type !== 'UNLOCK' && lockOver({ context, event }),
  },
  actions: {
    count: assign(({ context, event }) => {
      if (event.type !== 'FAIL') return {};
      const fresh = windowOver(context, event.at);
      return {
        failures: (fresh ? 0 : context.failures) + 1,
        countingSince: fresh ? event.at : context.countingSince,
        lockedUntil: null,
      };
    }),
    lock: assign(({ context, event }) => ({
      ...cleared,
      lockedUntil: event.type === 'FAIL' ? event.at + context.lockMs : null,
    })),
    clear: assign(cleared),
  },
}).createMachine({
  id: 'signInLockout',
  context: ({ input }) => ({ ...input, ...cleared }),
  initial: 'open',
  states: {
    open: {
      on: {
        FAIL: [{ guard: 'locksNow', target: 'locked', actions: 'lock' }, { actions: 'count' }],
        SUCCEED: { actions: 'clear' },
        UNLOCK: { actions: 'clear' },
      },
    },
    locked: {
      on: {
        // Refused while locked: only the lock's end, or an admin, opens it.
        FAIL: { guard: 'lockOver', target: 'open', actions: ['clear', 'count'] },
        SUCCEED: { guard: 'lockOver', target: 'open', actions: 'clear' },
        TICK: { guard: 'lockOver', target: 'open', actions: 'clear' },
        UNLOCK: { target: 'open', actions: 'clear' },
      },
    },
  },
});

export type SignInLockoutSnapshot = SnapshotFrom<typeof signInLockoutMachine>;

/**
 * An actor on an account's lockout as it is stored (the API keeps the count and the lock in
 * Redis, not a snapshot): the state is rebuilt from them.
 */
export function signInLockoutActor(
  policy: SignInLockoutPolicy,
  stored: { failures: number; countingSince: number | null; lockedUntil: number | null },
) {
  const snapshot = signInLockoutMachine.resolveState({
    value: stored.lockedUntil !== null ? 'locked' : 'open',
    context: { ...policy, ...stored },
  });
  return createActor(signInLockoutMachine, { input: policy, snapshot }).start();
}

/** Runs one event: `taken: false` when the machine refuses it (an attempt on a locked account). */
export function stepSignInLockout(
  policy: SignInLockoutPolicy,
  stored: { failures: number; countingSince: number | null; lockedUntil: number | null },
  event: SignInLockoutEvent,
): { taken: boolean; state: SignInLockoutState; context: SignInLockoutContext } {
  const actor = signInLockoutActor(policy, stored);
  const taken = actor.getSnapshot().can(event);
  if (taken) actor.send(event);
  const after = actor.getSnapshot();
  actor.stop();
  return { taken, state: after.value as SignInLockoutState, context: after.context };
}

/** The lockout state the sign-in modal shows: the API's refusal code names it. */
export function selectLockoutState(failure: { code: string | null } | null): SignInLockoutState {
  return failure?.code === 'account-locked' ? 'locked' : 'open';
}
