import { createActor, type SnapshotFrom } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { describe, expect, it } from 'vitest';
import {
  registrationMachine,
  registrationStateFor,
  registrationStates,
  stepRegistration,
  type RegistrationEvent,
} from './registration';
import { replayPath } from '../testing/replay-path';

const events: RegistrationEvent[] = [
  { type: 'IDENTITY_SUBMITTED', coastGuard: true },
  { type: 'IDENTITY_SUBMITTED', coastGuard: false },
  { type: 'AGENCY_CHOSEN' },
  { type: 'UNIT_SUBMITTED' },
  { type: 'APPROVED' },
  { type: 'REJECTED' },
];

const serializeState = (state: SnapshotFrom<typeof registrationMachine>) =>
  JSON.stringify([state.value, state.context]);
const paths = () => getShortestPaths(registrationMachine, { events, serializeState });

describe('the registration machine', () => {
  it('reaches every state by real event sequences, and the graph is the machine', () => {
    const all = paths();
    expect(new Set(all.map((path) => path.state.value))).toEqual(new Set(registrationStates));
    for (const path of all) {
      const actor = createActor(registrationMachine).start();
      replayPath(actor, path.steps);
      expect(serializeState(actor.getSnapshot())).toBe(serializeState(path.state));
    }
  });

  it('is rebuilt from what is stored about every reachable state, and then takes the same events', () => {
    for (const path of paths()) {
      const { value, context } = path.state;
      if (value === 'identity') continue;
      const facts = {
        coastGuard: context.coastGuard,
        registrationCompleted: value !== 'coastGuardUnit' && value !== 'agencyProfile',
        uscgApproval: context.uscgApproval,
      };
      expect(registrationStateFor(facts)).toBe(value);
      const actor = createActor(registrationMachine).start();
      for (const step of path.steps) actor.send(step.event);
      // Either taken or refused, and the same whether the state was lived or rebuilt.
      for (const event of events)
        expect(stepRegistration(facts, event).taken).toBe(actor.getSnapshot().can(event));
    }
  });

  it('sends a coast-guard address to its unit and the approval, any other to the agency', () => {
    expect(stepRegistration(null, { type: 'IDENTITY_SUBMITTED', coastGuard: true }).state).toBe(
      'coastGuardUnit',
    );
    expect(stepRegistration(null, { type: 'IDENTITY_SUBMITTED', coastGuard: false }).state).toBe(
      'agencyProfile',
    );
    const civilian = { coastGuard: false, registrationCompleted: false, uscgApproval: null };
    expect(stepRegistration(civilian, { type: 'UNIT_SUBMITTED' }).taken).toBe(false);
    expect(stepRegistration(civilian, { type: 'AGENCY_CHOSEN' }).state).toBe('complete');
    const guard = { coastGuard: true, registrationCompleted: false, uscgApproval: null };
    expect(stepRegistration(guard, { type: 'AGENCY_CHOSEN' }).taken).toBe(false);
    expect(stepRegistration(guard, { type: 'UNIT_SUBMITTED' })).toMatchObject({
      state: 'awaitingApproval',
      context: { uscgApproval: 'pending' },
    });
  });

  it('asks again after a rejection, and keeps an approval when the unit is named again', () => {
    const rejected = {
      coastGuard: true,
      registrationCompleted: true,
      uscgApproval: 'rejected' as const,
    };
    expect(stepRegistration(rejected, { type: 'UNIT_SUBMITTED' }).state).toBe('awaitingApproval');
    const approved = {
      coastGuard: true,
      registrationCompleted: true,
      uscgApproval: 'approved' as const,
    };
    expect(stepRegistration(approved, { type: 'UNIT_SUBMITTED' })).toMatchObject({
      taken: true,
      state: 'complete',
      context: { uscgApproval: 'approved' },
    });
    // Put on a team by its admin without asking: naming the unit asks now.
    const added = { coastGuard: true, registrationCompleted: true, uscgApproval: null };
    expect(stepRegistration(added, { type: 'UNIT_SUBMITTED' }).state).toBe('awaitingApproval');
  });
});
