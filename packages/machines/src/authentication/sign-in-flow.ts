import { assign, createActor, setup, type SnapshotFrom } from 'xstate';
import type { SecondFactorMethod } from './events';

/**
 * The sign-in flow's states, shared by the API (which runs the machine) and the web's sign-in
 * modal (whose machine's states carry the same names, `selectSignInFlowState`):
 *
 * - `password`: nothing submitted yet.
 * - `checkingPassword`: the server is admitting the attempt and checking the password.
 * - `passwordAccepted`: the password is right; the server looks for a second factor.
 * - `countingFailure`: a wrong password or code; the server counts it toward the lockout.
 * - `secondFactor`: a challenge was issued; it waits for a code or a passkey (across requests:
 *   the API stores this machine's snapshot with the challenge).
 * - `checkingCode`: the server is checking a code or a passkey for the challenge.
 * - `signedIn`, `refused` (wrong password), `locked` (the account is locked), `expired` (the
 *   challenge ran out of time or attempts): where a flow ends.
 */
export const signInFlowStates = [
  'password',
  'checkingPassword',
  'passwordAccepted',
  'countingFailure',
  'secondFactor',
  'checkingCode',
  'signedIn',
  'refused',
  'locked',
  'expired',
] as const;
export type SignInFlowState = (typeof signInFlowStates)[number];

export interface SignInFlowPolicy {
  /** Codes a challenge evaluates at most (the contract's `mfaChallengeLimits.maxAttempts`). */
  maxAttempts: number;
  /** How long a challenge stands (ms). */
  challengeTtlMs: number;
}

export interface SignInFlowContext extends SignInFlowPolicy {
  /** Which step a failure being counted belongs to. */
  failedStep: 'password' | 'code' | null;
  /** The second factors the challenge offers. */
  methods: SecondFactorMethod[];
  /** When the challenge ends (ms since the epoch); null before one is issued. */
  challengeExpiresAt: number | null;
  /** The number of the code attempt being checked (the API counts them atomically). */
  attempt: number;
}

/**
 * The facts the server learns, in the order it learns them; `at` is the server's clock (ms since
 * the epoch), so the machine decides expiry itself and stays pure (no timers, no I/O).
 */
export type SignInFlowEvent =
  | { type: 'PASSWORD_SUBMITTED' }
  /** The account is locked: found before the password is looked at, or before a code is. */
  | { type: 'ACCOUNT_LOCKED' }
  | { type: 'PASSWORD_CHECKED'; accountExists: boolean; matches: boolean }
  /** A failure was counted; `locked` when it locked the account. */
  | { type: 'LOCK_DECIDED'; locked: boolean }
  | { type: 'CHALLENGE_ISSUED'; methods: SecondFactorMethod[]; at: number }
  /** The user has no second factor: the password alone signs in. */
  | { type: 'NO_SECOND_FACTOR' }
  /** A code or a passkey arrives for the challenge; `attempt` counts from 1. */
  | { type: 'CODE_SUBMITTED'; attempt: number; at: number }
  | { type: 'CODE_CHECKED'; accepted: boolean };

export const defaultSignInFlowPolicy: SignInFlowPolicy = {
  maxAttempts: 5,
  challengeTtlMs: 5 * 60_000,
};

/**
 * The policy from the contract's `mfaChallengeLimits` (passed in: this package does not depend
 * on the contract), so the API's flow and the sign-in modal's copy of it end a challenge alike.
 */
export function signInFlowPolicyFrom(limits: {
  maxAttempts: number;
  ttlSeconds: number;
}): SignInFlowPolicy {
  return { maxAttempts: limits.maxAttempts, challengeTtlMs: limits.ttlSeconds * 1000 };
}

/**
 * Signing in, as the server decides it: the password (a locked account is refused before it is
 * checked; a wrong one is counted and may lock), then, for a user with a second factor, a
 * challenge that takes codes until one is right, the account locks, or the challenge runs out
 * of attempts or time. Every final state takes no event: a challenge that signed in, expired or
 * locked refuses any further code, which is how the API refuses a replayed challenge.
 */
export const signInFlowMachine = setup({
  types: {
    context: {} as SignInFlowContext,
    events: {} as SignInFlowEvent,
    input: {} as Partial<SignInFlowPolicy>,
  },
  guards: {
    passwordRight: ({ event }) =>
      event.type === 'PASSWORD_CHECKED' && event.accountExists && event.matches,
    codeAccepted: ({ event }) => event.type === 'CODE_CHECKED' && event.accepted,
    locks: ({ event }) => event.type === 'LOCK_DECIDED' && event.locked,
    failedPassword: ({ context }) => context.failedStep === 'password',
    lastAttempt: ({ context }) => context.attempt >= context.maxAttempts,
    challengeOver: ({ context, event }) =>
      event.type === 'CODE_SUBMITTED' &&
      (event.attempt > context.maxAttempts ||
        context.challengeExpiresAt === null ||
        event.at >= context.challengeExpiresAt),
  },
  actions: {
    failPassword: assign({ failedStep: 'password' as const }),
    failCode: assign({ failedStep: 'code' as const }),
    clearFailure: assign({ failedStep: null }),
    issue: assign(({ context, event }) =>
      event.type === 'CHALLENGE_ISSUED'
        ? { methods: event.methods, challengeExpiresAt: event.at + context.challengeTtlMs }
        : {},
    ),
    countAttempt: assign(({ event }) =>
      event.type === 'CODE_SUBMITTED' ? { attempt: event.attempt } : {},
    ),
  },
}).createMachine({
  id: 'signInFlow',
  context: ({ input }) => ({
    ...defaultSignInFlowPolicy,
    ...input,
    failedStep: null,
    methods: [],
    challengeExpiresAt: null,
    attempt: 0,
  }),
  initial: 'password',
  states: {
    password: {
      on: { PASSWORD_SUBMITTED: 'checkingPassword' },
    },
    checkingPassword: {
      on: {
        ACCOUNT_LOCKED: 'locked',
        // An unknown address is counted exactly like a wrong password, so a lock reveals nothing.
        PASSWORD_CHECKED: [
          { guard: 'passwordRight', target: 'passwordAccepted' },
          { target: 'countingFailure', actions: 'failPassword' },
        ],
      },
    },
    passwordAccepted: {
      on: {
        CHALLENGE_ISSUED: { target: 'secondFactor', actions: 'issue' },
        NO_SECOND_FACTOR: 'signedIn',
      },
    },
    countingFailure: {
      on: {
        LOCK_DECIDED: [
          { guard: 'locks', target: 'locked' },
          { guard: 'failedPassword', target: 'refused' },
          // The challenge's last code was wrong: it ends; the user starts again.
          { guard: 'lastAttempt', target: 'expired' },
          { target: 'secondFactor', actions: 'clearFailure' },
        ],
      },
    },
    secondFactor: {
      on: {
        CODE_SUBMITTED: [
          { guard: 'challengeOver', target: 'expired' },
          { target: 'checkingCode', actions: 'countAttempt' },
        ],
      },
    },
    checkingCode: {
      on: {
        ACCOUNT_LOCKED: 'locked',
        CODE_CHECKED: [
          { guard: 'codeAccepted', target: 'signedIn' },
          { target: 'countingFailure', actions: 'failCode' },
        ],
      },
    },
    signedIn: { type: 'final' },
    refused: { type: 'final' },
    locked: { type: 'final' },
    expired: { type: 'final' },
  },
});

export type SignInFlowSnapshot = SnapshotFrom<typeof signInFlowMachine>;
/** What the API stores with a challenge: `actor.getPersistedSnapshot()`, plain JSON. */
export type PersistedSignInFlow = ReturnType<
  ReturnType<typeof createActor<typeof signInFlowMachine>>['getPersistedSnapshot']
>;

type SignInFlowActor = ReturnType<typeof createActor<typeof signInFlowMachine>>;

/**
 * One sign-in's flow, as the API runs it within a request: `send` answers whether the machine
 * took the event (an event it refuses changes nothing), `state()` is where it is.
 */
export class SignInFlow {
  private constructor(private readonly actor: SignInFlowActor) {}

  /** A new flow, at `password`. */
  static start(policy: Partial<SignInFlowPolicy> = {}): SignInFlow {
    return new SignInFlow(createActor(signInFlowMachine, { input: policy }).start());
  }

  /** The flow as it was stored with its challenge. */
  static resume(persisted: PersistedSignInFlow): SignInFlow {
    return new SignInFlow(
      createActor(signInFlowMachine, { snapshot: persisted, input: {} }).start(),
    );
  }

  /** A method, not a getter: it changes with every event sent. */
  state(): SignInFlowState {
    return this.actor.getSnapshot().value as SignInFlowState;
  }

  get context(): SignInFlowContext {
    return this.actor.getSnapshot().context;
  }

  /** Sends the event if the machine takes it; false (and nothing changes) if it refuses it. */
  send(event: SignInFlowEvent): boolean {
    if (!this.actor.getSnapshot().can(event)) return false;
    this.actor.send(event);
    return true;
  }

  /** Whether the challenge takes a code now (a passkey's options are only given then too). */
  takesCode(at: number): boolean {
    const { context } = this;
    return (
      this.state() === 'secondFactor' &&
      context.challengeExpiresAt !== null &&
      at < context.challengeExpiresAt
    );
  }

  persisted(): PersistedSignInFlow {
    return this.actor.getPersistedSnapshot();
  }
}

/** The state a stored flow is in. */
export function signInFlowStateOf(persisted: PersistedSignInFlow): SignInFlowState {
  return createActor(signInFlowMachine, { snapshot: persisted, input: {} }).getSnapshot()
    .value as SignInFlowState;
}
