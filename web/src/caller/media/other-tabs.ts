/**
 * The tabs of one caller link tell each other which camera they have open. A duplicated tab
 * starts with a copy of its original's session storage, camera record included, and would
 * otherwise say that video went with a reload while the original still films. So before it says
 * so, it asks: a tab that has that camera open answers at once.
 *
 * Without BroadcastChannel (old browsers, or Firefox with cookies blocked, where the constructor
 * throws) nobody answers, and a reload is reported as before.
 */
export class OtherTabs {
  private readonly channel: BroadcastChannel | null;
  private closed = false;

  constructor(name: string, hasOpen: (videoId: string) => boolean) {
    this.channel = openChannel(name);
    this.channel?.addEventListener('message', (event: MessageEvent<unknown>) => {
      const asked = idIn(event.data, 'ask');
      if (asked && hasOpen(asked)) this.channel?.postMessage({ open: asked });
    });
  }

  /**
   * Whether another tab says it has `videoId` open within `withinMs`. A live tab answers within
   * milliseconds; one frozen in the background does not, and its camera is paused anyway.
   */
  hasElsewhere(videoId: string, withinMs = 300): Promise<boolean> {
    const channel = this.channel;
    if (!channel || this.closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const finish = (open: boolean) => {
        clearTimeout(timer);
        channel.removeEventListener('message', onMessage);
        resolve(open);
      };
      const onMessage = (event: MessageEvent<unknown>) => {
        if (idIn(event.data, 'open') === videoId) finish(true);
      };
      const timer = setTimeout(() => finish(false), withinMs);
      channel.addEventListener('message', onMessage);
      channel.postMessage({ ask: videoId });
    });
  }

  close(): void {
    this.closed = true;
    this.channel?.close();
  }
}

function openChannel(name: string): BroadcastChannel | null {
  try {
    return typeof BroadcastChannel === 'function' ? new BroadcastChannel(name) : null;
  } catch {
    // SecurityError where storage is refused: the caller's page must go on without it.
    return null;
  }
}

function idIn(data: unknown, field: 'ask' | 'open'): string | null {
  if (typeof data !== 'object' || data === null) return null;
  const value = (data as Record<string, unknown>)[field];
  return typeof value === 'string' ? value : null;
}
