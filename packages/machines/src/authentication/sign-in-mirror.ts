import type { PasswordOutcome } from './events';
import {
  SignInFlow,
  type PersistedSignInFlow,
  type SignInFlowEvent,
  type SignInFlowPolicy,
} from './sign-in-flow';

/**
 * What the sign-in modal learns of a sign-in, in the order it learns it: what it sent, and how
 * the API answered (a refusal by its error code, null when the answer carried none).
 */
export type SignInMirrorFact =
  | { type: 'passwordSubmitted' }
  | { type: 'passwordAnswered'; outcome: PasswordOutcome }
  | { type: 'passwordRefused'; code: string | null }
  | { type: 'codeAccepted' }
  | { type: 'codeRefused'; code: string | null };

/**
 * The modal has no server clock, so the mirror's time starts at the challenge: a code the API
 * looked at was in time, and one it found too late (`mfa-challenge-expired`) came when the
 * challenge ended. Only the answer decides which, never the browser's clock.
 */
const challengeIssuedAt = 0;

/** A flow that has heard nothing yet, at `password`. */
export function startSignInMirror(policy: Partial<SignInFlowPolicy> = {}): PersistedSignInFlow {
  return SignInFlow.start(policy).persisted();
}

/**
 * A fresh flow with the same policy: the flow's outcomes are final, as they are for the API,
 * whose every password starts a new flow.
 */
export function restartSignInMirror(mirrored: PersistedSignInFlow): PersistedSignInFlow {
  const { maxAttempts, challengeTtlMs } = SignInFlow.resume(mirrored).context;
  return startSignInMirror({ maxAttempts, challengeTtlMs });
}

/**
 * The events the API sent its own flow to give this answer. Where several ways lead to the
 * same answer (an unknown address or a wrong password; a lock found before the check or caused
 * by it), the machine takes them to the same state, so one of them stands for all. A refusal
 * the mirror cannot read (a wait, a captcha, a failed request) stands for no event: the flow
 * stays where the machine has it rather than in a guessed state.
 */
export function signInEventsRevealedBy(
  flow: SignInFlow,
  fact: SignInMirrorFact,
): SignInFlowEvent[] {
  const { attempt, challengeExpiresAt } = flow.context;
  // Only answers the flow heard are counted: a refusal the mirror cannot read may or may not
  // have used an attempt; if it did, the API ends the challenge a code sooner and says so.
  const next = attempt + 1;
  switch (fact.type) {
    case 'passwordSubmitted':
      return [{ type: 'PASSWORD_SUBMITTED' }];
    case 'passwordAnswered':
      return [
        { type: 'PASSWORD_CHECKED', accountExists: true, matches: true },
        fact.outcome.kind === 'second-factor'
          ? { type: 'CHALLENGE_ISSUED', methods: fact.outcome.methods, at: challengeIssuedAt }
          : { type: 'NO_SECOND_FACTOR' },
      ];
    case 'passwordRefused':
      switch (fact.code) {
        case 'invalid-credentials':
          return [
            { type: 'PASSWORD_CHECKED', accountExists: true, matches: false },
            { type: 'LOCK_DECIDED', locked: false },
          ];
        case 'account-locked':
          return [{ type: 'ACCOUNT_LOCKED' }];
        default:
          return [];
      }
    case 'codeAccepted':
      return [
        { type: 'CODE_SUBMITTED', attempt: next, at: challengeIssuedAt },
        { type: 'CODE_CHECKED', accepted: true },
      ];
    case 'codeRefused':
      switch (fact.code) {
        case 'invalid-mfa-code':
          // On the challenge's last attempt the machine ends it here, as the API's does.
          return [
            { type: 'CODE_SUBMITTED', attempt: next, at: challengeIssuedAt },
            { type: 'CODE_CHECKED', accepted: false },
            { type: 'LOCK_DECIDED', locked: false },
          ];
        case 'account-locked':
          return [
            { type: 'CODE_SUBMITTED', attempt: next, at: challengeIssuedAt },
            { type: 'ACCOUNT_LOCKED' },
          ];
        case 'mfa-challenge-expired':
          return [
            {
              type: 'CODE_SUBMITTED',
              attempt: next,
              at: challengeExpiresAt ?? challengeIssuedAt,
            },
          ];
        default:
          return [];
      }
  }
}

/**
 * The modal's copy of the API's sign-in flow, one fact on: the same machine, sent the events the
 * API sent it (`signInEventsRevealedBy`). A password starts a new flow, as it does on the server;
 * an event the machine refuses (a final flow takes none) changes nothing, as `SignInFlow.send`.
 */
export function mirrorSignIn(
  mirrored: PersistedSignInFlow,
  fact: SignInMirrorFact,
): PersistedSignInFlow {
  const flow = SignInFlow.resume(
    fact.type === 'passwordSubmitted' ? restartSignInMirror(mirrored) : mirrored,
  );
  for (const event of signInEventsRevealedBy(flow, fact)) flow.send(event);
  return flow.persisted();
}
