import {
  createActor,
  fromPromise,
  waitFor,
  type DoneActorEvent,
  type ErrorActorEvent,
  type SnapshotFrom,
} from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { describe, expect, it } from 'vitest';
import type {
  AuthenticationEvent,
  Credentials,
  PasswordOutcome,
  SecondFactorMethod,
} from './events';
import { authenticationMachine, authenticationStates, selectSignInFlowState } from './machine';
import {
  SignInFlow,
  signInFlowStateOf,
  signInFlowStates,
  type SignInFlowEvent,
  type SignInFlowState,
} from './sign-in-flow';
import { replayPath } from '../testing/replay-path';

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
    { input: {} },
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

  it('names its states as the server\u2019s sign-in flow does, and shows where its copy of that flow is', async () => {
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
    // A refusal the copy cannot read (here a captcha to solve) moves it no further: the API's
    // flow had heard the password and nothing more.
    for (const [code, outcome] of [
      ['invalid-credentials', 'refused'],
      ['account-locked', 'locked'],
      ['captcha-required', 'checkingPassword'],
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
    for (const [code, outcome] of [
      ['mfa-challenge-expired', 'expired'],
      ['account-locked', 'locked'],
    ] as const) {
      const ended = start({
        password: challenge,
        code: () => {
          throw new Refusal(code);
        },
      });
      ended.actor.send({ type: 'SUBMIT_PASSWORD', credentials });
      await waitFor(ended.actor, (snapshot) => snapshot.matches('secondFactor'));
      ended.actor.send({ type: 'SUBMIT_CODE', code: '123456' });
      await waitFor(ended.actor, (snapshot) => snapshot.matches('password'));
      expect(selectSignInFlowState(ended.actor.getSnapshot())).toBe(outcome);
      // The next password is a new flow, as it is on the server.
      ended.actor.send({ type: 'SUBMIT_PASSWORD', credentials });
      expect(selectSignInFlowState(ended.actor.getSnapshot())).toBe('checkingPassword');
    }
  });
});

// The model: the modal machine as it is, its two API calls answered by the events xstate delivers
// when their promises settle, so the graph can choose every answer at every step.
type Answer =
  | DoneActorEvent<PasswordOutcome, 'submitPassword'>
  | ErrorActorEvent<unknown, 'submitPassword'>
  | DoneActorEvent<undefined, 'submitCode'>
  | ErrorActorEvent<unknown, 'submitCode'>;

const policy = { maxAttempts: 2, challengeTtlMs: 300_000 };

class PasskeyCancelled extends Error {}

const passwordAnswers: Answer[] = [
  {
    type: 'xstate.done.actor.submitPassword',
    actorId: 'submitPassword',
    output: { kind: 'signed-in' },
  },
  ...[
    ['totp', 'recovery'] as SecondFactorMethod[],
    ['totp', 'webauthn'] as SecondFactorMethod[],
  ].map((methods): Answer => ({
    type: 'xstate.done.actor.submitPassword',
    actorId: 'submitPassword',
    output: { kind: 'second-factor', challenge: 'challenge-1', methods },
  })),
  ...['invalid-credentials', 'account-locked', 'captcha-required'].map((code): Answer => ({
    type: 'xstate.error.actor.submitPassword',
    actorId: 'submitPassword',
    error: new Refusal(code),
  })),
];
const codeAnswers: Answer[] = [
  { type: 'xstate.done.actor.submitCode', actorId: 'submitCode', output: undefined },
  ...['invalid-mfa-code', 'account-locked', 'mfa-challenge-expired'].map((code): Answer => ({
    type: 'xstate.error.actor.submitCode',
    actorId: 'submitCode',
    error: new Refusal(code),
  })),
  // The browser's passkey dialog was closed: no request reached the API.
  {
    type: 'xstate.error.actor.submitCode',
    actorId: 'submitCode',
    error: new PasskeyCancelled('cancelled'),
  },
];

const isAnswer = (event: { type: string }): event is Answer =>
  event.type.startsWith('xstate.done.actor.') || event.type.startsWith('xstate.error.actor.');

const modelEvents = [
  { type: 'SUBMIT_PASSWORD', credentials },
  { type: 'SUBMIT_CODE', code: '123456' },
  { type: 'USE_PASSKEY' },
  ...(['totp', 'recovery', 'webauthn'] as const).map((method) => ({
    type: 'CHOOSE_METHOD' as const,
    method,
  })),
  { type: 'START_OVER' },
  // The graph walks the machine's own events; the answers are events the machine takes too.
  ...(passwordAnswers as readonly { type: string }[]),
  ...(codeAnswers as readonly { type: string }[]),
] as AuthenticationEvent[];

type ModalSnapshot = SnapshotFrom<typeof authenticationMachine>;

// A state is the step shown, where the copy of the flow is and on which attempt, and what the
// code step offers; the refusal shown follows from the last answer.
const serializeModal = (snapshot: ModalSnapshot) =>
  JSON.stringify([
    snapshot.value,
    signInFlowStateOf(snapshot.context.flow),
    SignInFlow.resume(snapshot.context.flow).context.attempt,
    snapshot.context.methods,
    snapshot.context.method,
  ]);

const modelPaths = () =>
  getShortestPaths(authenticationMachine, {
    events: modelEvents,
    input: { policy },
    serializeState: serializeModal,
  });

const refusalCode = (error: unknown) => (error instanceof Refusal ? error.code : null);

const issuedAt = 1_000_000;

/**
 * The API's side, written from its services (`modules/auth/service.ts`, `modules/mfa/service.ts`,
 * `modules/mfa/challenges.ts`): its own sign-in flow, moved by each way it has of giving an
 * answer. Every way must leave the flow in the same state, or the answer would not tell the
 * modal where the flow is.
 */
class Api {
  flow = SignInFlow.start(policy);
  /** The challenge's attempts, reserved in Redis before anything is looked at. */
  private attempts = 0;

  hear(event: AuthenticationEvent | Answer): void {
    if (event.type === 'SUBMIT_PASSWORD') {
      // Every password starts a flow, which hears of it before anything else is done.
      this.flow = SignInFlow.start(policy);
      this.flow.send({ type: 'PASSWORD_SUBMITTED' });
      this.attempts = 0;
    }
    if (isAnswer(event)) this.answer(event);
  }

  private answer(answer: Answer): void {
    const ways = this.waysTo(answer);
    const reached = ways.map((way) => {
      const flow = SignInFlow.resume(this.flow.persisted());
      for (const event of way) flow.send(event);
      return flow;
    });
    expect(new Set(reached.map((flow) => flow.state())).size).toBe(1);
    this.flow = reached[0]!;
  }

  private waysTo(answer: Answer): SignInFlowEvent[][] {
    const inTime = issuedAt + 1_000;
    const late = issuedAt + policy.challengeTtlMs;
    switch (answer.type) {
      case 'xstate.done.actor.submitPassword': {
        const checked: SignInFlowEvent = {
          type: 'PASSWORD_CHECKED',
          accountExists: true,
          matches: true,
        };
        return [
          answer.output.kind === 'second-factor'
            ? [checked, { type: 'CHALLENGE_ISSUED', methods: answer.output.methods, at: issuedAt }]
            : [checked, { type: 'NO_SECOND_FACTOR' }],
        ];
      }
      case 'xstate.error.actor.submitPassword':
        switch (refusalCode(answer.error)) {
          case 'invalid-credentials':
            return [true, false].map((accountExists) => [
              { type: 'PASSWORD_CHECKED', accountExists, matches: false },
              { type: 'LOCK_DECIDED', locked: false },
            ]);
          case 'account-locked':
            return [
              [{ type: 'ACCOUNT_LOCKED' }],
              ...[true, false].map((accountExists): SignInFlowEvent[] => [
                { type: 'PASSWORD_CHECKED', accountExists, matches: false },
                { type: 'LOCK_DECIDED', locked: true },
              ]),
            ];
          default:
            // A wait or a captcha refuses the attempt before the flow hears more.
            return [[]];
        }
      case 'xstate.done.actor.submitCode':
        return [
          [
            { type: 'CODE_SUBMITTED', attempt: ++this.attempts, at: inTime },
            { type: 'CODE_CHECKED', accepted: true },
          ],
        ];
      case 'xstate.error.actor.submitCode': {
        const code = refusalCode(answer.error);
        if (code === null) return [[]];
        const attempt = ++this.attempts;
        switch (code) {
          case 'invalid-mfa-code':
            return [
              [
                { type: 'CODE_SUBMITTED', attempt, at: inTime },
                { type: 'CODE_CHECKED', accepted: false },
                { type: 'LOCK_DECIDED', locked: false },
              ],
            ];
          case 'account-locked':
            return [
              [{ type: 'CODE_SUBMITTED', attempt, at: inTime }, { type: 'ACCOUNT_LOCKED' }],
              [
                { type: 'CODE_SUBMITTED', attempt, at: inTime },
                { type: 'CODE_CHECKED', accepted: false },
                { type: 'LOCK_DECIDED', locked: true },
              ],
            ];
          case 'mfa-challenge-expired':
            return [
              [{ type: 'CODE_SUBMITTED', attempt, at: late }],
              ...(attempt > policy.maxAttempts
                ? [[{ type: 'CODE_SUBMITTED' as const, attempt, at: inTime }]]
                : []),
            ];
          default:
            throw new Error(`no way to ${code}`);
        }
      }
    }
  }
}

/** The modal, its calls never answering: the path's own answers are sent instead. */
const heldModal = () =>
  createActor(
    authenticationMachine.provide({
      actors: {
        submitPassword: fromPromise<PasswordOutcome, Credentials>(() => new Promise(() => {})),
        submitCode: fromPromise<
          void,
          { challenge: string; code: string; method: SecondFactorMethod }
        >(() => new Promise(() => {})),
      },
    }),
    { input: { policy } },
  ).start();

/** The modal, its calls answering with the path's answers, in order, as the app's would. */
function scriptedModal(answers: Answer[]) {
  const next = () => {
    const answer = answers.shift();
    if (answer === undefined) return new Promise<never>(() => {});
    return 'error' in answer ? Promise.reject(answer.error) : Promise.resolve(answer.output);
  };
  return createActor(
    authenticationMachine.provide({
      actors: {
        submitPassword: fromPromise<PasswordOutcome, Credentials>(
          () => next() as Promise<PasswordOutcome>,
        ),
        submitCode: fromPromise<
          void,
          { challenge: string; code: string; method: SecondFactorMethod }
        >(async () => {
          await next();
        }),
      },
    }),
    { input: { policy } },
  ).start();
}

// States a flow passes through within one API request: the modal never sees them.
const withinARequest: SignInFlowState[] = ['passwordAccepted', 'countingFailure', 'checkingCode'];

describe('the authentication machine, model-based', () => {
  it('reaches every state, and its copy of the flow every state the modal can see', () => {
    const paths = modelPaths();
    expect(new Set(paths.map((path) => path.state.value))).toEqual(new Set(authenticationStates));
    expect(new Set(paths.map((path) => selectSignInFlowState(path.state)))).toEqual(
      new Set(signInFlowStates.filter((state) => !withinARequest.includes(state))),
    );
  });

  it('keeps, at every step of every path, its copy of the flow where the API\u2019s flow is', () => {
    for (const path of modelPaths()) {
      const modal = heldModal();
      const api = new Api();
      for (const step of path.steps) {
        replayPath(modal, [step]);
        api.hear(step.event);
        expect(selectSignInFlowState(modal.getSnapshot())).toBe(api.flow.state());
        expect(serializeModal(modal.getSnapshot())).toBe(serializeModal(step.state));
      }
    }
  });

  it('reaches the same states when its calls answer as the path does', async () => {
    for (const path of modelPaths()) {
      const events: { type: string }[] = path.steps.map((step) => step.event);
      const modal = scriptedModal(events.filter(isAnswer));
      for (const step of path.steps) {
        const event: { type: string } = step.event;
        if (event.type === 'xstate.init' || isAnswer(event)) {
          const expected = serializeModal(step.state);
          await waitFor(modal, (snapshot) => serializeModal(snapshot) === expected);
        } else {
          replayPath(modal, [step]);
        }
      }
      expect(serializeModal(modal.getSnapshot())).toBe(serializeModal(path.state));
    }
  });
});
