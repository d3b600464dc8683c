import {
  consoleServerEvents,
  Frame,
  realtimePaths,
  type Broadcast,
  type CaseTransfer,
} from '@locus/contract';
import { api, expect } from '../api';
import { ApiError } from '../api-error';

/** Waits between attempts after the socket drops or cannot open (the last one repeats). */
export const RECONNECT_DELAYS_MS = [1_000, 2_000, 5_000, 10_000, 30_000] as const;
/** A socket that has not opened by then is given up on and tried again. */
const CONNECT_TIMEOUT_MS = 10_000;

function socketUrl(ticket: string): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}${realtimePaths.console}?ticket=${encodeURIComponent(ticket)}`;
}

/** The current broadcasts from a console-socket frame, or null for anything else. */
export function parseBroadcastsFrame(text: string): Broadcast[] | null {
  try {
    const outer = Frame.safeParse(JSON.parse(text));
    if (!outer.success || outer.data.event !== 'broadcasts') return null;
    const data = consoleServerEvents.broadcasts.safeParse(outer.data.data);
    return data.success ? data.data.current : null;
  } catch {
    return null;
  }
}

/** A case transfer from a console-socket frame, or null for anything else. */
export function parseCaseTransferFrame(text: string): CaseTransfer | null {
  try {
    const outer = Frame.safeParse(JSON.parse(text));
    if (!outer.success || outer.data.event !== 'case-transfer') return null;
    const data = consoleServerEvents['case-transfer'].safeParse(outer.data.data);
    return data.success ? data.data : null;
  } catch {
    return null;
  }
}

/** What else the console socket brings: case transfers (issue 12), and whether it is open. */
export interface ConsoleSocketHandlers {
  onCaseTransfer?: (transfer: CaseTransfer) => void;
  onOpenChange?: (open: boolean) => void;
}

/**
 * The console socket (`realtimePaths.console`), one per signed-in tab: it asks the API for a
 * one-use ticket (the bearer token stays out of the URL), opens, and hands every `broadcasts`
 * frame to `onBroadcasts`. When it drops it tries again with back-off (1, 2, 5, 10, 30 s, each
 * with ±50 % jitter, and at once when the browser comes back online), each time with a fresh
 * ticket. It stops for good when the API refuses the session (a 401 for the ticket: the app
 * signs out) or on `stop()`.
 */
export class ConsoleSocket {
  private ws: WebSocket | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Gives up on a socket that does not open in time; cleared whenever that socket is dropped. */
  private connectTimer: ReturnType<typeof setTimeout> | undefined;
  private attempt = 0;
  /**
   * Counts `connect()` calls: two can overlap (an `online` event while a ticket is on its way),
   * and a ticket or socket that belongs to an older one is thrown away, never kept or retried.
   */
  private connection = 0;
  private stopped = false;

  constructor(
    private readonly onBroadcasts: (current: Broadcast[]) => void,
    private readonly handlers: ConsoleSocketHandlers = {},
  ) {}

  start(): void {
    window.addEventListener('online', this.reconnectNow);
    void this.connect();
  }

  stop(): void {
    this.stopped = true;
    window.removeEventListener('online', this.reconnectNow);
    clearTimeout(this.timer);
    this.drop();
    this.handlers.onOpenChange?.(false);
  }

  private readonly reconnectNow = (): void => {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.attempt = 0;
    void this.connect();
  };

  private drop(): void {
    clearTimeout(this.connectTimer);
    this.connectTimer = undefined;
    const ws = this.ws;
    this.ws = null;
    if (!ws) return;
    ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
    if (ws.readyState === WebSocket.CONNECTING || ws.readyState === WebSocket.OPEN) ws.close();
  }

  private retryLater(): void {
    if (this.stopped) return;
    const base = RECONNECT_DELAYS_MS[Math.min(this.attempt, RECONNECT_DELAYS_MS.length - 1)]!;
    // Jitter (×0.5 to ×1.5): after an instance restarts, its consoles do not all come back at
    // the same instant.
    const delay = base * (0.5 + Math.random());
    this.attempt += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.connect(), delay);
  }

  private async connect(): Promise<void> {
    const connection = ++this.connection;
    this.drop();
    let ticket: string;
    try {
      ticket = expect(await api.broadcasts.consoleTicket(), 200).ticket;
    } catch (error) {
      // A newer connect() is under way: it decides what happens next.
      if (connection !== this.connection) return;
      // Signed out: the API client has already taken the app to sign in again.
      if (error instanceof ApiError && error.status === 401) return;
      return this.retryLater();
    }
    // Stopped, or overtaken by a newer connect() while the ticket was on its way: this ticket
    // is left unused (it expires by itself), so no second socket is opened.
    if (this.stopped || connection !== this.connection) return;
    const ws = new WebSocket(socketUrl(ticket));
    this.ws = ws;
    this.connectTimer = setTimeout(() => {
      this.drop();
      this.retryLater();
    }, CONNECT_TIMEOUT_MS);
    ws.onopen = () => {
      clearTimeout(this.connectTimer);
      this.connectTimer = undefined;
      this.attempt = 0;
      this.handlers.onOpenChange?.(true);
    };
    ws.onmessage = (message) => {
      if (typeof message.data !== 'string') return;
      const current = parseBroadcastsFrame(message.data);
      if (current) this.onBroadcasts(current);
      const transfer = current ? null : parseCaseTransferFrame(message.data);
      if (transfer) this.handlers.onCaseTransfer?.(transfer);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      clearTimeout(this.connectTimer);
      this.connectTimer = undefined;
      this.ws = null;
      this.handlers.onOpenChange?.(false);
      this.retryLater();
    };
  }
}
