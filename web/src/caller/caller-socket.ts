import {
  closeCodes,
  realtimePaths,
  type CallerClientFrame,
  type CallerFix,
  type CallerServerFrame,
} from '@locus/contract/caller';
import type { FixQueue, QueuedFix } from './fix-queue';

/**
 * `superseded`: another page on this link (another tab) took the connection (close 4409) and
 * this one has no claim to it: it waits, without reconnecting, until it has one (see
 * `CallerSocket.claimsLink`).
 */
export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'superseded' | 'closed';

/** What the phone says about itself (the `device` frame). */
export type DeviceReport = Extract<CallerClientFrame, { event: 'device' }>['data'];
export type ConsentData = Extract<CallerClientFrame, { event: 'consent' }>['data'];

export interface CallerSocketListener {
  onConnection(state: ConnectionState): void;
  /** The dispatcher ended the session (`session-ended`, or close 4410). The socket is done. */
  onEnded(): void;
  /** The server refused the link (close 4401): expired, stopped or unknown. The socket is done. */
  onRevoked(): void;
  /** The queue of unsent fixes grew or shrank, or an ack came (see `unackedSince`). */
  onQueue(size: number): void;
  /** The server refused a fix for good: it is dropped, and the page notes why. */
  onRefused(fix: CallerFix | undefined, reason: string): void;
}

/** The chat's frames from the server (issue 12). */
export type ChatServerFrame = Extract<
  CallerServerFrame,
  { event: 'chat-opened' | 'chat-message' | 'chat-translation' | 'chat-ack' }
>;

/**
 * The chat's side of the socket (caller-chat.ts): on every open the socket asks for the chat
 * events after `lastSeq()` and sends again every message the server has not stored yet.
 */
export interface CallerChatHooks {
  lastSeq(): number;
  unsent(): readonly { clientId: string; text: string }[];
  onFrame(frame: ChatServerFrame): void;
  /** This socket has joined the chat: the chat sends what waits, a few messages at a time. */
  joined(): void;
}

/** The video and photo frames from the server (issue 19). */
export type MediaServerFrame = Extract<
  CallerServerFrame,
  { event: 'media-request' | 'video-viewer' | 'video-viewer-left' | 'video-signal' | 'video-stop' }
>;
/** The video and photo frames the page sends (issue 19). */
export type MediaClientFrame = Extract<
  CallerClientFrame,
  { event: 'media-answer' | 'video-state' | 'video-signal' }
>;

/** The media controller's side of the socket (media/caller-media.ts). */
export interface CallerMediaHooks {
  onFrame(frame: MediaServerFrame): void;
  /** The socket (re)opened: what could not be sent meanwhile goes now. */
  opened(): void;
}

export interface CallerSocketOptions {
  /** Fixes per frame when catching up after a reconnect (the server allows 50). */
  batchSize: number;
  /** Frames of fixes sent and not yet acked, at most: paces a long backlog. */
  maxFramesInFlight: number;
  /** Delays before each reconnect attempt; the last one repeats. */
  backoffMs: readonly number[];
  /** A socket that has not opened after this long is given up and retried. */
  connectTimeoutMs: number;
  /** A fix sent and nothing heard from the server for this long: the link is dead. */
  silenceTimeoutMs: number;
  createSocket(url: string): WebSocket;
}

const defaults: CallerSocketOptions = {
  batchSize: 25,
  maxFramesInFlight: 4,
  backoffMs: [1_000, 2_000, 5_000, 10_000],
  connectTimeoutMs: 15_000,
  silenceTimeoutMs: 30_000,
  createSocket: (url) => new WebSocket(url),
};

/** A fix that waited less than this on the phone is sent without saying how long it waited. */
const REPORT_QUEUED_AFTER_MS = 1_000;

/** The caller socket's address for a link token, on this page's origin. */
export function callerSocketUrl(token: string, location: Location = window.location): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}${realtimePaths.caller}?token=${encodeURIComponent(token)}`;
}

/**
 * The caller's end of `realtime.ts`'s caller socket. Every fix goes through the queue (memory and
 * IndexedDB) and is sent from it, oldest first, so fixes taken while the network was down go out
 * in order once it is back; the server's `ack` names the fix's number and the queue forgets it
 * and everything before it. It reconnects with back-off after an unexpected close and, on every
 * (re)connect, tells the server again what the dispatcher lost with the connection: sharing, tab
 * focus and the phone's state.
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
  /** The highest fix number sent on this socket. */
  private sentUpTo = 0;
  /** The last fix number of each frame sent and not yet acked, oldest first. */
  private inFlight: number[] = [];
  private sharing: boolean | null = null;
  private unsentError: { code: string; message: string } | null = null;
  private unsentConsents: ConsentData[] = [];
  /** `prompt-shown`: not yet asked for, waiting for the socket to open, or sent. */
  private promptShownFrame: 'none' | 'unsent' | 'sent' = 'none';
  /**
   * When the oldest fix the server refused since it last took one was got (the page's monotonic
   * clock): a refused fix is gone from the queue, but the dispatcher still lacks the position.
   */
  private refusedSince: number | null = null;
  private chat: CallerChatHooks | null = null;
  private media: CallerMediaHooks | null = null;
  /** This socket (since its last open) has sent `chat-join`; the server takes one per socket. */
  private chatJoined = false;
  /**
   * Closes with 4409 since the caller last looked at this page: paces the taking back when more
   * pages than the server keeps (`maxSocketsPerToken`) all have a claim (say, four sharing tabs).
   */
  private supersededInARow = 0;

  constructor(
    private readonly url: string,
    private readonly queue: FixQueue,
    private readonly listener: CallerSocketListener,
    private readonly isFocused: () => boolean,
    options: Partial<CallerSocketOptions> = {},
  ) {
    this.options = { ...defaults, ...options };
  }

  get connection(): ConnectionState {
    return this.state;
  }

  /**
   * Since when (the page's monotonic clock, `performance.now()`) the oldest fix that the server
   * has not taken has waited: queued and not acked, or refused with no fix taken since. Null when
   * the server has taken everything. What decides when the page offers to text the position.
   */
  get unackedSince(): number | null {
    const queued = this.queue.oldestSince;
    if (this.refusedSince === null) return queued;
    return queued === null ? this.refusedSince : Math.min(queued, this.refusedSince);
  }

  connect(): void {
    if (this.done || this.ws) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.setState(this.attempt === 0 ? 'connecting' : 'reconnecting');
    let ws: WebSocket;
    try {
      ws = this.options.createSocket(this.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => this.onOpen();
    ws.onmessage = (message) => this.onMessage(message.data);
    ws.onclose = (event) => this.onClose(event.code);
    ws.onerror = () => undefined;
    this.connectTimer = setTimeout(() => this.drop(), this.options.connectTimeoutMs);
  }

  /**
   * Reconnects at once if a reconnect is waiting (the network is back, the page is visible), or
   * takes the link back from another tab if this page now has a claim to it (it is visible).
   */
  reconnectNow(): void {
    if (this.done || this.ws) return;
    if (this.state === 'superseded' ? !this.claimsLink() : this.retryTimer === undefined) return;
    if (this.isFocused()) this.supersededInARow = 0;
    this.connect();
  }

  /**
   * Whether this page should hold the link's connection when another page on the link (another
   * tab) pushed it out: the page the caller is looking at, a page sharing the location, and a
   * page holding fixes the server has not taken. The others give way and wait until the caller
   * comes back to them; each taking the connection back in turn would push the others out
   * forever once a link is open in more tabs than the server keeps sockets for.
   */
  private claimsLink(): boolean {
    return this.isFocused() || this.sharing === true || this.queue.size > 0;
  }

  /** A page that gave way takes the link back once it has a claim (it shares, it has a fix). */
  private reclaim(): void {
    if (this.state === 'superseded' && this.claimsLink()) this.connect();
  }

  /**
   * The phone says it has no network: this socket is dead even if no close says so yet (a
   * half-open TCP connection can swallow frames for minutes). Fixes stay queued meanwhile.
   */
  networkLost(): void {
    if (this.ws) this.drop();
  }

  /** Sends what the queue holds, if the socket can (the queue has just loaded a reload's fixes). */
  flushQueued(): void {
    this.flush();
  }

  /** Queues a new fix and sends it if the socket can. */
  sendFix(fix: CallerFix): void {
    this.queue.add(fix);
    this.listener.onQueue(this.queue.size);
    this.reclaim();
    this.flush();
  }

  /** Connects the chat: it joins now if the socket is open, and on every later open. */
  attachChat(hooks: CallerChatHooks): void {
    this.chat = hooks;
    if (this.state === 'connected') this.joinChat();
  }

  /** A chat message, if the socket is open; otherwise it goes with the next open's resend. */
  sendChat(clientId: string, text: string): boolean {
    if (!this.chatJoined) return false;
    return this.send({ event: 'chat', data: { clientId, text } });
  }

  /** Video and photos (issue 19): the media controller gets the server's media frames. */
  attachMedia(hooks: CallerMediaHooks): void {
    this.media = hooks;
    if (this.state === 'connected') hooks.opened();
  }

  /** A media frame, if the socket is open (signalling is not queued: a stale SDP is useless). */
  sendMedia(frame: MediaClientFrame): boolean {
    return this.send(frame);
  }

  private joinChat(): void {
    const chat = this.chat;
    if (!chat || this.chatJoined) return;
    if (!this.send({ event: 'chat-join', data: { lastSeq: chat.lastSeq() } })) return;
    this.chatJoined = true;
    // Not all at once: the server takes a burst of 5 messages and refuses the rest.
    chat.joined();
  }

  setSharing(sharing: boolean): void {
    this.sharing = sharing;
    this.send({ event: 'sharing', data: { sharing } });
    this.reclaim();
  }

  sendFocus(): void {
    this.send({ event: 'tab-focus', data: { focused: this.isFocused() } });
  }

  /** The phone's state, if the socket is open (the owner sends it again on every connect). */
  sendDevice(device: DeviceReport): void {
    this.send({ event: 'device', data: device });
  }

  /**
   * The page is about to ask the browser for the position (the permission prompt, unless the
   * caller already answered it): told to the server once, now or as soon as the socket opens.
   * For the metrics only (`session_callers.prompt_shown_at`).
   */
  promptShown(): void {
    if (this.promptShownFrame === 'sent') return;
    this.promptShownFrame = this.send({ event: 'prompt-shown', data: {} }) ? 'sent' : 'unsent';
  }

  /**
   * The caller tapped a button that shares (a consent receipt on the server): sent now, or as
   * soon as the socket opens, before any position taken after the tap.
   */
  consent(data: ConsentData): void {
    if (!this.send({ event: 'consent', data })) this.unsentConsents.push(data);
  }

  /** Sent now, or as soon as the socket opens: the dispatcher must learn why nothing comes. */
  reportError(code: string, message: string): void {
    const data = { code, message: message.slice(0, 500) };
    this.unsentError = this.send({ event: 'sharing-error', data }) ? null : data;
  }

  /** Closes for good. Fixes not yet acked stay queued for the next page on this link. */
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

  /** Sends queued fixes not yet sent on this socket, a few frames ahead of the acks. */
  private flush(): void {
    if (this.state !== 'connected') return;
    while (this.inFlight.length < this.options.maxFramesInFlight) {
      const batch = this.queue.after(this.sentUpTo, this.options.batchSize);
      if (batch.length === 0) return;
      const now = Date.now();
      const fixes = batch.map((entry) => withWait(entry, now));
      const sent =
        fixes.length === 1
          ? this.send({ event: 'fix', data: fixes[0]! })
          : this.send({ event: 'fixes', data: { fixes } });
      if (!sent) return;
      this.sentUpTo = batch.at(-1)!.n;
      this.inFlight.push(this.sentUpTo);
      this.watchSilence();
    }
  }

  private onOpen(): void {
    clearTimeout(this.connectTimer);
    this.attempt = 0;
    this.sentUpTo = 0;
    this.inFlight = [];
    this.chatJoined = false;
    this.setState('connected');
    for (const consent of this.unsentConsents.splice(0)) this.consent(consent);
    if (this.sharing !== null) this.setSharing(this.sharing);
    this.sendFocus();
    if (this.promptShownFrame === 'unsent') this.promptShown();
    if (this.unsentError) this.reportError(this.unsentError.code, this.unsentError.message);
    this.joinChat();
    this.media?.opened();
    this.flush();
  }

  private onMessage(raw: unknown): void {
    // Anything from the server proves the connection alive.
    clearTimeout(this.silenceTimer);
    this.silenceTimer = undefined;
    let frame: CallerServerFrame;
    try {
      frame = JSON.parse(String(raw)) as CallerServerFrame;
    } catch {
      return;
    }
    switch (frame.event) {
      case 'ack':
        this.onAck(frame.data);
        break;
      case 'session-ended':
        this.finish('ended');
        return;
      case 'chat-opened':
      case 'chat-message':
      case 'chat-translation':
      case 'chat-ack':
        this.chat?.onFrame(frame);
        break;
      case 'media-request':
      case 'video-viewer':
      case 'video-viewer-left':
      case 'video-signal':
      case 'video-stop':
        this.media?.onFrame(frame);
        break;
      case 'error':
        if (frame.data.error === 'invalid-token') return this.finish('revoked');
        // A frame was turned away (the server closes the socket too): reconnect and send again
        // everything not acked, in order; a later fix must never get in before it.
        if (frame.data.error === 'rate-limited' || frame.data.error === 'service-unavailable') {
          return this.drop();
        }
        break;
    }
    if (this.inFlight.length > 0) this.watchSilence();
  }

  private onAck({
    n,
    outcome,
    reason,
  }: Extract<CallerServerFrame, { event: 'ack' }>['data']): void {
    if (typeof n !== 'number') return;
    if (outcome === 'refused') {
      const refused = this.queue.after(n - 1, 1)[0];
      this.refusedSince ??= refused?.n === n ? refused.since : this.queue.oldestSince;
      this.listener.onRefused(refused?.n === n ? refused.fix : undefined, reason ?? 'refused');
    } else {
      // Stored, or a duplicate of one stored: the dispatcher has a position as new as this one.
      this.refusedSince = null;
    }
    // Frames are handled in order: every fix up to this one has been dealt with.
    this.queue.ackUpTo(n);
    this.inFlight = this.inFlight.filter((last) => last > n);
    this.listener.onQueue(this.queue.size);
    this.flush();
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
    if (code === closeCodes.superseded) return this.onSuperseded();
    this.scheduleReconnect();
  }

  /**
   * A newer socket on this link (another tab, most often) took this one's place. A page with a
   * claim takes it back, paced; the others wait, and their fixes, if any come, stay queued.
   */
  private onSuperseded(): void {
    if (!this.claimsLink()) {
      clearTimeout(this.retryTimer);
      this.retryTimer = undefined;
      this.setState('superseded');
      return;
    }
    const { backoffMs } = this.options;
    const delay = backoffMs[Math.min(this.supersededInARow, backoffMs.length - 1)] ?? 10_000;
    this.supersededInARow += 1;
    this.scheduleReconnect(delay);
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

  private scheduleReconnect(
    delay = this.options.backoffMs[Math.min(this.attempt, this.options.backoffMs.length - 1)] ??
      10_000,
  ): void {
    this.attempt += 1;
    this.setState('reconnecting');
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.connect();
    }, delay);
  }

  /** Only fixes are watched: the server acks them, and nothing else it is sent. Any frame from
   * the server restarts the watch; it runs while fixes await their ack. */
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

/** The fix as sent now: how long it has waited on the phone, when that is worth saying. */
function withWait(entry: QueuedFix, now: number): CallerFix {
  const waited = Math.max(0, Math.round(now - entry.takenAt));
  return waited >= REPORT_QUEUED_AFTER_MS ? { ...entry.fix, queuedMs: waited } : entry.fix;
}

function detach(ws: WebSocket): void {
  ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
}
