import { mfaChallengeLimits } from '@locus/contract';
import {
  authenticationMachine,
  selectSignInFlowState,
  signInFlowPolicyFrom,
  type Credentials,
  type SecondFactorMethod,
} from '@locus/machines/authentication';
import { useMachine } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { fromPromise } from 'xstate';
import { signIn, signInWithCode } from '../../app/auth';

const signInMachine = authenticationMachine.provide({
  actors: {
    submitPassword: fromPromise(({ input }: { input: Credentials }) => signIn(input)),
    submitCode: fromPromise(
      async ({
        input,
      }: {
        input: { challenge: string; code: string; method: SecondFactorMethod };
      }) => {
        if (input.method === 'webauthn') {
          // The WebAuthn library loads only now, not with the sign-in form.
          const { signInWithPasskey } = await import('../passkeys/ceremony');
          await signInWithPasskey(input.challenge);
        } else {
          await signInWithCode({ ...input, method: input.method });
        }
      },
    ),
  },
});

// The API's policy, so the modal's copy of its sign-in flow ends a challenge when the API's does.
const signInFlowPolicy = signInFlowPolicyFrom(mfaChallengeLimits);

/** The code step's view of the flow, while it is open. */
export interface SecondFactorFlow {
  method: SecondFactorMethod;
  methods: SecondFactorMethod[];
  isPending: boolean;
  /** What refused the last code (the API error), if it was refused. */
  error: unknown;
  submit(code: string): void;
  /** Answer with a passkey (when `methods` includes `webauthn`). */
  usePasskey(): void;
  chooseMethod(method: SecondFactorMethod): void;
  startOver(): void;
}

/**
 * The sign-in form's two steps, driven by the authentication machine. The password step keeps
 * the shape of a TanStack mutation (`mutate`, `isPending`, `isError`, `error`) so the form reads
 * as before; `secondFactor` is set while a code is asked for.
 */
export function useSignInFlow(onSignedIn: () => void) {
  const [snapshot, send] = useMachine(signInMachine, { input: { policy: signInFlowPolicy } });
  const signedIn = useRef(onSignedIn);
  signedIn.current = onSignedIn;
  const done = snapshot.status === 'done';
  useEffect(() => {
    if (done) signedIn.current();
  }, [done]);

  const { failure, method, methods } = snapshot.context;
  const onPasswordStep = snapshot.matches('password') || snapshot.matches('checkingPassword');
  const codeStep = snapshot.matches('secondFactor') || snapshot.matches('checkingCode');
  const secondFactor: SecondFactorFlow | null = codeStep
    ? {
        method,
        methods,
        isPending: snapshot.matches('checkingCode'),
        error: failure?.cause ?? null,
        submit: (code) => send({ type: 'SUBMIT_CODE', code }),
        usePasskey: () => send({ type: 'USE_PASSKEY' }),
        chooseMethod: (next) => send({ type: 'CHOOSE_METHOD', method: next }),
        startOver: () => send({ type: 'START_OVER' }),
      }
    : null;
  return {
    mutate: (credentials: Credentials) => send({ type: 'SUBMIT_PASSWORD', credentials }),
    isPending: snapshot.matches('checkingPassword') || done,
    isError: onPasswordStep && failure !== null,
    error: onPasswordStep ? (failure?.cause ?? null) : null,
    secondFactor,
    /**
     * Where the API's sign-in flow is, as the modal's copy of it has followed the answers
     * (`locked`, …): the names the API's sign-in service decides by. It moves only on answers:
     * while a code is checked it still reads `secondFactor`, and after a refusal it cannot read
     * (a captcha, a wait) it stays at `checkingPassword`, where the API's discarded flow was.
     */
    flowState: selectSignInFlowState(snapshot),
  };
}
