import type { ActiveSession, CaseTransfer } from '@locus/contract';
import { offerCaseTransfer, stepCaseTransfer, type CaseTransferState } from '@locus/machines';
import { useSyncExternalStore } from 'react';

/**
 * The case transfers this tab knows about (offered to this user, or offered by them), fed by the
 * console socket's `case-transfer` frames and, while the socket is down, by polling
 * `transfer-offers`. The dashboard's offer and the prompt shown everywhere read it.
 */
interface TransferStoreState {
  transfers: Record<string, CaseTransfer>;
  /** Whether the console socket is open: polling takes over while it is not. */
  socketOpen: boolean;
  /** A session this user accepted, waiting for the dashboard to open it. */
  acceptedSession: ActiveSession | null;
}

let state: TransferStoreState = { transfers: {}, socketOpen: false, acceptedSession: null };
const listeners = new Set<() => void>();

function set(change: Partial<TransferStoreState>): void {
  state = { ...state, ...change };
  for (const listener of listeners) listener();
}

export const transferStore = {
  get: (): TransferStoreState => state,
  subscribe: (listener: () => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** A transfer's newest news. A decided transfer never goes back to `offered`. */
  put: (transfer: CaseTransfer): void => {
    const known = state.transfers[transfer.transferUuid];
    if (known && known.status !== 'offered' && transfer.status === 'offered') return;
    set({ transfers: { ...state.transfers, [transfer.transferUuid]: transfer } });
  },
  forget: (transferUuid: string): void => {
    const { [transferUuid]: _gone, ...rest } = state.transfers;
    set({ transfers: rest });
  },
  setSocketOpen: (socketOpen: boolean): void => {
    if (socketOpen !== state.socketOpen) set({ socketOpen });
  },
  setAcceptedSession: (acceptedSession: ActiveSession | null): void => {
    set({ acceptedSession });
  },
  /** Signing out: nothing of this user's stays for the next. */
  clear: (): void => {
    set({ transfers: {}, socketOpen: false, acceptedSession: null });
  },
};

export function useTransferStore<T>(select: (state: TransferStoreState) => T): T {
  return useSyncExternalStore(transferStore.subscribe, () => select(transferStore.get()));
}

/**
 * A transfer's state as the case-transfer machine (packages/machines) decides it from what the
 * server said and the clock: the server's status is replayed into the machine as its event, and
 * an offer still `offered` once its time is up is expired here too (the server's own `expired`
 * may be a moment behind), so the prompt never offers an Accept that would be refused.
 */
export function transferStateOf(transfer: CaseTransfer, now: number): CaseTransferState {
  const offeredAt = Date.parse(transfer.offeredAt);
  const expiresAt = Date.parse(transfer.expiresAt);
  const persisted = offerCaseTransfer({
    fromUserId: transfer.from.id,
    toUserId: transfer.to.id,
    offeredAt,
    ttlMs: expiresAt - offeredAt,
  });
  const at = transfer.decidedAt ? Date.parse(transfer.decidedAt) : now;
  const event =
    transfer.status === 'accepted'
      ? ({ type: 'ACCEPT', by: transfer.to.id, at } as const)
      : transfer.status === 'denied'
        ? ({ type: 'DENY', by: transfer.to.id, at } as const)
        : transfer.status === 'cancelled'
          ? ({ type: 'CANCEL', by: transfer.from.id, at } as const)
          : transfer.status === 'expired'
            ? ({ type: 'EXPIRE', at: Math.max(at, expiresAt) } as const)
            : ({ type: 'EXPIRE', at: now } as const);
  const step = stepCaseTransfer(persisted, event);
  // The server is the authority: a decision it made stands even if this clock disagrees.
  if (!step.taken && transfer.status !== 'offered') return transfer.status;
  return step.state;
}

/** Seconds left to answer an offer (never below 0). */
export function secondsLeft(transfer: CaseTransfer, now: number): number {
  return Math.max(0, Math.ceil((Date.parse(transfer.expiresAt) - now) / 1000));
}
