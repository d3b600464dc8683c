import { assign, fromPromise, setup } from 'xstate';
import type {
  AuthFailure,
  AuthenticationEvent,
  Credentials,
  PasswordOutcome,
  SecondFactorMethod,
} from './events';
import type { SignInFlowState } from './sign-in-flow';

export interface AuthenticationContext {
  /** The challenge the password step returned, while the code step is open. */
  challenge: string | null;
  methods: SecondFactorMethod[];
  method: SecondFactorMethod;
  /** The last refusal, shown by the step it belongs to; cleared by the next attempt. */
  failure: AuthFailure | null;
}

const initialContext = (): AuthenticationContext => ({
  challenge: null,
  methods: [],
  method: 'totp',
  failure: null,
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
 * Its states are named after the sign-in flow machine's (`sign-in-flow.ts`), which the API runs:
 * while a request is in flight the browser is `checkingPassword` or `checkingCode`, as the
 * server is; the outcomes the server reaches (`refused`, `locked`, `expired`) come back as a
 * refusal, and `selectSignInFlowState` names them from it.
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
  context: initialContext,
  initial: 'password',
  states: {
    password: {
      on: {
        SUBMIT_PASSWORD: 'checkingPassword',
      },
    },
    checkingPassword: {
      entry: assign({ failure: null }),
      invoke: {
        src: 'submitPassword',
        input: ({ event }) => {
          if (event.type !== 'SUBMIT_PASSWORD') throw new Error(`unexpected ${event.type}`);
          return event.credentials;
        },
        onDone: [
          {
            guard: { type: 'needsSecondFactor', params: ({ event }) => event.output },
            target: 'secondFactor',
            actions: assign(({ event }) =>
              event.output.kind === 'second-factor'
                ? {
                    challenge: event.output.challenge,
                    methods: event.output.methods,
                    method: event.output.methods[0] ?? 'totp',
                  }
                : {},
            ),
          },
          { target: 'signedIn' },
        ],
        onError: {
          target: 'password',
          actions: assign({ failure: ({ event }) => asFailure(event.error) }),
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
        START_OVER: { target: 'password', actions: assign(initialContext) },
      },
    },
    checkingCode: {
      entry: assign({ failure: null }),
      invoke: {
        src: 'submitCode',
        input: ({ context, event }) => {
          if (context.challenge === null) throw new Error(`unexpected ${event.type}`);
          // A passkey answers with no code; the code field keeps its own method meanwhile.
          if (event.type === 'USE_PASSKEY')
            return { challenge: context.challenge, code: '', method: 'webauthn' as const };
          if (event.type !== 'SUBMIT_CODE') throw new Error(`unexpected ${event.type}`);
          return { challenge: context.challenge, code: event.code, method: context.method };
        },
        onDone: { target: 'signedIn', actions: assign({ challenge: null }) },
        onError: [
          {
            guard: { type: 'endsChallenge', params: ({ event }) => asFailure(event.error) },
            target: 'password',
            actions: assign(({ event }) => ({
              ...initialContext(),
              failure: asFailure(event.error),
            })),
          },
          {
            target: 'secondFactor',
            actions: assign({ failure: ({ event }) => asFailure(event.error) }),
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

/** The outcome each refusal the API answers with stands for, in the flow's names. */
const outcomeOfRefusal: Record<string, SignInFlowState> = {
  'invalid-credentials': 'refused',
  'account-locked': 'locked',
  'mfa-challenge-expired': 'expired',
};

/**
 * The sign-in flow state the modal shows, in the names the API's sign-in service decides by:
 * the machine's own state, or, back at the password after a refusal, the outcome the refusal
 * names (`refused`, `locked`, `expired`).
 */
export function selectSignInFlowState(snapshot: {
  value: unknown;
  context: Pick<AuthenticationContext, 'failure'>;
}): SignInFlowState {
  const state = snapshot.value as (typeof authenticationStates)[number];
  if (state !== 'password') return state;
  const code = snapshot.context.failure?.code;
  return (code !== null && code !== undefined && outcomeOfRefusal[code]) || 'password';
}
