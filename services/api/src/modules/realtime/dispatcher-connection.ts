import { closeCodes, dispatcherClientEvents, Frame, realtimeLimits } from '@locus/contract';
import type { Socket } from 'node:net';
import type { RawData, WebSocket } from 'ws';
import type { ConnectionGrant } from '../sessions/repo';
import type { RealtimeContext } from './context';
import { errorFrame, frame } from './frames';
import { replaySince } from './replay';
import { zodIssues } from '../../http/errors';
import { ChatSender } from '../chat/sender';
import { DispatcherMedia, dispatcherMediaEvents } from '../media/dispatcher-media';

type Pending = { frame: Buffer | string; seq: number };

/**
 * Events a slow dispatcher may receive only the newest of, per caller (see `conflate`): each
 * describes the caller's current state, so the newest replaces the ones before it.
 */
const latestStateEvents = new Set<string>([
  'new-location-available',
  'caller-connected',
  'is-tab-focused',
  'is-sharing-location',
  'caller-device',
  'sms-status',
]);
/**
 * One dispatcher socket. After `join` it catches up on what the dispatcher missed, then goes
 * live. Live frames that arrive while it catches up are held and sent after, so each event
 * reaches the dispatcher exactly once and in seq order. A gap in the live seqs (or a lost Redis
 * subscription) means pub/sub dropped something: the socket catches up again from the replay
 * stream rather than let the dispatcher silently miss a fix. A socket that cannot keep up gets
 * only the newest event of each kind per caller until it drains, so its memory stays bounded.
 */
export class DispatcherConnection {
  private state: 'awaiting-join' | 'catching-up' | 'live' | 'closed' = 'awaiting-join';
  private lastSent = 0;
  private heldDuringCatchUp: Pending[] = [];
  /** Set when a resync is asked for during a catch-up, which may have read too early. */
  private catchUpAgain = false;
  private conflated: Map<string, Pending> | undefined;
  private channel: string | undefined;
  /** Frames refused so far: a console sends one `join`, so a stream of refusals is abuse. */
  private refusedFrames = 0;
  /** This socket's chat messages, from its first one. */
  private chat: ChatSender | undefined;
  /** This socket's media requests and video viewers (modules/media), from its first frame. */
  private media: DispatcherMedia | undefined;
  /**
   * Whether the newest `case-transfer` (accepted) this socket wrote gave the case to someone
   * else: the socket then closes with 4412 right after writing it (see `closeIfTransferred`).
   */
  private transferredAway = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly socket: Socket,
    private readonly grant: ConnectionGrant,
    private readonly context: RealtimeContext,
  ) {
    context.metrics.sockets.inc({ kind: 'dispatcher' });
    ws.on('message', (data, isBinary) => void this.onMessage(data, isBinary));
    ws.on('close', () => this.onClose());
    ws.on('error', () => undefined);
  }

  private isClosed(): boolean {
    return this.state === 'closed';
  }

  get sessionId(): string {
    return this.grant.sessionId;
  }

  /** The user the token was issued to (none for a session opened without one: tests, bench). */
  get userId(): string | null {
    return this.grant.userId;
  }

  /** The sign-in the token was issued to (null when none was recorded). */
  get authSessionId(): string | null {
    return this.grant.authSessionId;
  }

  /**
   * The token no longer works: its user signed out, changed their password or was removed (or
   * it was found revoked just after this socket opened). Nothing more reaches this socket.
   */
  revoke(message = 'This token was revoked.'): void {
    if (this.isClosed()) return;
    this.onClose();
    this.ws.send(errorFrame('invalid-token', message));
    this.ws.close(closeCodes.invalidToken, 'revoked');
  }

  /**
   * The case was handed to a colleague (a control message after the accept, see hub.ts): close
   * with 4412 even if the `case-transfer` frame never reaches this socket. Frames still on their
   * way (a catch-up, a slow socket's backlog) are written first, then it closes.
   */
  transferred(): void {
    if (this.isClosed()) return;
    this.transferredAway = true;
    if (this.state === 'catching-up' || this.conflated) return;
    this.closeIfTransferred();
  }

  /** The session was ended elsewhere: tell the console, then close. */
  end(): void {
    if (this.isClosed()) return;
    this.ws.send(frame('session-ended', { sessionId: this.grant.sessionId }));
    this.ws.close(closeCodes.sessionEnded, 'session-ended');
  }

  close(code: number, reason: string): void {
    this.ws.close(code, reason);
  }

  /** Drops the socket without waiting for the client to answer the close handshake. */
  terminate(): void {
    this.ws.terminate();
  }

  /** Resolves once its viewers have left (the callers' pages told), so shutdown waits for it. */
  settled(): Promise<void> {
    return this.media?.settled() ?? Promise.resolve();
  }

  /**
   * Notes a `case-transfer` accepted frame this socket just wrote. Only the newest one counts: a
   * case handed away and back later replays both, and its dispatcher stays.
   */
  private noteSent(frameBytes: Buffer | string): void {
    if (this.grant.userId === null) return;
    const text = typeof frameBytes === 'string' ? frameBytes : frameBytes.toString();
    if (!text.startsWith('{"event":"case-transfer"')) return;
    const { data } = JSON.parse(text) as { data: { status?: string; to?: { id?: string } } };
    if (data.status === 'accepted') this.transferredAway = data.to?.id !== this.grant.userId;
  }

  /**
   * The case moved to a colleague: close with 4412 (`transferred`), after the event was written,
   * so the console always learns why before the close. Its tokens for the session were revoked
   * with the transfer, so it cannot rejoin.
   */
  private closeIfTransferred(): void {
    if (!this.transferredAway || this.isClosed()) return;
    this.onClose();
    this.ws.close(closeCodes.transferred, 'transferred');
  }

  private reject(
    error: Parameters<typeof errorFrame>[0],
    message: string,
    issues?: { path: string; message: string }[],
  ): void {
    this.context.metrics.framesRejected.inc({ reason: error });
    if (this.isClosed()) return;
    this.refusedFrames += 1;
    if (this.refusedFrames > realtimeLimits.dispatcherRefusedFramesBeforeClose) {
      this.ws.send(errorFrame('rate-limited', 'Too many refused frames.'));
      this.onClose();
      this.ws.close(closeCodes.policyViolation, 'rate-limited');
      return;
    }
    this.ws.send(errorFrame(error, message, issues));
  }

  private async onMessage(data: RawData, isBinary: boolean): Promise<void> {
    if (this.isClosed()) return;
    let parsed: unknown;
    try {
      if (isBinary) throw new Error('binary');
      parsed = JSON.parse(data.toString());
    } catch {
      return this.reject('invalid-frame', 'Frames must be JSON text: {"event": …, "data": …}.');
    }
    const outer = Frame.safeParse(parsed);
    if (!outer.success)
      return this.reject('invalid-frame', 'Frames must be JSON text: {"event": …, "data": …}.');
    if (outer.data.event === 'chat' && this.context.chat) return this.onChat(outer.data.data);
    if (this.context.media && dispatcherMediaEvents.has(outer.data.event))
      return this.onMedia(outer.data.event, outer.data.data);
    if (outer.data.event !== 'join')
      return this.reject('unknown-event', `Unknown event "${outer.data.event}".`);
    const join = dispatcherClientEvents.join.safeParse(outer.data.data);
    if (!join.success) return this.reject('invalid-frame', 'Invalid join.', zodIssues(join.error));
    if (this.state !== 'awaiting-join')
      return this.reject('invalid-frame', 'This socket has already joined.');
    if (join.data.sessionId !== this.grant.sessionId) {
      // Same answer as for a session that does not exist: a token reveals nothing about others.
      this.reject('not-found', 'No such session.');
      return this.ws.close(closeCodes.notFound, 'not-found');
    }
    await this.join(join.data.lastSeq ?? 0);
  }

  /**
   * A chat message to a caller of the joined session (see modules/chat/sender.ts). Its refusals
   * are `chat-ack`s and do not count toward the refused frames that close a socket: a dispatcher
   * who types fast is not an abuser. A flood past every `rate-limited` answer closes it.
   */
  private onChat(payload: unknown): void {
    if (this.state === 'awaiting-join')
      return this.reject('not-joined', 'Join the session before chatting.');
    this.chat ??= new ChatSender(
      this.context.chat!,
      { from: 'dispatcher', sessionId: this.grant.sessionId, userId: this.grant.userId },
      this.context.chat!.buckets.of(
        this.grant.userId && `dispatcher:${this.grant.userId}:${this.grant.sessionId}`,
      ),
      {
        send: (event, data) => {
          if (!this.isClosed()) this.ws.send(frame(event, data));
        },
        flood: () => {
          if (this.isClosed()) return;
          this.ws.send(errorFrame('rate-limited', 'Too many chat messages.'));
          this.onClose();
          this.ws.close(closeCodes.policyViolation, 'rate-limited');
        },
      },
    );
    this.chat.receive(payload);
  }

  /** Media requests and video signalling for the joined session (see modules/media). */
  private onMedia(event: string, payload: unknown): void {
    if (this.state === 'awaiting-join')
      return this.reject('not-joined', 'Join the session before asking for media.');
    this.media ??= new DispatcherMedia(
      { ...this.context, media: this.context.media! },
      this.grant.sessionId,
      {
        send: (frameText) => {
          if (!this.isClosed()) this.ws.send(frameText, { binary: false });
        },
        reject: (error, message, issues) => this.reject(error, message, issues),
        flood: () => {
          if (this.isClosed()) return;
          this.ws.send(errorFrame('rate-limited', 'Too many media frames.'));
          this.onClose();
          this.ws.close(closeCodes.policyViolation, 'rate-limited');
        },
      },
    );
    this.media.receive(event, payload);
  }

  private async join(lastSeq: number): Promise<void> {
    this.lastSent = lastSeq;
    this.channel = this.context.sequencer.keys.channel(this.grant.sessionId);
    try {
      // Subscribe first: from here on nothing published is missed, and the catch-up below
      // covers everything before.
      await this.context.fanout.add(this.channel, this.listener);
      const replayed = await this.catchUp();
      if (this.isClosed()) return;
      this.ws.send(frame('joined', { sessionId: this.grant.sessionId, replayed }));
    } catch (error) {
      this.context.log.error({ err: error }, 'dispatcher join failed');
      this.reject(
        'service-unavailable',
        'Could not load the session history; reconnect to try again.',
      );
      this.ws.close(closeCodes.goingAway, 'service-unavailable');
    }
  }

  /** Sends everything after `lastSent` from the replay store, then what was held meanwhile. */
  private async catchUp(): Promise<number> {
    this.state = 'catching-up';
    let replayed = 0;
    do {
      this.catchUpAgain = false;
      await replaySince(this.context, this.grant.sessionId, this.lastSent, (frameBytes, seq) => {
        if (seq > this.lastSent) replayed += 1;
        return this.sendInOrder(frameBytes, seq, true);
      });
    } while (this.catchUpAgain && !this.isClosed());
    const held = this.heldDuringCatchUp.splice(0).sort((a, b) => a.seq - b.seq);
    for (const item of held) void this.sendInOrder(item.frame, item.seq, false);
    this.closeIfTransferred();
    if (this.isClosed()) return replayed;
    this.state = 'live';
    this.context.metrics.replayed.inc(replayed);
    return replayed;
  }

  /** A catch-up while live. If even that fails, the dispatcher must reconnect and rejoin. */
  private recover(): void {
    this.catchUp().catch((error: unknown) => {
      this.context.log.error({ err: error }, 'dispatcher catch-up failed');
      this.ws.close(closeCodes.goingAway, 'service-unavailable');
    });
  }

  /**
   * True when the socket holds more unsent bytes than allowed and Node has promised a 'drain'
   * (a write returned false). Both must hold: waiting for a 'drain' that was never promised
   * would wait forever.
   */
  private isBackedUp(): boolean {
    return (
      this.socket.writableNeedDrain &&
      this.ws.bufferedAmount > this.context.config.DISPATCHER_HIGH_WATER_BYTES
    );
  }

  /** Sends a frame unless the dispatcher already has it; during replay, waits for the socket to drain. */
  private sendInOrder(frameBytes: Buffer | string, seq: number, replaying: boolean): Promise<void> {
    if (seq <= this.lastSent || this.isClosed()) return Promise.resolve();
    this.ws.send(frameBytes, { binary: false });
    this.lastSent = seq;
    this.noteSent(frameBytes);
    if (replaying && this.isBackedUp()) {
      return new Promise((resolve) => {
        this.socket.once('drain', resolve);
        this.socket.once('close', resolve);
      });
    }
    return Promise.resolve();
  }

  private readonly listener = {
    /** Called for every frame published to this session, on this instance. */
    deliver: (frameBytes: Buffer, seq: number): void => {
      if (this.state === 'catching-up') {
        this.heldDuringCatchUp.push({ frame: frameBytes, seq });
        return;
      }
      if (this.state !== 'live' || seq <= this.lastSent) return;
      if (this.conflated) return this.conflate(frameBytes, seq);
      if (seq > this.lastSent + 1) {
        this.context.metrics.gapsRecovered.inc();
        this.heldDuringCatchUp.push({ frame: frameBytes, seq });
        return this.recover();
      }
      if (this.isBackedUp()) {
        this.conflated = new Map();
        this.socket.once('drain', this.flushConflated);
        return this.conflate(frameBytes, seq);
      }
      this.ws.send(frameBytes, { binary: false });
      this.lastSent = seq;
      this.noteSent(frameBytes);
      this.closeIfTransferred();
    },
    resync: (): void => {
      if (this.state === 'catching-up') this.catchUpAgain = true;
      else if (this.state === 'live') this.recover();
    },
  };

  private conflate(frameBytes: Buffer, seq: number): void {
    // The slow path only: parse to learn which caller and event this frame is about.
    const { event, data } = JSON.parse(frameBytes.toString()) as {
      event: string;
      data: { callerId?: string };
    };
    // Only a caller's latest state may stand for the frames before it; a chat message, a text,
    // an error or a transfer is news in itself, and each is kept (chat is rate-limited per sender,
    // so this stays bounded).
    const key = latestStateEvents.has(event) ? `${event}|${data.callerId ?? ''}` : `seq|${seq}`;
    if (this.conflated!.has(key)) this.context.metrics.conflated.inc();
    this.conflated!.set(key, { frame: frameBytes, seq });
  }

  private readonly flushConflated = (): void => {
    const pending = [...(this.conflated?.values() ?? [])].sort((a, b) => a.seq - b.seq);
    this.conflated = undefined;
    for (const item of pending) {
      if (item.seq <= this.lastSent || this.state !== 'live') continue;
      this.ws.send(item.frame, { binary: false });
      this.lastSent = item.seq;
      this.noteSent(item.frame);
    }
    this.closeIfTransferred();
  };

  private onClose(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.context.metrics.sockets.dec({ kind: 'dispatcher' });
    this.media?.closed();
    this.socket.off('drain', this.flushConflated);
    if (this.channel) this.context.fanout.remove(this.channel, this.listener);
    this.heldDuringCatchUp = [];
    this.conflated = undefined;
  }
}
