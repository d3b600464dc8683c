import {
  callerClientEvents,
  closeCodes,
  Frame,
  realtimeLimits,
  type SessionEventName,
} from '@locus/contract';
import type { z } from 'zod';
import type { RawData, WebSocket } from 'ws';
import { zodIssues } from '../../http/errors';
import { CallerChatFeed } from '../chat/caller-feed';
import { ChatSender } from '../chat/sender';
import { recordConsent } from '../consent/service';
import { CallerMedia } from '../media/caller-media';
import type { RealtimeContext } from './context';
import { errorFrame, frame, locationBody } from './frames';
import { parseFrameEnvelope } from './fast-fix';
import { checkFix } from './fix-validation';
import { markCaller, type CallerMark } from './repo';
import { pageFixMarks, type Dedupe, type TextMarks } from './sequencer';
import { sequence } from './session-publisher';
import type { NewRow } from './write-journal';

type Grant = { sessionId: string; callerId: string };
type CallerConsent = z.infer<(typeof callerClientEvents)['consent']>;

/** Runs `task` until it succeeds, backing off from 1 s, for at most `forMs`; rejects with the last error. */
async function retryFor(forMs: number, task: () => Promise<void>): Promise<void> {
  const until = Date.now() + forMs;
  for (let waitMs = 1_000; ; waitMs = Math.min(waitMs * 2, 15_000)) {
    await new Promise((resolve) => setTimeout(resolve, waitMs));
    try {
      return await task();
    } catch (error) {
      if (Date.now() + waitMs > until) throw error;
    }
  }
}

/** How many fixes of a `fixes` frame cost one token of the caller's rate limit. */
const FIXES_PER_TOKEN = 10;
const maxConsentsPerSocket = 20;
/** The longest a consent receipt's store holds the caller's next frames (see keepConsent). */
const consentWaitMs = 1_000;
const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms).unref());
const tooManyFixes = 'Too many fixes at once; reconnect and send the rest again.';

/**
 * One caller's socket: every frame is validated once against the contract, then sequenced,
 * published and queued for persistence. Frames are handled one at a time, in arrival order,
 * so a caller's events keep their order in the session's sequence.
 */
export class CallerConnection {
  private queue: Promise<void> = Promise.resolve();
  private tokens: number;
  private refilledAt = Date.now();
  private closed = false;
  /**
   * Closed because a newer socket on the same link took its place (4409): the caller is still
   * connected through that one, so the dispatcher is not told "disconnected".
   */
  private superseded = false;
  /** A frame was turned away or failed: nothing more is handled on this socket (see `halt`). */
  private halted = false;
  /** `rate-limited` answers since the allowance was last full (see `rateLimited`). */
  private rateLimitedFrames = 0;
  /** The caller's funnel times (`markCaller`) this socket has recorded: each once per socket. */
  private readonly marked = new Set<CallerMark>();
  /** Consent receipts this socket has stored. */
  private consents = 0;
  /** See `beside`. */
  private readonly besides = new Set<Promise<void>>();
  /** Chat with the dispatcher (modules/chat): this caller's messages, and its chat events. */
  private readonly chat: ChatSender | undefined;
  private readonly chatFeed: CallerChatFeed | undefined;
  /** Media requests and live video (modules/media). */
  private readonly media: CallerMedia | undefined;

  constructor(
    private readonly ws: WebSocket,
    private readonly grant: Grant,
    private readonly context: RealtimeContext,
    /** The browser the page runs in, as its upgrade request said: kept on consent receipts. */
    private readonly userAgent: string | null = null,
    /**
     * Whether the caller still has a socket open on this instance (another tab of the link, or
     * the reloaded page's new socket that opened before the old one's close was seen).
     */
    private readonly stillOpenHere: () => boolean = () => false,
  ) {
    this.tokens = context.config.CALLER_EVENT_BURST;
    context.metrics.sockets.inc({ kind: 'caller' });
    if (context.chat) {
      const send = (data: Buffer | string) => {
        if (!this.closed) this.ws.send(data, { binary: false });
      };
      this.chat = new ChatSender(
        context.chat,
        { from: 'caller', ...grant },
        context.chat.buckets.of(`caller:${grant.callerId}`),
        {
          send: (event, data) => send(frame(event, data)),
          flood: () => this.halt('rate-limited', 'Too many chat messages.'),
        },
      );
      // A chat that cannot be loaded never stops the location stream: the page is told and
      // may send `chat-join` again.
      this.chatFeed = new CallerChatFeed(context, grant, send, () =>
        this.reject('service-unavailable', 'The chat could not be loaded; join it again.'),
      );
    }
    if (context.media) {
      this.media = new CallerMedia(
        { ...context, media: context.media },
        grant,
        {
          send: (data) => {
            if (!this.closed) this.ws.send(data, { binary: false });
          },
          reject: (error, message, issues) => this.reject(error, message, issues),
          flood: () => this.halt('rate-limited', 'Too many video signals.'),
        },
        userAgent,
      );
    }
    ws.on('message', (data, isBinary) => this.enqueue(() => this.onMessage(data, isBinary)));
    ws.on('close', () => this.onClose());
    ws.on('error', () => undefined);
    this.enqueue(() => this.publish('caller-connected', { connected: true }).then(() => undefined));
  }

  get sessionId(): string {
    return this.grant.sessionId;
  }

  get callerId(): string {
    return this.grant.callerId;
  }

  /**
   * Not closed yet, and not superseded: it has said, or will say when it closes, whether the
   * caller is connected. Two tabs closed at once (a revoke, a deploy) then say it once.
   */
  get speaksForCaller(): boolean {
    return !this.closed && !this.superseded;
  }

  /**
   * The link was revoked (the number texted STOP, or it was found revoked or expired just after
   * this socket opened): the page asks what became of its link.
   */
  revoke(): void {
    if (this.closed) return;
    this.ws.send(errorFrame('invalid-token', 'This link no longer works.'));
    this.ws.close(closeCodes.invalidToken, 'invalid-token');
  }

  /** The dispatcher ended the session: tell the page, then close. */
  end(): void {
    if (this.closed) return;
    // The camera goes off with tracking; the page turns it off on `session-ended` too.
    if (this.media) this.ws.send(frame('video-stop', {}));
    this.ws.send(frame('session-ended', {}));
    this.ws.close(closeCodes.sessionEnded, 'session-ended');
  }

  close(code: number, reason: string): void {
    if (code === closeCodes.superseded) this.superseded = true;
    this.ws.close(code, reason);
  }

  /** Drops the socket without waiting for the client to answer the close handshake. */
  terminate(): void {
    this.ws.terminate();
  }

  /**
   * Resolves once every frame received so far has been published, and what it wrote beside the
   * stream (funnel marks, consent receipts) is stored or given up.
   */
  async settled(): Promise<void> {
    await this.queue;
    await Promise.all(this.besides);
    await this.media?.settled();
  }

  /** Work a frame started that must not hold the frames after it, but that shutdown awaits. */
  private beside(work: Promise<void>): Promise<void> {
    this.besides.add(work);
    void work.finally(() => this.besides.delete(work));
    return work;
  }

  private enqueue(task: () => Promise<void>): void {
    this.queue = this.queue.then(task).catch((error: unknown) => {
      this.context.log.error({ err: error }, 'caller event failed');
      this.halt(
        'service-unavailable',
        'The event could not be stored; reconnect and send it again.',
      );
    });
  }

  /**
   * Stops handling this socket's frames and closes it (1013, try again later). A fix that was
   * not taken must not be overtaken by a later one: the dedupe by capture time would then drop
   * it as old when the page sends it again. The page reconnects and sends, in order, everything
   * not acked.
   */
  private halt(error: 'service-unavailable' | 'rate-limited', message: string): void {
    if (this.halted) return;
    this.halted = true;
    this.context.metrics.framesRejected.inc({ reason: error });
    if (this.closed) return;
    this.ws.send(errorFrame(error, message));
    this.ws.close(closeCodes.tryAgainLater, error);
  }

  /**
   * An event beyond the rate limit is answered `rate-limited` and the socket stays open, so a
   * page that briefly sent too much loses nothing. One that keeps sending regardless (its
   * allowance never fills up again) is closed: answering it would cost as much as serving it.
   */
  private rateLimited(): void {
    this.rateLimitedFrames += 1;
    if (this.rateLimitedFrames <= realtimeLimits.rateLimitedFramesBeforeClose)
      return this.reject('rate-limited', 'Too many events; slow down.');
    if (this.halted) return;
    this.halted = true;
    this.context.metrics.framesRejected.inc({ reason: 'rate-limited' });
    if (this.closed) return;
    this.ws.send(errorFrame('rate-limited', 'Too many events after being told to slow down.'));
    this.ws.close(closeCodes.policyViolation, 'rate-limited');
  }

  private reject(
    error: Parameters<typeof errorFrame>[0],
    message: string,
    issues?: { path: string; message: string }[],
  ): void {
    this.context.metrics.framesRejected.inc({ reason: error });
    if (!this.closed) this.ws.send(errorFrame(error, message, issues));
  }

  /**
   * A token bucket: a flood from one phone cannot crowd out everyone else's fixes. A frame costs
   * one token, a `fixes` frame one per `FIXES_PER_TOKEN` fixes (a page catching up after an
   * outage sends hundreds, and should not take minutes).
   */
  private allow(cost = 1): boolean {
    const now = Date.now();
    const { CALLER_MAX_EVENTS_PER_SECOND: rate, CALLER_EVENT_BURST: burst } = this.context.config;
    this.tokens = Math.min(burst, this.tokens + ((now - this.refilledAt) / 1000) * rate);
    this.refilledAt = now;
    // Full again: the page has backed off, and its earlier `rate-limited` answers are forgiven.
    if (this.tokens >= burst) this.rateLimitedFrames = 0;
    if (this.tokens < cost) return false;
    this.tokens -= cost;
    return true;
  }

  private async onMessage(data: RawData, isBinary: boolean): Promise<void> {
    if (this.halted) return;
    let parsed: unknown;
    try {
      if (isBinary) throw new Error('binary');
      parsed = JSON.parse(data.toString());
    } catch {
      return this.invalidFrame();
    }
    // By hand for the usual frame; zod (the contract) decides anything else.
    let envelope = parseFrameEnvelope(parsed);
    if (!envelope) {
      const outer = Frame.safeParse(parsed);
      if (!outer.success) return this.invalidFrame();
      envelope = outer.data;
    }
    const { event, data: payload } = envelope;
    // Chat has its own allowance (chat/sender.ts): a chat burst never spends the tokens the
    // location stream needs.
    // Video signals too (media/signal-bucket.ts): a video starting never costs a position.
    const ownBucket =
      event === 'fix' ||
      event === 'fixes' ||
      (event === 'chat' && this.chat) ||
      (event === 'video-signal' && this.media);
    if (!ownBucket && !this.allow()) return this.rateLimited();
    switch (event) {
      case 'fix':
        if (!this.allow()) return this.halt('rate-limited', tooManyFixes);
        return this.onFix(payload);
      case 'fixes': {
        // The envelope only: each fix is checked (and acked, or refused) on its own.
        const fixes = (payload as { fixes?: unknown } | null)?.fixes;
        if (
          !Array.isArray(fixes) ||
          fixes.length === 0 ||
          fixes.length > realtimeLimits.maxFixesPerFrame ||
          Object.keys(payload as object).length !== 1
        )
          return this.reject(
            'invalid-frame',
            `fixes must be {"fixes": [1 to ${realtimeLimits.maxFixesPerFrame} fixes]}.`,
          );
        if (!this.allow(Math.ceil(fixes.length / FIXES_PER_TOKEN)))
          return this.halt('rate-limited', tooManyFixes);
        for (const fix of fixes) await this.onFix(fix);
        return;
      }
      case 'tab-focus': {
        const body = callerClientEvents['tab-focus'].safeParse(payload);
        if (!body.success)
          return this.reject('invalid-frame', 'Invalid tab-focus.', zodIssues(body.error));
        await this.publish('is-tab-focused', { focused: body.data.focused });
        return;
      }
      case 'sharing': {
        const body = callerClientEvents.sharing.safeParse(payload);
        if (!body.success)
          return this.reject('invalid-frame', 'Invalid sharing.', zodIssues(body.error));
        await this.publish('is-sharing-location', { sharing: body.data.sharing });
        // Not `shared_at`: the page says `sharing: true` when the caller taps Share, before the
        // browser's prompt is answered. A caller has shared once a position of theirs arrives.
        return;
      }
      case 'prompt-shown': {
        // For the metrics only: recorded, not published (the dispatcher learns nothing from it).
        const body = callerClientEvents['prompt-shown'].safeParse(payload ?? {});
        if (!body.success)
          return this.reject('invalid-frame', 'Invalid prompt-shown.', zodIssues(body.error));
        void this.beside(this.mark('prompt_shown_at', new Date()));
        return;
      }
      case 'consent': {
        const body = callerClientEvents.consent.safeParse(payload);
        if (!body.success)
          return this.reject('invalid-frame', 'Invalid consent.', zodIssues(body.error));
        // A few per socket are real taps (Share, Share again, Try again); more is a script.
        if (++this.consents > maxConsentsPerSocket) return;
        return this.keepConsent(body.data);
      }
      case 'sharing-error': {
        const body = callerClientEvents['sharing-error'].safeParse(payload);
        if (!body.success)
          return this.reject('invalid-frame', 'Invalid sharing-error.', zodIssues(body.error));
        await this.publish('location-sharing-error', {
          code: body.data.code,
          message: body.data.message,
        });
        if (body.data.code === 'permission-denied')
          void this.beside(this.mark('denied_at', new Date()));
        return;
      }
      case 'device': {
        const body = callerClientEvents.device.safeParse(payload);
        if (!body.success)
          return this.reject('invalid-frame', 'Invalid device.', zodIssues(body.error));
        const { hiddenForMs, ...status } = body.data;
        const now = Date.now();
        await this.publish('caller-device', {
          ...status,
          // The phone measures how long it has been hidden; the server's clock says since when.
          hiddenSince: hiddenForMs === null ? null : new Date(now - hiddenForMs).toISOString(),
          reportedAt: new Date(now).toISOString(),
        });
        return;
      }
      case 'chat':
        // Apart from the fixes' queue: a message waiting for its translation holds no fix back.
        if (!this.chat) return this.reject('unknown-event', `Unknown event "${event}".`);
        this.chat.receive(payload);
        return;
      case 'chat-join': {
        const body = callerClientEvents['chat-join'].safeParse(payload);
        if (!body.success)
          return this.reject('invalid-frame', 'Invalid chat-join.', zodIssues(body.error));
        if (!this.chatFeed || this.chatFeed.joined)
          return this.reject('invalid-frame', 'This socket has already joined the chat.');
        void this.chatFeed.join(body.data.lastSeq);
        return;
      }
      case 'media-answer':
        if (!this.media) return this.reject('unknown-event', `Unknown event "${event}".`);
        return this.media.answer(payload);
      case 'video-state':
        if (!this.media) return this.reject('unknown-event', `Unknown event "${event}".`);
        return this.media.videoState(payload);
      case 'video-signal':
        // Relayed in its own order, beside the fixes' queue.
        if (!this.media) return this.reject('unknown-event', `Unknown event "${event}".`);
        this.media.signal(payload);
        return;
      default:
        return this.reject('unknown-event', `Unknown event "${event}".`);
    }
  }

  /** Garbage costs the rate limit like any event: answering it is not free either. */
  private invalidFrame(): void {
    if (!this.allow()) return this.rateLimited();
    this.reject('invalid-frame', 'Frames must be JSON text: {"event": …, "data": …}.');
  }

  private async onFix(payload: unknown): Promise<void> {
    const receivedAt = Date.now();
    const checked = checkFix(payload, receivedAt);
    if (!checked.ok) {
      this.reject('invalid-fix', 'The location fix is not valid.', checked.issues);
      // Refused for good: a page that queued it (offline) must not send it again forever.
      const named = fixName(payload);
      if (named && !this.closed) {
        const reason = checked.issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
        this.ws.send(frame('ack', { ...named, outcome: 'refused', reason: reason.slice(0, 200) }));
      }
      return;
    }
    const { fix, location, delayMs, clockSkewMs } = checked;
    const { sessionId, callerId } = this.grant;
    const body = JSON.stringify(
      locationBody(sessionId, callerId, location, delayMs, null, clockSkewMs),
    );
    const seq = await this.sequence(
      'new-location-available',
      body,
      // Deduped by the phone's own stamp, which a resend repeats exactly, however the resend is
      // classified; a stamp ahead of its time does not move the caller's latest, so that it
      // cannot make the fixes after it look old.
      { key: callerId, capturedAt: fix.capturedAt, exact: clockSkewMs !== null },
      // Already here if the caller texted it back while the internet failed.
      pageFixMarks(callerId, fix.capturedAt),
      {
        fix: {
          sessionId,
          callerId,
          latitude: fix.latitude,
          longitude: fix.longitude,
          uncertaintyRadiusM: fix.accuracy,
          altitude: fix.altitude ?? null,
          heading: fix.heading ?? null,
          speed: fix.speed ?? null,
          source: location.capturedFromSource,
          capturedAt: new Date(location.dateTimeCaptured),
          receivedAt: new Date(receivedAt),
          delayMs,
          clockSkewMs,
        },
      },
    );
    if (seq === 0) this.context.metrics.fixesDuplicate.inc();
    else this.context.metrics.fixesAccepted.inc();
    if (!this.closed) {
      const outcome = seq === 0 ? 'duplicate' : 'stored';
      this.ws.send(frame('ack', { capturedAt: fix.capturedAt, n: fix.n, outcome }));
    }
    // A stored fix counts as sharing too: a page sending what an earlier page queued (a reload
    // that does not share again) sends no `sharing` frame.
    if (seq !== 0) void this.beside(this.mark('shared_at', new Date(receivedAt)));
  }

  /**
   * Records one of the caller's funnel times (issue 13) once per socket: Postgres keeps the
   * first across sockets. Never awaited by the frame queue, and a failure is only logged: a
   * metric must not hold the caller's next fixes while Postgres is slow or away (issue 16).
   */
  private async mark(column: CallerMark, at: Date): Promise<void> {
    if (this.marked.has(column)) return;
    this.marked.add(column);
    try {
      await markCaller(this.context.db, this.grant, column, at);
    } catch (error) {
      this.marked.delete(column);
      this.context.log.warn({ err: error, column }, 'recording a caller metric failed');
    }
  }

  /**
   * The receipt is stored before the page's next frame is read, so that the evidence holds it
   * before any fix the tap released; but a Postgres that is slow or away holds the caller's
   * fixes for at most `consentWaitMs` (issue 16), and the store goes on beside the stream,
   * retried for a minute. Shutdown waits for it (`settled`).
   */
  private async keepConsent(consent: CallerConsent): Promise<void> {
    await Promise.race([this.beside(this.storeConsent(consent)), sleep(consentWaitMs)]);
  }

  private async storeConsent(consent: CallerConsent): Promise<void> {
    const receivedAt = Date.now();
    const store = () =>
      recordConsent(this.context.db, this.grant, consent, this.userAgent, receivedAt);
    try {
      await store();
    } catch (error) {
      this.context.log.warn({ err: error }, 'storing a consent receipt failed; retrying');
      await retryFor(60_000, store).catch((last: unknown) =>
        this.context.log.error({ err: last, ...this.grant }, 'a consent receipt was not stored'),
      );
    }
  }

  private async publish(
    event: Exclude<SessionEventName, 'new-location-available'>,
    fields: Record<string, unknown>,
  ): Promise<number> {
    const { sessionId, callerId } = this.grant;
    const payload = JSON.stringify({ sessionId, callerId, ...fields });
    return this.sequence(event, payload, undefined, undefined, {
      event: { sessionId, callerId, event, payload, createdAt: new Date() },
    });
  }

  /** Numbers, publishes, journals and queues the row for Postgres (session-publisher.ts). */
  private sequence(
    event: SessionEventName,
    bodyJson: string,
    dedupe: Dedupe | undefined,
    textMarks: TextMarks | undefined,
    row: NewRow,
  ): Promise<number> {
    return sequence(this.context, this.grant.sessionId, event, bodyJson, dedupe, textMarks, row);
  }

  private onClose(): void {
    if (this.closed) return;
    this.closed = true;
    this.chatFeed?.close();
    this.media?.closed();
    this.context.metrics.sockets.dec({ kind: 'caller' });
    if (this.superseded) return;
    // Asked when the queue reaches it, after every 'close' listener (the hub's count of this
    // caller's sockets included) has run: a tab closed beside another one that stays open does
    // not tell the dispatcher that the caller's page is gone.
    this.enqueue(async () => {
      if (this.stillOpenHere()) return;
      await this.publish('caller-connected', { connected: false });
    });
  }
}

/** The page's name for a fix it sent, read from a frame that failed validation, if it has one. */
function fixName(payload: unknown): { n?: number; capturedAt?: number } | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const { n, capturedAt } = payload as { n?: unknown; capturedAt?: unknown };
  const named: { n?: number; capturedAt?: number } = {};
  if (typeof n === 'number' && Number.isSafeInteger(n) && n > 0) named.n = n;
  if (typeof capturedAt === 'number' && Number.isFinite(capturedAt)) named.capturedAt = capturedAt;
  return named.n === undefined && named.capturedAt === undefined ? null : named;
}
