/**
 * What may happen to a case transfer. `by` is the user who asks; `at` is when (ms since the
 * epoch, the server's clock), so the machine itself decides whether an offer has expired and
 * stays pure (no timers, no I/O): the API and the UI feed it the same events.
 */
export type CaseTransferEvent =
  | { type: 'ACCEPT'; by: string; at: number }
  | { type: 'DENY'; by: string; at: number }
  | { type: 'CANCEL'; by: string; at: number }
  | { type: 'EXPIRE'; at: number };

export interface CaseTransferInput {
  fromUserId: string;
  toUserId: string;
  /** When the offer was made (ms since the epoch). */
  offeredAt: number;
  /** How long the offer stands (the contract's `caseTransferOfferTtlMs`). */
  ttlMs: number;
}
