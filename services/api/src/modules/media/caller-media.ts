import { mediaCallerClientEvents, type ErrorCode } from '@locus/contract';
import { zodIssues } from '../../http/errors';
import type { RealtimeContext } from '../realtime/context';
import { frame } from '../realtime/frames';
import { publishSessionEvent } from '../realtime/session-publisher';
import { recordMediaConsent } from './consent-receipt';
import type { CallerPeer, MediaRelay } from './relay';
import { SignalBucket } from './signal-bucket';

export interface CallerMediaOutput {
  send(frameText: string): void;
  reject(error: ErrorCode, message: string, issues?: { path: string; message: string }[]): void;
  /** Refused past every `rate-limited` answer: close the socket. */
  flood(): void;
}

type Context = RealtimeContext & { media: MediaRelay };

/**
 * A caller socket's media frames (issue 19): the answer to a request and the video's state are
 * sequenced session events, handled in the socket's frame order (caller-connection.ts awaits
 * them); signals to a viewer are relayed beside that order, in their own, with their own
 * allowance. The socket also receives, from any instance, what is for this caller: requests,
 * viewers, their signals, and `video-stop`.
 */
export class CallerMedia {
  private readonly bucket = new SignalBucket();
  /** Signals are relayed one after another: an offer must reach its viewer before its candidates. */
  private signals: Promise<void> = Promise.resolve();
  private readonly peer: CallerPeer;
  /** Consent receipts being stored, beside the socket's frames (see `answer`). */
  private readonly receipts = new Set<Promise<void>>();

  constructor(
    private readonly context: Context,
    private readonly grant: { sessionId: string; callerId: string },
    private readonly output: CallerMediaOutput,
    /** The browser, as the socket's upgrade request said: kept on consent receipts. */
    private readonly userAgent: string | null = null,
  ) {
    this.peer = { ...grant, send: (frameText) => output.send(frameText) };
    context.media.addCaller(this.peer);
  }

  closed(): void {
    this.context.media.removeCaller(this.peer);
  }

  /** Resolves once every signal received so far is relayed or refused, and receipts stored. */
  async settled(): Promise<void> {
    await this.signals;
    await Promise.all(this.receipts);
  }

  /** `media-answer`: the open request's answer, published as `media-answered`. */
  async answer(payload: unknown): Promise<void> {
    const body = mediaCallerClientEvents['media-answer'].safeParse(payload);
    if (!body.success)
      return this.output.reject('invalid-frame', 'Invalid media-answer.', zodIssues(body.error));
    const { sessionId, callerId } = this.grant;
    const { requestId, answer } = body.data;
    const receivedAt = Date.now();
    const request = await this.context.media.takeRequest(sessionId, callerId, requestId);
    if (!request)
      return this.output.reject(
        'not-found',
        'No such media request: it was answered already, replaced or has expired.',
      );
    // Sound only for video, only when the dispatcher asked for it and the caller allowed it.
    const audio =
      request.kind === 'video' && request.audio && answer === 'allowed' && body.data.audio;
    try {
      await publishSessionEvent(this.context, this.grant, 'media-answered', {
        kind: request.kind,
        requestId,
        answer,
        audio,
      });
    } catch (error) {
      // The page sends its answer again after reconnecting: the request must still be open.
      await this.context.media.restoreRequest(sessionId, callerId, request).catch(() => undefined);
      throw error;
    }
    if (answer !== 'allowed') return;
    // Beside the frames, not before the next one: a slow Postgres must not hold the caller's
    // fixes (issue 16). The `media-answered` event is in the log whatever becomes of it.
    const receipt = recordMediaConsent(
      this.context.db,
      this.grant,
      // As it was shown: with the sound note when the dispatcher asked for sound.
      request,
      this.userAgent,
      receivedAt,
    ).catch((error: unknown) =>
      this.context.log.error(
        { err: error, ...this.grant },
        'a media consent receipt was not stored',
      ),
    );
    this.receipts.add(receipt);
    void receipt.finally(() => this.receipts.delete(receipt));
  }

  /** `video-state`: the caller's video started, fell back to stills, or the caller stopped it. */
  async videoState(payload: unknown): Promise<void> {
    const body = mediaCallerClientEvents['video-state'].safeParse(payload);
    if (!body.success)
      return this.output.reject('invalid-frame', 'Invalid video-state.', zodIssues(body.error));
    const { sessionId, callerId } = this.grant;
    const { state, videoId = '', resent = false } = body.data;
    // Stored before it is announced: a dispatcher who watches on seeing it finds the video running.
    const { outcome, undo } = await this.context.media.reportVideo(sessionId, callerId, {
      state,
      videoId,
      resent,
    });
    // A video stopped while the page was away (the dispatcher's Stop did not reach it).
    if (outcome === 'stop-page') return this.output.send(frame('video-stop', {}));
    if (outcome === 'quiet') return;
    try {
      await publishSessionEvent(this.context, this.grant, 'video-state', {
        state,
        // Said again without a video: the page was reloaded, and its camera went with it.
        by: resent && state === 'stopped' ? 'network' : 'caller',
      });
    } catch (error) {
      // The page says it again after reconnecting: it must be news then too.
      await undo().catch(() => undefined);
      throw error;
    }
  }

  /** `video-signal` to one viewer of this caller: refused unless it is one. */
  signal(payload: unknown): void {
    const allowed = this.bucket.take();
    if (allowed === 'flood') return this.output.flood();
    if (allowed === 'refused')
      return this.output.reject('rate-limited', 'Too many video signals; slow down.');
    const body = mediaCallerClientEvents['video-signal'].safeParse(payload);
    if (!body.success)
      return this.output.reject('invalid-frame', 'Invalid video-signal.', zodIssues(body.error));
    const { viewerId, signal } = body.data;
    const { sessionId, callerId } = this.grant;
    const relayed = frame('video-signal', { callerId, viewerId, signal });
    this.signals = this.signals
      .then(async () => {
        const published = await this.context.media.callerToViewer(
          sessionId,
          callerId,
          viewerId,
          relayed,
        );
        if (!published)
          this.output.reject(
            'not-found',
            'No such viewer of this caller’s video (it may have left).',
          );
      })
      .catch((error: unknown) => {
        this.context.log.warn({ err: error }, 'a video signal was not relayed');
        this.output.reject(
          'service-unavailable',
          'The video signal was not relayed; send it again.',
        );
      });
  }
}
