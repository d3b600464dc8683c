import type { FrameListener } from '../realtime/fanout';
import type { RealtimeContext } from '../realtime/context';
import { replaySince } from '../realtime/replay';
import { chatEventOf } from './service';

type Held = { frame: Buffer; seq: number };

/**
 * A caller socket's chat events (`chat-join { lastSeq }`): this caller's `chat-opened`,
 * `chat-message` and `chat-translation` after `lastSeq` from the session's replay store, then
 * live from the session's channel, exactly once and in seq order; never another caller's. It
 * works like a dispatcher socket's catch-up (dispatcher-connection.ts): subscribe first, replay,
 * then send what was held meanwhile; a gap in the live seqs or a lost subscription means
 * pub/sub dropped something, and the feed catches up again. `seen` counts every event of the
 * session (the caller is sent only its own chat), so gaps are measured on the session's seq.
 */
export class CallerChatFeed {
  private state: 'idle' | 'catching-up' | 'live' | 'closed' = 'idle';
  private seen = 0;
  private held: Held[] = [];
  private catchUpAgain = false;
  private channel: string | undefined;

  constructor(
    private readonly context: Pick<RealtimeContext, 'db' | 'sequencer' | 'fanout' | 'log'>,
    private readonly grant: { sessionId: string; callerId: string },
    private readonly send: (frame: Buffer | string) => void,
    /** The replay store could not be read: the feed is idle again, and the page may join again. */
    private readonly failed: () => void,
  ) {}

  get joined(): boolean {
    return this.state !== 'idle';
  }

  async join(lastSeq: number): Promise<void> {
    if (this.state !== 'idle') return;
    this.seen = lastSeq;
    this.channel = this.context.sequencer.keys.channel(this.grant.sessionId);
    try {
      await this.context.fanout.add(this.channel, this.listener);
      await this.catchUp();
    } catch (error) {
      this.context.log.error({ err: error }, 'caller chat join failed');
      this.reset();
    }
  }

  private async catchUp(): Promise<void> {
    this.state = 'catching-up';
    do {
      this.catchUpAgain = false;
      await replaySince(this.context, this.grant.sessionId, this.seen, (frame, seq) => {
        this.offer(frame, seq);
        return Promise.resolve();
      });
    } while (this.catchUpAgain && this.state === 'catching-up');
    if (this.state !== 'catching-up') return;
    const held = this.held.splice(0).sort((a, b) => a.seq - b.seq);
    this.state = 'live';
    for (const item of held) this.offer(item.frame, item.seq);
  }

  /** Sends the frame if it is news and this caller's chat; either way, it has been seen. */
  private offer(frame: Buffer | string, seq: number): void {
    if (seq <= this.seen || this.state === 'closed') return;
    this.seen = seq;
    if (chatEventOf(frame, this.grant.callerId)) this.send(frame);
  }

  private recover(): void {
    this.catchUp().catch((error: unknown) => {
      this.context.log.error({ err: error }, 'caller chat catch-up failed');
      this.reset();
    });
  }

  private readonly listener: FrameListener = {
    deliver: (frame, seq) => {
      if (this.state === 'catching-up') {
        this.held.push({ frame, seq });
        return;
      }
      if (this.state !== 'live' || seq <= this.seen) return;
      if (seq > this.seen + 1) {
        this.held.push({ frame, seq });
        return this.recover();
      }
      this.offer(frame, seq);
    },
    resync: () => {
      if (this.state === 'catching-up') this.catchUpAgain = true;
      else if (this.state === 'live') this.recover();
    },
  };

  /**
   * Back to `idle` after a failure, unsubscribed: the socket (and the caller's location stream)
   * stays open, and a `chat-join` starts over from the page's own last seq.
   */
  private reset(): void {
    if (this.state === 'closed') return;
    this.state = 'idle';
    if (this.channel) this.context.fanout.remove(this.channel, this.listener);
    this.channel = undefined;
    this.held = [];
    this.failed();
  }

  close(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    if (this.channel) this.context.fanout.remove(this.channel, this.listener);
    this.held = [];
  }
}
