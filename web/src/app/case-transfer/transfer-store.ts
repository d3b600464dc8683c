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
  /**
   * This tab's dashboard is on a case (true) or free for one (false); null while no dashboard
   * is mounted (the prompt then asks the server for an active session).
   */
  busy: boolean | null;
}

const initial: TransferStoreState = {
  transfers: {},
  socketOpen: false,
  acceptedSession: null,
  busy: null,
};
let state: TransferStoreState = initial;
/**
 * When this tab first heard of each offer, by its own clock: the countdown runs from here for
 * the offer's length, so a browser clock set wrong neither hides an offer nor shows one the
 * server has expired. Not state: it never changes what is shown by itself.
 */
let receivedAt: Record<string, number> = {};
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
    receivedAt[transfer.transferUuid] ??= Date.now();
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
  setBusy: (busy: boolean | null): void => {
    if (busy !== state.busy) set({ busy });
  },
  /** Signing out: nothing of this user's stays for the next. */
  clear: (): void => {
    receivedAt = {};
    set({ ...initial, busy: state.busy });
  },
};

export function useTransferStore<T>(select: (state: TransferStoreState) => T): T {
  return useSyncExternalStore(transferStore.subscribe, () => select(transferStore.get()));
}

/** The offer's length (the server's expiresAt − offeredAt), and when this tab received it. */
function localOffer(transfer: CaseTransfer, now: number): { offeredAt: number; ttlMs: number } {
  const ttlMs = Date.parse(transfer.expiresAt) - Date.parse(transfer.offeredAt);
  return { offeredAt: receivedAt[transfer.transferUuid] ?? now, ttlMs };
}

/**
 * A transfer's state as the case-transfer machine (packages/machines) decides it from what the
 * server said and the clock: the server's status is replayed into the machine as its event, and
 * an offer still `offered` once its time is up is expired here too (the server's own `expired`
 * may be a moment behind), so the prompt never offers an Accept that would be refused. An offer
 * still `offered` is timed from when this tab received it (`now` is this tab's clock, which
 * need not agree with the server's); a decided one by the server's own times.
 */
export function transferStateOf(transfer: CaseTransfer, now: number): CaseTransferState {
  const offeredAt = Date.parse(transfer.offeredAt);
  const expiresAt = Date.parse(transfer.expiresAt);
  const persisted = offerCaseTransfer({
    fromUserId: transfer.from.id,
    toUserId: transfer.to.id,
    ...(transfer.status === 'offered'
      ? localOffer(transfer, now)
      : { offeredAt, ttlMs: expiresAt - offeredAt }),
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

/** Seconds left to answer an offer (never below 0), counted from when this tab received it. */
export function secondsLeft(transfer: CaseTransfer, now: number): number {
  const { offeredAt, ttlMs } = localOffer(transfer, now);
  return Math.max(0, Math.ceil((offeredAt + ttlMs - now) / 1000));
}
