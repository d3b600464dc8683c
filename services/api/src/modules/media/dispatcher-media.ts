import { mediaDispatcherClientEvents, type ErrorCode } from '@locus/contract';
import { randomUUID } from 'node:crypto';
import { zodIssues } from '../../http/errors';
import type { RealtimeContext } from '../realtime/context';
import { frame } from '../realtime/frames';
import { publishSessionEvent } from '../realtime/session-publisher';
import type { MediaRelay } from './relay';
import { findMediaTarget } from './media-target';
import { SignalBucket } from './signal-bucket';

export interface DispatcherMediaOutput {
  send(frameText: string): void;
  reject(error: ErrorCode, message: string, issues?: { path: string; message: string }[]): void;
  /** Refused past every `rate-limited` answer: close the socket. */
  flood(): void;
}

type Context = RealtimeContext & { media: MediaRelay };
type MediaEvent = keyof typeof mediaDispatcherClientEvents;

/** The dispatcher socket's frames handled here. */
export const dispatcherMediaEvents: ReadonlySet<string> = new Set(
  Object.keys(mediaDispatcherClientEvents),
);

/**
 * A joined dispatcher socket's media frames (issue 19): asking the session's caller for video
 * or a photo, watching the caller's video (one viewer id per socket and caller), its signals to
 * the caller, and stopping the video. Every frame costs the socket's media allowance; they are
 * handled one at a time, in arrival order (an answer must reach the caller before its
 * candidates). When the socket closes its viewers leave, and the callers' pages are told.
 */
export class DispatcherMedia {
  private readonly bucket = new SignalBucket();
  private queue: Promise<void> = Promise.resolve();
  /** This socket's viewer id per caller it watches. */
  private readonly viewers = new Map<string, string>();
  private closedAlready = false;

  constructor(
    private readonly context: Context,
    private readonly sessionId: string,
    private readonly output: DispatcherMediaOutput,
  ) {}

  receive(event: string, payload: unknown): void {
    const allowed = this.bucket.take();
    if (allowed === 'flood') return this.output.flood();
    if (allowed === 'refused')
      return this.output.reject('rate-limited', 'Too many media frames; slow down.');
    this.queue = this.queue
      .then(() => this.handle(event as MediaEvent, payload))
      .catch((error: unknown) => {
        this.context.log.warn({ err: error, event }, 'a media frame failed');
        this.output.reject('service-unavailable', `The ${event} failed; send it again.`);
      });
  }

  private async handle(event: MediaEvent, payload: unknown): Promise<void> {
    if (this.closedAlready) return;
    switch (event) {
      case 'media-request':
        return this.request(payload);
      case 'video-watch':
        return this.watch(payload);
      case 'video-signal':
        return this.signal(payload);
      case 'video-stop':
        return this.stop(payload);
    }
  }

  private invalid(event: MediaEvent, error: Parameters<typeof zodIssues>[0]): void {
    this.output.reject('invalid-frame', `Invalid ${event}.`, zodIssues(error));
  }

  /** The caller must be this session's, and the session running; else false (and answered). */
  private async checkCaller(callerId: string): Promise<boolean> {
    const target = await findMediaTarget(this.context.db, this.sessionId, callerId);
    if (!target) {
      this.output.reject('not-found', 'No such caller in this session.');
      return false;
    }
    if (!target.sessionActive) {
      this.output.reject('conflict', 'This tracking session has ended.');
      return false;
    }
    return true;
  }

  private async request(payload: unknown): Promise<void> {
    const body = mediaDispatcherClientEvents['media-request'].safeParse(payload);
    if (!body.success) return this.invalid('media-request', body.error);
    const { callerId, kind } = body.data;
    if (!(await this.checkCaller(callerId))) return;
    const audio = kind === 'video' && body.data.audio;
    // The request id is in the log before the caller can answer it, so `media-answered` always
    // follows its `media-requested` in the session's sequence.
    const request = { requestId: randomUUID(), kind, audio };
    await publishSessionEvent(
      this.context,
      { sessionId: this.sessionId, callerId },
      'media-requested',
      request,
    );
    await this.context.media.request(this.sessionId, callerId, request);
  }

  private async watch(payload: unknown): Promise<void> {
    const body = mediaDispatcherClientEvents['video-watch'].safeParse(payload);
    if (!body.success) return this.invalid('video-watch', body.error);
    const { callerId } = body.data;
    const { media } = this.context;
    const watched = await media.watch(
      this.sessionId,
      callerId,
      (frameText) => this.output.send(frameText),
      this.viewers.get(callerId),
    );
    if (watched === 'not-running') {
      this.viewers.delete(callerId);
      // A caller of another session has no video here either: the same answer reveals nothing.
      return this.output.reject('conflict', 'This caller’s video is not running.');
    }
    if (watched === 'full') {
      this.viewers.delete(callerId);
      return this.output.reject(
        'conflict',
        'This caller’s video already has as many viewers as it can send to.',
      );
    }
    const { viewerId } = watched;
    this.viewers.set(callerId, viewerId);
    // The socket went while Redis was slow: `closed()` gives the seat back (its task runs after
    // this frame, and reads `viewers`).
    if (this.closedAlready) return;
    // Each side gets its own credentials; the dispatcher first, so that its peer connection
    // exists when the caller's offer arrives.
    this.output.send(
      frame('video-viewer', { callerId, viewerId, iceServers: media.iceServers(this.sessionId) }),
    );
    await media.toCaller(
      this.sessionId,
      callerId,
      frame('video-viewer', { viewerId, iceServers: media.iceServers(this.sessionId) }),
    );
  }

  private async signal(payload: unknown): Promise<void> {
    const body = mediaDispatcherClientEvents['video-signal'].safeParse(payload);
    if (!body.success) return this.invalid('video-signal', body.error);
    const { callerId, signal } = body.data;
    const viewerId = this.viewers.get(callerId);
    if (!viewerId) return this.output.reject('not-found', 'Watch this caller’s video first.');
    const published = await this.context.media.viewerToCaller(
      this.sessionId,
      callerId,
      viewerId,
      frame('video-signal', { viewerId, signal }),
    );
    if (!published) {
      this.viewers.delete(callerId);
      this.output.reject('not-found', 'This socket no longer watches that caller’s video.');
    }
  }

  private async stop(payload: unknown): Promise<void> {
    const body = mediaDispatcherClientEvents['video-stop'].safeParse(payload);
    if (!body.success) return this.invalid('video-stop', body.error);
    const { callerId } = body.data;
    if (!(await this.checkCaller(callerId))) return;
    await this.context.media.stopVideo(this.sessionId, callerId);
    await publishSessionEvent(
      this.context,
      { sessionId: this.sessionId, callerId },
      'video-state',
      { state: 'stopped', by: 'dispatcher' },
    );
  }

  /** The socket closed: its viewers leave (after any frame still being handled). */
  closed(): void {
    if (this.closedAlready) return;
    this.closedAlready = true;
    this.queue = this.queue.then(async () => {
      for (const [callerId, viewerId] of this.viewers)
        await this.context.media
          .unwatch(this.sessionId, callerId, viewerId)
          .catch((error: unknown) =>
            this.context.log.warn({ err: error }, 'could not tell a caller its viewer left'),
          );
      this.viewers.clear();
    });
  }

  settled(): Promise<void> {
    return this.queue;
  }
}
