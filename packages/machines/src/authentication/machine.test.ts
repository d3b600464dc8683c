import { createActor, fromPromise, waitFor } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { Credentials, PasswordOutcome, SecondFactorMethod } from './events';
import { authenticationMachine, authenticationStates, selectSignInFlowState } from './machine';
import { signInFlowStates } from './sign-in-flow';

class Refusal extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

const credentials: Credentials = {
  email: 'dana@demo-county.test',
  password: 'right',
  staySignedIn: true,
};

/** Effects that answer as told and record what they were asked. */
function start(answers: {
  password: (credentials: Credentials) => PasswordOutcome;
  code?: (code: string, method: SecondFactorMethod) => void;
}) {
  const asked = {
    passwords: [] as Credentials[],
    codes: [] as string[],
    challenges: [] as string[],
  };
  const actor = createActor(
    authenticationMachine.provide({
      actors: {
        submitPassword: fromPromise(async ({ input }) => {
          asked.passwords.push(input);
          return answers.password(input);
        }),
        submitCode: fromPromise(async ({ input }) => {
          asked.codes.push(`${input.method}:${input.code}`);
          asked.challenges.push(input.challenge);
          answers.code?.(input.code, input.method);
        }),
      },
    }),
  ).start();
  return { actor, asked };
}

const challenge = (): PasswordOutcome => ({
  kind: 'second-factor',
  challenge: 'challenge-1',
  methods: ['totp', 'recovery'],
});

describe('the authentication machine', () => {
  it('signs in with the password alone when the user has no second factor', async () => {
    const { actor, asked } = start({ password: () => ({ kind: 'signed-in' }) });
    actor.send({ type: 'SUBMIT_PASSWORD', credentials });
    expect(actor.getSnapshot().value).toBe('checkingPassword');
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(actor.getSnapshot().value).toBe('signedIn');
    expect(asked.passwords).toEqual([credentials]);
  });

  it('stays on the password with the refusal when the password is wrong or the account locked', async () => {
    const { actor } = start({
      password: () => {
        throw new Refusal('invalid-credentials');
      },
    });
    actor.send({ type: 'SUBMIT_PASSWORD', credentials });
    await waitFor(actor, (snapshot) => snapshot.matches('password'));
    expect(actor.getSnapshot().context.failure).toMatchObject({
      code: 'invalid-credentials',
      message: 'invalid-credentials',
      cause: expect.any(Refusal),
    });
    // Codes mean nothing before a challenge.
    actor.send({ type: 'SUBMIT_CODE', code: '123456' });
    expect(actor.getSnapshot().value).toBe('password');
  });

  it('asks for a code after the password, refuses a wrong one and signs in with the right one', async () => {
    const { actor, asked } = start({
      password: challenge,
      code: (code) => {
        if (code !== '246810') throw new Refusal('invalid-mfa-code');
      },
    });
    actor.send({ type: 'SUBMIT_PASSWORD', credentials });
    await waitFor(actor, (snapshot) => snapshot.matches('secondFactor'));
    expect(actor.getSnapshot().context).toMatchObject({
      challenge: 'challenge-1',
      method: 'totp',
      failure: null,
    });

    actor.send({ type: 'SUBMIT_CODE', code: '000000' });
    expect(actor.getSnapshot().value).toBe('checkingCode');
    await waitFor(actor, (snapshot) => snapshot.matches('secondFactor'));
    expect(actor.getSnapshot().context.failure?.code).toBe('invalid-mfa-code');

    actor.send({ type: 'SUBMIT_CODE', code: '246810' });
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(asked.codes).toEqual(['totp:000000', 'totp:246810']);
    expect(asked.challenges).toEqual(['challenge-1', 'challenge-1']);
  });

  it('takes a recovery code instead when the user chooses it', async () => {
    const { actor, asked } = start({ password: challenge });
    actor.send({ type: 'SUBMIT_PASSWORD', credentials });
    await waitFor(actor, (snapshot) => snapshot.matches('secondFactor'));
    actor.send({ type: 'CHOOSE_METHOD', method: 'recovery' });
    actor.send({ type: 'SUBMIT_CODE', code: 'abcde-12345' });
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(asked.codes).toEqual(['recovery:abcde-12345']);
  });

  it('answers with a passkey when the challenge offers one, keeping the code field after a refusal', async () => {
    let refuse = true;
    const { actor, asked } = start({
      password: () => ({
        kind: 'second-factor',
        challenge: 'challenge-1',
        methods: ['totp', 'recovery', 'webauthn'],
      }),
      code: (_code, method) => {
        if (method === 'webauthn' && refuse) throw new Refusal('invalid-mfa-code');
      },
    });
    actor.send({ type: 'SUBMIT_PASSWORD', credentials });
    await waitFor(actor, (snapshot) => snapshot.matches('secondFactor'));
    actor.send({ type: 'USE_PASSKEY' });
    expect(actor.getSnapshot().value).toBe('checkingCode');
    await waitFor(actor, (snapshot) => snapshot.matches('secondFactor'));
    expect(actor.getSnapshot().context).toMatchObject({
      method: 'totp',
      failure: { code: 'invalid-mfa-code' },
    });
    refuse = false;
    actor.send({ type: 'USE_PASSKEY' });
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(asked.codes).toEqual(['webauthn:', 'webauthn:']);
  });

  it('offers no passkey when the challenge does not', async () => {
    const { actor, asked } = start({ password: challenge });
    actor.send({ type: 'SUBMIT_PASSWORD', credentials });
    await waitFor(actor, (snapshot) => snapshot.matches('secondFactor'));
    actor.send({ type: 'USE_PASSKEY' });
    expect(actor.getSnapshot().value).toBe('secondFactor');
    expect(asked.codes).toEqual([]);
  });

  it('goes back to the password when the challenge has ended or the account is locked', async () => {
    for (const code of ['mfa-challenge-expired', 'account-locked']) {
      const { actor } = start({
        password: challenge,
        code: () => {
          throw new Refusal(code);
        },
      });
      actor.send({ type: 'SUBMIT_PASSWORD', credentials });
      await waitFor(actor, (snapshot) => snapshot.matches('secondFactor'));
      actor.send({ type: 'SUBMIT_CODE', code: '123456' });
      await waitFor(actor, (snapshot) => snapshot.matches('password'));
      expect(actor.getSnapshot().context).toMatchObject({ challenge: null, failure: { code } });
    }
  });

  it('starts over from the code step on request', async () => {
    const { actor } = start({ password: challenge });
    actor.send({ type: 'SUBMIT_PASSWORD', credentials });
    await waitFor(actor, (snapshot) => snapshot.matches('secondFactor'));
    actor.send({ type: 'START_OVER' });
    expect(actor.getSnapshot().value).toBe('password');
    expect(actor.getSnapshot().context.challenge).toBeNull();
  });

  it('names its states, and the outcomes it shows, as the server\u2019s sign-in flow does', async () => {
    for (const state of authenticationStates) expect(signInFlowStates).toContain(state);
    expect(Object.keys(authenticationMachine.root.states).sort()).toEqual(
      [...authenticationStates].sort(),
    );
    const { actor } = start({ password: challenge });
    expect(selectSignInFlowState(actor.getSnapshot())).toBe('password');
    actor.send({ type: 'SUBMIT_PASSWORD', credentials });
    expect(selectSignInFlowState(actor.getSnapshot())).toBe('checkingPassword');
    await waitFor(actor, (snapshot) => snapshot.matches('secondFactor'));
    expect(selectSignInFlowState(actor.getSnapshot())).toBe('secondFactor');
    for (const [code, outcome] of [
      ['invalid-credentials', 'refused'],
      ['account-locked', 'locked'],
      ['mfa-challenge-expired', 'expired'],
      ['captcha-required', 'password'],
    ] as const) {
      const refused = start({
        password: () => {
          throw new Refusal(code);
        },
      });
      refused.actor.send({ type: 'SUBMIT_PASSWORD', credentials });
      await waitFor(refused.actor, (snapshot) => snapshot.context.failure !== null);
      expect(selectSignInFlowState(refused.actor.getSnapshot())).toBe(outcome);
    }
  });
});
