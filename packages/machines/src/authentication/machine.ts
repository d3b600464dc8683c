import { assign, fromPromise, setup } from 'xstate';
import type {
  AuthFailure,
  AuthenticationEvent,
  Credentials,
  PasswordOutcome,
  SecondFactorMethod,
} from './events';
import {
  signInFlowStateOf,
  type PersistedSignInFlow,
  type SignInFlowPolicy,
  type SignInFlowState,
} from './sign-in-flow';
import {
  mirrorSignIn,
  restartSignInMirror,
  startSignInMirror,
  type SignInMirrorFact,
} from './sign-in-mirror';

export interface AuthenticationContext {
  /** The challenge the password step returned, while the code step is open. */
  challenge: string | null;
  methods: SecondFactorMethod[];
  method: SecondFactorMethod;
  /** The last refusal, shown by the step it belongs to; cleared by the next attempt. */
  failure: AuthFailure | null;
  /**
   * The API's sign-in flow as the answers so far reveal it: the shared machine's persisted
   * snapshot, stepped with the events the API sent its own (`sign-in-mirror.ts`).
   */
  flow: PersistedSignInFlow;
}

export interface AuthenticationInput {
  /** The API's policy (the contract's `mfaChallengeLimits`): the copy ends challenges like it. */
  policy?: Partial<SignInFlowPolicy>;
}

const initialContext = (flow: PersistedSignInFlow): AuthenticationContext => ({
  challenge: null,
  methods: [],
  method: 'totp',
  failure: null,
  flow,
});

const mirror = (context: AuthenticationContext, fact: SignInMirrorFact) => ({
  flow: mirrorSignIn(context.flow, fact),
});

function asFailure(error: unknown): AuthFailure {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const { code, message } = error as { code: unknown; message?: unknown };
    return {
      code: typeof code === 'string' ? code : null,
      message: typeof message === 'string' ? message : '',
      cause: error,
    };
  }
  return {
    code: null,
    message: error instanceof Error ? error.message : String(error),
    cause: error,
  };
}

/** Refusals of the code step that end the challenge: back to the password. */
const challengeEndingCodes = new Set(['mfa-challenge-expired', 'account-locked']);

/**
 * Signing in (CJIS advanced authentication): the password, then, when the user has a second
 * factor, a code from the authenticator app, a recovery code or a passkey. The effects are provided by the
 * caller (`provide({ actors })`): the web app calls the API, a test answers as it likes.
 *
 * Its states are named after the sign-in flow machine's (`sign-in-flow.ts`), which the API runs,
 * and it runs that machine too, as a copy (`context.flow`): an answer tells what the API's flow
 * heard, so the copy takes the same events and reaches the same state, the outcomes (`refused`,
 * `locked`, `expired`) included; `selectSignInFlowState` reads it. This machine's own states are
 * the steps the modal shows, which outlive the flow's final states (a refusal leaves the
 * password step open for the next attempt, a new flow).
 *
 *   password → checkingPassword → signedIn
 *                               → secondFactor → checkingCode → signedIn   (a code or USE_PASSKEY)
 *                                                             → secondFactor (wrong code)
 *                                                             → password (challenge ended, locked)
 *                               → password (wrong password, locked: `failure` says which)
 */
export const authenticationMachine = setup({
  types: {
    context: {} as AuthenticationContext,
    events: {} as AuthenticationEvent,
    input: {} as AuthenticationInput,
  },
  actors: {
    submitPassword: fromPromise<PasswordOutcome, Credentials>(async () => {
      throw new Error('submitPassword is provided by the app');
    }),
    submitCode: fromPromise<void, { challenge: string; code: string; method: SecondFactorMethod }>(
      async () => {
        throw new Error('submitCode is provided by the app');
      },
    ),
  },
  guards: {
    needsSecondFactor: (_, outcome: PasswordOutcome) => outcome.kind === 'second-factor',
    endsChallenge: (_, failure: AuthFailure) =>
      failure.code !== null && challengeEndingCodes.has(failure.code),
    offersMethod: ({ context }, method: SecondFactorMethod) => context.methods.includes(method),
  },
}).createMachine({
  id: 'authentication',
  context: ({ input }) => initialContext(startSignInMirror(input.policy)),
  initial: 'password',
  states: {
    password: {
      on: {
        SUBMIT_PASSWORD: {
          target: 'checkingPassword',
          actions: assign(({ context }) => mirror(context, { type: 'passwordSubmitted' })),
        },
      },
    },
    checkingPassword: {
      entry: assign({ failure: null }),
      invoke: {
        // Named, so that the answers are the events `xstate.done.actor.submitPassword` and
        // `xstate.error.actor.submitPassword` (the model-based tests send them).
        id: 'submitPassword',
        src: 'submitPassword',
        input: ({ event }) => {
          if (event.type !== 'SUBMIT_PASSWORD') throw new Error(`unexpected ${event.type}`);
          return event.credentials;
        },
        onDone: [
          {
            guard: { type: 'needsSecondFactor', params: ({ event }) => event.output },
            target: 'secondFactor',
            actions: assign(({ context, event }) => ({
              ...mirror(context, { type: 'passwordAnswered', outcome: event.output }),
              ...(event.output.kind === 'second-factor'
                ? {
                    challenge: event.output.challenge,
                    methods: event.output.methods,
                    method: event.output.methods[0] ?? 'totp',
                  }
                : {}),
            })),
          },
          {
            target: 'signedIn',
            actions: assign(({ context, event }) =>
              mirror(context, { type: 'passwordAnswered', outcome: event.output }),
            ),
          },
        ],
        onError: {
          target: 'password',
          actions: assign(({ context, event }) => {
            const failure = asFailure(event.error);
            return { failure, ...mirror(context, { type: 'passwordRefused', code: failure.code }) };
          }),
        },
      },
    },
    secondFactor: {
      on: {
        SUBMIT_CODE: 'checkingCode',
        USE_PASSKEY: {
          guard: { type: 'offersMethod', params: 'webauthn' },
          target: 'checkingCode',
        },
        CHOOSE_METHOD: {
          guard: { type: 'offersMethod', params: ({ event }) => event.method },
          actions: assign({ method: ({ event }) => event.method, failure: null }),
        },
        START_OVER: {
          target: 'password',
          actions: assign(({ context }) => initialContext(restartSignInMirror(context.flow))),
        },
      },
    },
    checkingCode: {
      entry: assign({ failure: null }),
      invoke: {
        id: 'submitCode',
        src: 'submitCode',
        input: ({ context, event }) => {
          if (context.challenge === null) throw new Error(`unexpected ${event.type}`);
          // A passkey answers with no code; the code field keeps its own method meanwhile.
          if (event.type === 'USE_PASSKEY')
            return { challenge: context.challenge, code: '', method: 'webauthn' as const };
          if (event.type !== 'SUBMIT_CODE') throw new Error(`unexpected ${event.type}`);
          return { challenge: context.challenge, code: event.code, method: context.method };
        },
        onDone: {
          target: 'signedIn',
          actions: assign(({ context }) => ({
            challenge: null,
            ...mirror(context, { type: 'codeAccepted' }),
          })),
        },
        onError: [
          {
            guard: { type: 'endsChallenge', params: ({ event }) => asFailure(event.error) },
            target: 'password',
            actions: assign(({ context, event }) => {
              const failure = asFailure(event.error);
              // The flow keeps the outcome (`expired`, `locked`) until the next password.
              const { flow } = mirror(context, { type: 'codeRefused', code: failure.code });
              return { ...initialContext(flow), failure };
            }),
          },
          {
            target: 'secondFactor',
            actions: assign(({ context, event }) => {
              const failure = asFailure(event.error);
              return { failure, ...mirror(context, { type: 'codeRefused', code: failure.code }) };
            }),
          },
        ],
      },
    },
    signedIn: { type: 'final' },
  },
});

/** The web machine's states: each is the sign-in flow state of the same name. */
export const authenticationStates = [
  'password',
  'checkingPassword',
  'secondFactor',
  'checkingCode',
  'signedIn',
] as const satisfies readonly SignInFlowState[];

/**
 * The sign-in flow state the modal shows, in the names the API's sign-in service decides by:
 * where the copy of the API's flow is (`refused`, `locked` or `expired` once a flow has ended,
 * until the next password starts another).
 */
export function selectSignInFlowState(snapshot: {
  context: Pick<AuthenticationContext, 'flow'>;
}): SignInFlowState {
  return signInFlowStateOf(snapshot.context.flow);
}
