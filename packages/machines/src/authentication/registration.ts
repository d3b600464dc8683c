import { assign, createActor, setup } from 'xstate';

/**
 * A user's registration (SPEC.md §4 "Sign up"), in the names the API and the web's sign-up flow
 * share:
 *
 * - `identity`: the Create Account form, before the account exists.
 * - `coastGuardUnit`: a coast-guard address; the unit's name is asked for (/register/complete-uscg).
 * - `agencyProfile`: any other address; the agency (listed, or named when unlisted) is asked for.
 * - `awaitingApproval`: a coast-guard user waits for a coast-guard team admin.
 * - `rejected`: the admin declined; naming the unit again asks again.
 * - `complete`.
 */
export const registrationStates = [
  'identity',
  'coastGuardUnit',
  'agencyProfile',
  'awaitingApproval',
  'rejected',
  'complete',
] as const;
export type RegistrationState = (typeof registrationStates)[number];

export type UscgApproval = 'pending' | 'approved' | 'rejected';

export interface RegistrationContext {
  coastGuard: boolean;
  uscgApproval: UscgApproval | null;
}

export type RegistrationEvent =
  /** The account was created; `coastGuard`: its address is a coast-guard one. */
  | { type: 'IDENTITY_SUBMITTED'; coastGuard: boolean }
  /** A listed agency was chosen, or an unlisted one named. */
  | { type: 'AGENCY_CHOSEN' }
  | { type: 'UNIT_SUBMITTED' }
  | { type: 'APPROVED' }
  | { type: 'REJECTED' };

/**
 * Registration steps. A coast-guard address skips the agency and names its unit instead, then
 * waits for approval; naming the unit again after a rejection asks again, and an approval is
 * kept when an approved user names it again. An address that is not the coast guard's cannot
 * take the coast-guard path (the API answers 403), nor a coast-guard one the agency's.
 */
export const registrationMachine = setup({
  types: {
    context: {} as RegistrationContext,
    events: {} as RegistrationEvent,
  },
  guards: {
    coastGuard: ({ context, event }) =>
      event.type === 'IDENTITY_SUBMITTED' ? event.coastGuard : context.coastGuard,
    approved: ({ context }) => context.uscgApproval === 'approved',
  },
  actions: {
    identify: assign(({ event }) =>
      event.type === 'IDENTITY_SUBMITTED' ? { coastGuard: event.coastGuard } : {},
    ),
    ask: assign({ uscgApproval: 'pending' as const }),
    approve: assign({ uscgApproval: 'approved' as const }),
    reject: assign({ uscgApproval: 'rejected' as const }),
  },
}).createMachine({
  id: 'registration',
  context: { coastGuard: false, uscgApproval: null },
  initial: 'identity',
  states: {
    identity: {
      on: {
        IDENTITY_SUBMITTED: [
          { guard: 'coastGuard', target: 'coastGuardUnit', actions: 'identify' },
          { target: 'agencyProfile', actions: 'identify' },
        ],
      },
    },
    coastGuardUnit: {
      on: { UNIT_SUBMITTED: { target: 'awaitingApproval', actions: 'ask' } },
    },
    agencyProfile: {
      on: { AGENCY_CHOSEN: 'complete' },
    },
    awaitingApproval: {
      on: {
        UNIT_SUBMITTED: { target: 'awaitingApproval', actions: 'ask' },
        APPROVED: { target: 'complete', actions: 'approve' },
        REJECTED: { target: 'rejected', actions: 'reject' },
      },
    },
    rejected: {
      on: { UNIT_SUBMITTED: { target: 'awaitingApproval', actions: 'ask' } },
    },
    complete: {
      on: {
        // The profile may be given again (another agency); the path stays the same.
        AGENCY_CHOSEN: { guard: ({ context }) => !context.coastGuard },
        UNIT_SUBMITTED: [
          { guard: 'approved', target: 'complete' },
          // A coast-guard user put on a team without asking (by a team admin) asks now.
          { guard: 'coastGuard', target: 'awaitingApproval', actions: 'ask' },
        ],
      },
    },
  },
});

/** What is stored about a user's registration (the users row), as the machine needs it. */
export interface RegistrationFacts {
  /** The address is a coast-guard one under the current settings. */
  coastGuard: boolean;
  registrationCompleted: boolean;
  uscgApproval: UscgApproval | null;
}

/** The state a stored user's registration is in. */
export function registrationStateFor(facts: RegistrationFacts): RegistrationState {
  if (facts.coastGuard) {
    if (facts.uscgApproval === 'approved') return 'complete';
    if (facts.uscgApproval === 'pending') return 'awaitingApproval';
    if (facts.uscgApproval === 'rejected') return 'rejected';
    return facts.registrationCompleted ? 'complete' : 'coastGuardUnit';
  }
  return facts.registrationCompleted ? 'complete' : 'agencyProfile';
}

/**
 * Runs one event on a stored user's registration (rebuilt from the facts, as the lockout is):
 * `taken: false` when the machine refuses it.
 */
export function stepRegistration(
  facts: RegistrationFacts | null,
  event: RegistrationEvent,
): { taken: boolean; state: RegistrationState; context: RegistrationContext } {
  const snapshot =
    facts === null
      ? undefined
      : registrationMachine.resolveState({
          value: registrationStateFor(facts),
          context: { coastGuard: facts.coastGuard, uscgApproval: facts.uscgApproval },
        });
  const actor = createActor(registrationMachine, snapshot ? { snapshot } : {}).start();
  const taken = actor.getSnapshot().can(event);
  if (taken) actor.send(event);
  const after = actor.getSnapshot();
  actor.stop();
  return { taken, state: after.value as RegistrationState, context: after.context };
}
