import {
  closeCodes,
  dispatcherServerEvents,
  ErrorBody,
  Frame,
  realtimePaths,
  sessionEvents,
  type DispatcherClientFrame,
  type DispatcherServerFrame,
  type SessionEventData,
  type SessionEventName,
} from '@locus/contract';
import { dispatcherSocketMachine, type SessionClosedReason } from '@locus/machines';
import { createActor } from 'xstate';

/** A socket that has not opened by then is given up on and retried (status connect_timeout). */
export const CONNECT_TIMEOUT_MS = 10_000;
/** With the machine's back-off (0.5 s doubling to 15 s) this keeps trying for about 1.5 minutes. */
export const MAX_RECONNECT_ATTEMPTS = 10;

/** One sequenced event of the session, as the contract types it. */
export type SessionFrame = {
  [E in SessionEventName]: { event: E; data: SessionEventData<E> };
}[SessionEventName];

export interface SessionFrameOrigin {
  /**
   * True for the history a first join replays (a reload rebuilding the map). Such events are
   * old news: they rebuild state, but nothing should flash as if it had just happened.
   */
  fromHistory: boolean;
}

export interface DispatcherSocketListener {
  onSessionEvent(frame: SessionFrame, origin: SessionFrameOrigin): void;
  /** The server refused the session for good: reconnecting cannot help. */
  onClosedForGood(reason: SessionClosedReason): void;
  /** The server stored or refused a chat message this socket sent (`chat-ack`). */
  onChatAck?(ack: ChatAckFrame): void;
  /** A (re)join finished its replay: anything sent while disconnected may be sent again. */
  onJoined?(): void;
  /** Issue 19: a video viewer's frames for this socket (`video-viewer`, `-signal`, `-still`). */
  onMediaFrame?(frame: MediaServerFrame): void;
  /** The server refused a frame this socket sent (`error`), e.g. a `video-watch` with no video. */
  onError?(error: ErrorBody): void;
}

export type MediaServerFrame = Extract<
  DispatcherServerFrame,
  { event: 'video-viewer' | 'video-signal' | 'video-still' }
>;
export type MediaClientFrame = Extract<
  DispatcherClientFrame,
  { event: 'media-request' | 'video-watch' | 'video-signal' | 'video-stop' }
>;
const mediaServerEvents = new Set<string>(['video-viewer', 'video-signal', 'video-still']);

export type ChatAckFrame = Extract<DispatcherServerFrame, { event: 'chat-ack' }>['data'];
export type OutgoingChatFrame = Extract<DispatcherClientFrame, { event: 'chat' }>['data'];

const terminalCloseCodes: ReadonlyMap<number, SessionClosedReason> = new Map([
  [closeCodes.sessionEnded, 'ended'],
  [closeCodes.notFound, 'not-found'],
  [closeCodes.invalidToken, 'invalid-token'],
  // The case went to a colleague: not an error, and reconnecting would only be refused.
  [closeCodes.transferred, 'transferred'],
]);

const isSessionEvent = (event: string): event is SessionEventName =>
  Object.hasOwn(sessionEvents, event);

function parseFrame(text: string): { event: string; data?: unknown } | null {
  try {
    const outer = Frame.safeParse(JSON.parse(text));
    return outer.success ? outer.data : null;
  } catch {
    return null;
  }
}

function socketUrl(token: string): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}${realtimePaths.dispatcher}?token=${encodeURIComponent(token)}`;
}

/**
 * The dispatcher's socket for one tracking session. The connection machine
 * (`dispatcherSocketMachine`) decides when to (re)connect and what the status text says; this
 * class does the I/O. It remembers the highest `seq` it has passed on, and every reconnect
 * joins with it as `lastSeq`, so the server replays exactly what was missed, in order.
 */
export class DispatcherSocket {
  /** The connection machine: subscribe to it for the status text. */
  readonly connection = createActor(
    dispatcherSocketMachine.provide({
      actions: {
        openSocket: () => this.connect(),
        closeSocket: () => this.disconnect(),
      },
    }),
    { input: { maxAttempts: MAX_RECONNECT_ATTEMPTS } },
  ).start();

  private ws: WebSocket | null = null;
  private connectTimer: ReturnType<typeof setTimeout> | undefined;
  private target: { sessionId: string; token: string } | null = null;
  /** Null until the first sequenced event: the first join then asks for the whole history. */
  private lastSeq: number | null = null;
  private joinedFromStart = false;
  private joined = false;
  private readonly listeners = new Set<DispatcherSocketListener>();

  listen(listener: DispatcherSocketListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Connects to a session and replays its whole history (a new session's is empty). */
  open(target: { sessionId: string; token: string }): void {
    this.target = target;
    this.lastSeq = null;
    this.connection.send({ type: 'STOP' });
    this.connection.send({ type: 'CONNECT' });
    window.addEventListener('online', this.reconnectNow);
  }

  close(): void {
    this.target = null;
    this.lastSeq = null;
    window.removeEventListener('online', this.reconnectNow);
    this.connection.send({ type: 'STOP' });
  }

  /**
   * Sends a chat message if the socket is joined; false otherwise (the caller keeps it and
   * sends it again on `onJoined`, and the server stores a resent `clientId` once).
   */
  sendChat(data: OutgoingChatFrame): boolean {
    const ws = this.ws;
    if (!ws || !this.joined || ws.readyState !== WebSocket.OPEN) return false;
    const frame: DispatcherClientFrame = { event: 'chat', data };
    ws.send(JSON.stringify(frame));
    return true;
  }

  /** A media frame (issue 19) if the socket is joined; false otherwise (nothing is queued). */
  sendMedia(frame: MediaClientFrame): boolean {
    const ws = this.ws;
    if (!ws || !this.joined || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify(frame));
    return true;
  }

  /** Skips the back-off wait, e.g. when the browser says the network is back. */
  readonly reconnectNow = (): void => {
    if (this.target) this.connection.send({ type: 'CONNECT' });
  };

  private connect(): void {
    this.disconnect();
    const target = this.target;
    if (!target) return;
    const ws = new WebSocket(socketUrl(target.token));
    this.ws = ws;
    this.joined = false;
    this.joinedFromStart = this.lastSeq === null;
    this.connectTimer = setTimeout(() => {
      this.disconnect();
      this.connection.send({ type: 'SOCKET.TIMEOUT' });
    }, CONNECT_TIMEOUT_MS);

    ws.onopen = () => {
      clearTimeout(this.connectTimer);
      const join: DispatcherClientFrame = {
        event: 'join',
        data:
          this.lastSeq === null
            ? { sessionId: target.sessionId }
            : { sessionId: target.sessionId, lastSeq: this.lastSeq },
      };
      ws.send(JSON.stringify(join));
      this.connection.send({ type: 'SOCKET.OPEN' });
    };
    ws.onmessage = (message) => {
      if (typeof message.data === 'string') this.receive(message.data);
    };
    ws.onerror = () => {
      clearTimeout(this.connectTimer);
      this.connection.send({ type: 'SOCKET.ERROR' });
    };
    ws.onclose = (event) => {
      clearTimeout(this.connectTimer);
      this.ws = null;
      const reason = terminalCloseCodes.get(event.code);
      if (reason === undefined) {
        // Anything else (1001 a server restarting, 1006 a dropped network) is worth a retry.
        this.connection.send({ type: 'SOCKET.CLOSE' });
        return;
      }
      this.close();
      for (const listener of this.listeners) listener.onClosedForGood(reason);
    };
  }

  /** Drops the current socket without telling the machine: it asked for this. */
  private disconnect(): void {
    clearTimeout(this.connectTimer);
    const ws = this.ws;
    this.ws = null;
    if (!ws) return;
    ws.onopen = ws.onmessage = ws.onerror = ws.onclose = null;
    if (ws.readyState === WebSocket.CONNECTING || ws.readyState === WebSocket.OPEN) ws.close(1000);
  }

  private receive(text: string): void {
    const frame = parseFrame(text);
    if (!frame) {
      console.warn('Dispatcher socket: ignored a frame that is not JSON {event, data}');
      return;
    }
    const { event, data } = frame;
    if (event === 'joined') {
      this.joined = true;
      for (const listener of this.listeners) listener.onJoined?.();
      return;
    }
    if (event === 'chat-ack') {
      const ack = dispatcherServerEvents['chat-ack'].safeParse(data);
      if (ack.success) for (const listener of this.listeners) listener.onChatAck?.(ack.data);
      return;
    }
    if (mediaServerEvents.has(event)) {
      const name = event as MediaServerFrame['event'];
      const parsed = dispatcherServerEvents[name].safeParse(data);
      if (parsed.success) {
        const media = { event: name, data: parsed.data } as MediaServerFrame;
        for (const listener of this.listeners) listener.onMediaFrame?.(media);
      }
      return;
    }
    if (event === 'error') {
      console.warn('Dispatcher socket error', data);
      const error = ErrorBody.safeParse(data);
      if (error.success) for (const listener of this.listeners) listener.onError?.(error.data);
      return;
    }
    // session-ended is followed by close code 4410, which is where it is handled.
    if (!isSessionEvent(event)) return;
    const parsed = sessionEvents[event].safeParse(data);
    if (!parsed.success) {
      console.warn(`Dispatcher socket: ignored an invalid "${event}" frame`, parsed.error.issues);
      return;
    }
    const { seq } = parsed.data;
    // The server sends each event once; this guards against a replay overlapping a live frame.
    if (this.lastSeq !== null && seq <= this.lastSeq) return;
    this.lastSeq = seq;
    const sessionFrame = { event, data: parsed.data } as SessionFrame;
    const origin = { fromHistory: this.joinedFromStart && !this.joined };
    for (const listener of this.listeners) listener.onSessionEvent(sessionFrame, origin);
  }
}
