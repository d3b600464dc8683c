import { assign, setup } from 'xstate';
import type { CaseTransferEvent, CaseTransferInput } from './events';

export interface CaseTransferContext {
  fromUserId: string;
  toUserId: string;
  offeredAt: number;
  expiresAt: number;
  /** When it left `offered`; null while offered. */
  decidedAt: number | null;
}

/** The machine's final states are the contract's `CaseTransferStatus` values but `offered`. */
export type CaseTransferState = 'offered' | 'accepted' | 'denied' | 'cancelled' | 'expired';

/**
 * A case transfer (SPEC.md §4): offered → accepted / denied / cancelled / expired. The single
 * authority on a transfer's state: the API loads the persisted snapshot, sends the event, and
 * refuses (409) an event the machine does not take. Only the colleague the offer names may accept
 * or deny it, only the dispatcher who offered it may cancel it, and nobody may accept, deny or
 * cancel it once its time is up: an event that arrives at or after `expiresAt` expires it instead.
 */
/**
 * One person's answer (accept, deny, cancel): an expiry once the time is up, else `target` when
 * `who` in the context is the person asking. Anyone else's answer is not taken.
 */
function answer(who: 'fromUserId' | 'toUserId', target: 'accepted' | 'denied' | 'cancelled') {
  return [
    { guard: 'timeUp', target: 'expired', actions: 'decideAtExpiry' },
    {
      guard: ({ context, event }: { context: CaseTransferContext; event: CaseTransferEvent }) =>
        event.at < context.expiresAt && 'by' in event && event.by === context[who],
      target,
      actions: 'decide',
    },
  ] as const;
}

export const caseTransferMachine = setup({
  types: {
    context: {} as CaseTransferContext,
    events: {} as CaseTransferEvent,
    input: {} as CaseTransferInput,
  },
  guards: {
    timeUp: ({ context, event }) => event.at >= context.expiresAt,
  },
  actions: {
    decide: assign({ decidedAt: ({ event }) => event.at }),
    decideAtExpiry: assign({ decidedAt: ({ context }) => context.expiresAt }),
  },
}).createMachine({
  id: 'caseTransfer',
  context: ({ input }) => ({
    fromUserId: input.fromUserId,
    toUserId: input.toUserId,
    offeredAt: input.offeredAt,
    expiresAt: input.offeredAt + input.ttlMs,
    decidedAt: null,
  }),
  initial: 'offered',
  states: {
    offered: {
      on: {
        // A late answer expires the offer: the case stays with the dispatcher who offered it.
        ACCEPT: answer('toUserId', 'accepted'),
        DENY: answer('toUserId', 'denied'),
        CANCEL: answer('fromUserId', 'cancelled'),
        EXPIRE: { guard: 'timeUp', target: 'expired', actions: 'decideAtExpiry' },
      },
    },
    accepted: { type: 'final' },
    denied: { type: 'final' },
    cancelled: { type: 'final' },
    expired: { type: 'final' },
  },
});
