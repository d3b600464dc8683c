import type { Redis } from 'ioredis';

export type FrameListener = (frame: Buffer, seq: number) => void;

/**
 * This instance's Redis subscriptions: one channel per session that has at least one
 * dispatcher socket here, subscribed on the first and dropped with the last.
 */
export class Fanout {
  private readonly listeners = new Map<string, Set<FrameListener>>();
  private readonly pending = new Map<string, Promise<unknown>>();

  constructor(
    private readonly subscriber: Redis,
    private readonly readSeq: (frame: Buffer) => number,
  ) {
    subscriber.on('messageBuffer', (channel: Buffer, message: Buffer) => {
      const set = this.listeners.get(channel.toString());
      if (!set) return;
      const seq = this.readSeq(message);
      for (const listener of set) listener(message, seq);
    });
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
