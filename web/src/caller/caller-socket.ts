import { closeCodes, realtimePaths, type CallerClientFrame, type CallerFix } from '@locus/contract';

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'closed';

export interface CallerSocketListener {
  onConnection(state: ConnectionState): void;
  /** The dispatcher ended the session (`session-ended`, or close 4410). The socket is done. */
  onEnded(): void;
  /** The server refused the link (close 4401): expired, stopped or unknown. The socket is done. */
  onRevoked(): void;
}

export interface CallerSocketOptions {
  /** Fixes kept until acked, newest last; the oldest are dropped beyond this. */
  maxPending: number;
  /** Delays before each reconnect attempt; the last one repeats. */
  backoffMs: readonly number[];
  /** A socket that has not opened after this long is given up and retried. */
  connectTimeoutMs: number;
  /** A fix sent and nothing heard from the server for this long: the link is dead. */
  silenceTimeoutMs: number;
  createSocket(url: string): WebSocket;
}

const defaults: CallerSocketOptions = {
  maxPending: 50,
  backoffMs: [1_000, 2_000, 5_000, 10_000],
  connectTimeoutMs: 15_000,
  silenceTimeoutMs: 30_000,
  createSocket: (url) => new WebSocket(url),
};

/** The caller socket's address for a link token, on this page's origin. */
export function callerSocketUrl(token: string, location: Location = window.location): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}${realtimePaths.caller}?token=${encodeURIComponent(token)}`;
}

/**
 * The caller's end of `realtime.ts`'s caller socket. It keeps the fixes the server has not
 * acked and sends them again after a reconnect (the server drops duplicates by capture time),
 * reconnects with back-off after an unexpected close, and, on every (re)connect, tells the
 * server again what the dispatcher lost with the connection: sharing and tab focus.
 */
export class CallerSocket {
  private readonly options: CallerSocketOptions;
  private ws: WebSocket | null = null;
  private state: ConnectionState = 'closed';
  private attempt = 0;
  private done = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private connectTimer: ReturnType<typeof setTimeout> | undefined;
  private silenceTimer: ReturnType<typeof setTimeout> | undefined;
  /** Unacked fixes, oldest first. */
  private pending: CallerFix[] = [];
  private sharing: boolean | null = null;
  private unsentError: { code: string; message: string } | null = null;

  constructor(
    private readonly url: string,
    private readonly listener: CallerSocketListener,
    private readonly isFocused: () => boolean,
    options: Partial<CallerSocketOptions> = {},
  ) {
    this.options = { ...defaults, ...options };
  }

  get connection(): ConnectionState {
    return this.state;
  }

  get unacked(): number {
    return this.pending.length;
  }

  connect(): void {
    if (this.done || this.ws) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.setState(this.attempt === 0 ? 'connecting' : 'reconnecting');
    const ws = this.options.createSocket(this.url);
    this.ws = ws;
    ws.onopen = () => this.onOpen();
    ws.onmessage = (message) => this.onMessage(message.data);
    ws.onclose = (event) => this.onClose(event.code);
    ws.onerror = () => undefined;
    this.connectTimer = setTimeout(() => this.drop(), this.options.connectTimeoutMs);
  }

  /** Reconnects at once if a reconnect is waiting (the network is back, the page is visible). */
  reconnectNow(): void {
    if (this.done || this.ws || this.retryTimer === undefined) return;
    this.connect();
  }

  sendFix(fix: CallerFix): void {
    this.pending.push(fix);
    if (this.pending.length > this.options.maxPending) this.pending.shift();
    if (this.send({ event: 'fix', data: fix })) this.watchSilence();
  }

  setSharing(sharing: boolean): void {
    this.sharing = sharing;
    this.send({ event: 'sharing', data: { sharing } });
  }

  sendFocus(): void {
    this.send({ event: 'tab-focus', data: { focused: this.isFocused() } });
  }

  /** Sent now, or as soon as the socket opens: the dispatcher must learn why nothing comes. */
  reportError(code: string, message: string): void {
    const data = { code, message: message.slice(0, 500) };
    this.unsentError = this.send({ event: 'sharing-error', data }) ? null : data;
  }

  /** Closes for good; whatever was sent before is delivered first. */
  close(): void {
    this.done = true;
    this.clearTimers();
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      detach(ws);
      ws.close(1000, 'caller-closed');
    }
    this.setState('closed');
  }

  private send(frame: CallerClientFrame): boolean {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify(frame));
    return true;
  }

  private onOpen(): void {
    clearTimeout(this.connectTimer);
    this.attempt = 0;
    this.setState('connected');
    if (this.sharing !== null) this.setSharing(this.sharing);
    this.sendFocus();
    if (this.unsentError) this.reportError(this.unsentError.code, this.unsentError.message);
    for (const fix of this.pending) this.send({ event: 'fix', data: fix });
    if (this.pending.length > 0) this.watchSilence();
  }

  private onMessage(raw: unknown): void {
    // Anything from the server proves the connection alive.
    clearTimeout(this.silenceTimer);
    this.silenceTimer = undefined;
    let frame: { event?: unknown; data?: { capturedAt?: unknown; error?: unknown } };
    try {
      frame = JSON.parse(String(raw)) as typeof frame;
    } catch {
      return;
    }
    switch (frame.event) {
      case 'ack': {
        const capturedAt = frame.data?.capturedAt;
        // Frames are handled in order: every fix up to this one has been dealt with (stored,
        // a duplicate, or refused for good), so none of them needs sending again.
        if (typeof capturedAt === 'number') {
          this.pending = this.pending.filter((fix) => fix.capturedAt > capturedAt);
        }
        // Fixes sent after this one still await their ack. (Only an ack restarts the watch: a
        // fix the server refuses is never acked, and must not look like a dead connection.)
        if (this.pending.length > 0) this.watchSilence();
        return;
      }
      case 'session-ended':
        this.finish('ended');
        return;
      case 'error':
        if (frame.data?.error === 'invalid-token') {
          this.finish('revoked');
          return;
        }
        break;
    }
  }

  private onClose(code: number): void {
    this.ws = null;
    clearTimeout(this.connectTimer);
    clearTimeout(this.silenceTimer);
    this.silenceTimer = undefined;
    if (this.done) return;
    if (code === closeCodes.sessionEnded) return this.finish('ended');
    if (code === closeCodes.invalidToken || code === closeCodes.notFound) {
      return this.finish('revoked');
    }
    this.scheduleReconnect();
  }

  private finish(how: 'ended' | 'revoked'): void {
    if (this.done) return;
    this.close();
    if (how === 'ended') this.listener.onEnded();
    else this.listener.onRevoked();
  }

  /** Gives up on the current socket without waiting for a close handshake a dead link never answers. */
  private drop(): void {
    const ws = this.ws;
    if (!ws || this.done) return;
    detach(ws);
    this.ws = null;
    try {
      ws.close();
    } catch {
      // Already closing.
    }
    this.onClose(1006);
  }

  private scheduleReconnect(): void {
    const { backoffMs } = this.options;
    const delay = backoffMs[Math.min(this.attempt, backoffMs.length - 1)] ?? 10_000;
    this.attempt += 1;
    this.setState('reconnecting');
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.connect();
    }, delay);
  }

  private watchSilence(): void {
    if (this.silenceTimer !== undefined) return;
    this.silenceTimer = setTimeout(() => {
      this.silenceTimer = undefined;
      this.drop();
    }, this.options.silenceTimeoutMs);
  }

  private clearTimers(): void {
    clearTimeout(this.retryTimer);
    clearTimeout(this.connectTimer);
    clearTimeout(this.silenceTimer);
    this.retryTimer = this.connectTimer = this.silenceTimer = undefined;
  }

  private setState(state: ConnectionState): void {
    if (state === this.state) return;
    this.state = state;
    this.listener.onConnection(state);
  }
}

function detach(ws: WebSocket): void {
  ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
}
