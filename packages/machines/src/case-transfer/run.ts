import { createActor, type SnapshotFrom } from 'xstate';
import type { CaseTransferEvent, CaseTransferInput } from './events';
import { caseTransferMachine, type CaseTransferState } from './machine';

export type CaseTransferSnapshot = SnapshotFrom<typeof caseTransferMachine>;
/** What is stored: `actor.getPersistedSnapshot()`, plain JSON. */
export type PersistedCaseTransfer = ReturnType<
  ReturnType<typeof createActor<typeof caseTransferMachine>>['getPersistedSnapshot']
>;

/** A new offer's persisted snapshot. */
export function offerCaseTransfer(input: CaseTransferInput): PersistedCaseTransfer {
  const actor = createActor(caseTransferMachine, { input }).start();
  const persisted = actor.getPersistedSnapshot();
  actor.stop();
  return persisted;
}

export type CaseTransferStep =
  | {
      taken: true;
      state: CaseTransferState;
      decidedAt: number | null;
      persisted: PersistedCaseTransfer;
    }
  | { taken: false; state: CaseTransferState };

/**
 * Runs one event on a persisted transfer. `taken: false` when the machine refused it (an illegal
 * transition: the caller answers 409 and stores nothing). Note that an ACCEPT, DENY or CANCEL that
 * arrives after the offer's time is taken, as an expiry: check `state`.
 */
export function stepCaseTransfer(
  persisted: PersistedCaseTransfer,
  event: CaseTransferEvent,
): CaseTransferStep {
  const actor = createActor(caseTransferMachine, {
    snapshot: persisted,
    // The input is only read for a fresh actor; the snapshot's context wins.
    input: { fromUserId: '', toUserId: '', offeredAt: 0, ttlMs: 0 },
  }).start();
  const before = actor.getSnapshot();
  const taken = before.can(event);
  if (taken) actor.send(event);
  const after = actor.getSnapshot();
  const state = after.value as CaseTransferState;
  const result: CaseTransferStep = taken
    ? {
        taken: true,
        state,
        decidedAt: after.context.decidedAt,
        persisted: actor.getPersistedSnapshot(),
      }
    : { taken: false, state };
  actor.stop();
  return result;
}

/** The state a persisted snapshot is in. */
export function caseTransferStateOf(persisted: PersistedCaseTransfer): CaseTransferState {
  const actor = createActor(caseTransferMachine, {
    snapshot: persisted,
    input: { fromUserId: '', toUserId: '', offeredAt: 0, ttlMs: 0 },
  });
  return actor.getSnapshot().value as CaseTransferState;
}
