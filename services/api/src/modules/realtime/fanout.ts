import type { Redis } from 'ioredis';
import { unstamp } from './frames';

export interface FrameListener {
  /** Called for every frame published to the channel while this instance is subscribed. */
  deliver(frame: Buffer, seq: number): void;
  /**
   * Called after the subscription was lost and restored (Redis restarted, or dropped this
   * connection): whatever was published in between never arrived, so the listener must catch up.
   */
  resync(): void;
}

/**
 * This instance's Redis subscriptions: one channel per session that has at least one
 * dispatcher socket here, subscribed on the first and dropped with the last.
 */
export class Fanout {
  private readonly listeners = new Map<string, Set<FrameListener>>();
  /** Channels every instance listens to for its whole life (e.g. "session ended"). */
  private readonly controls = new Map<string, (message: string) => void>();
  /** What to do, per control channel, about messages that may have been missed while it was down. */
  private readonly controlResyncs = new Map<string, () => void>();
  private readonly pending = new Map<string, Promise<unknown>>();
  private connectedBefore = false;

  constructor(
    private readonly subscriber: Redis,
    private readonly readSeq: (frame: Buffer) => number,
    /** A fix's frame was handed to this instance's sockets, `ms` after it was accepted. */
    private readonly onDelivered?: (ms: number) => void,
  ) {
    subscriber.on('messageBuffer', (channel: Buffer, message: Buffer) => {
      const name = channel.toString();
      const control = this.controls.get(name);
      if (control) return control(message.toString());
      const set = this.listeners.get(name);
      if (!set) return;
      const { acceptedAtMs, frame } = unstamp(message);
      const seq = this.readSeq(frame);
      for (const listener of set) listener.deliver(frame, seq);
      // Once per frame and instance, not per socket: the sends above are synchronous writes.
      if (acceptedAtMs > 0) this.onDelivered?.(Math.max(0, Date.now() - acceptedAtMs));
    });
    // Already connected (the instance did other work before building this): the next 'ready' is
    // a reconnection, after which the subscriptions must be restored.
    this.connectedBefore = subscriber.status === 'ready';
    subscriber.on('ready', () => {
      if (this.connectedBefore) void this.resubscribe();
      this.connectedBefore = true;
    });
  }

  /**
   * Pub/sub delivers at most once: frames published while the connection was down are gone.
   * Subscribe again explicitly (so Redis has confirmed before anyone reads the replay stream),
   * then let every listener fetch what it missed.
   */
  private async resubscribe(): Promise<void> {
    const channels = [...this.listeners.keys()];
    const all = [...channels, ...this.controls.keys()];
    if (all.length === 0) return;
    try {
      await this.subscriber.subscribe(...all);
    } catch {
      return; // the connection dropped again; the next 'ready' retries
    }
    for (const channel of channels) {
      for (const listener of this.listeners.get(channel) ?? []) listener.resync();
    }
    for (const resync of this.controlResyncs.values()) resync();
  }

  /**
   * Listens to `channel` until the instance stops; resolves once Redis confirms. `resync` runs
   * after a lost subscription is restored: a message published meanwhile never arrived.
   */
  async control(
    channel: string,
    handler: (message: string) => void,
    resync?: () => void,
  ): Promise<void> {
    this.controls.set(channel, handler);
    if (resync) this.controlResyncs.set(channel, resync);
    await this.subscriber.subscribe(channel);
  }

  get channels(): number {
    return this.listeners.size;
  }

  /** Resolves once Redis confirms the subscription: from then on, no published frame is missed. */
  async add(channel: string, listener: FrameListener): Promise<void> {
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
      const subscribing = this.subscriber
        .subscribe(channel)
        .finally(() => this.pending.delete(channel));
      this.pending.set(channel, subscribing);
    }
    set.add(listener);
    await this.pending.get(channel);
  }

  remove(channel: string, listener: FrameListener): void {
    const set = this.listeners.get(channel);
    if (!set) return;
    set.delete(listener);
    if (set.size === 0) {
      this.listeners.delete(channel);
      void this.subscriber.unsubscribe(channel).catch(() => undefined);
    }
  }
}

/**
 * The ids in a control message (a JSON array of strings). Anything else, say from an instance of
 * another version during a rolling deploy, is no ids rather than an exception thrown inside the
 * Redis client's message event, which would stop the instance.
 */
export function idsIn(message: string): string[] {
  try {
    const parsed: unknown = JSON.parse(message);
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}
