import WebSocket from 'ws';

export interface ReceivedFrame {
  event: string;
  data: Record<string, unknown> & { seq?: number };
}

/**
 * A test client for either socket: records every frame and the close code, and lets a test
 * wait for a frame that matches. Waits are bounded by vitest's test timeout, never by sleeps.
 */
export class TestSocket {
  readonly frames: ReceivedFrame[] = [];
  private readonly counts = new Map<string, number>();
  /** Frames that arrived as binary: a browser hands those to `onmessage` as a Blob, not text. */
  binaryFrames = 0;
  closeCode: number | undefined;
  closeReason = '';
  private waiters: {
    match: (frame: ReceivedFrame) => boolean;
    resolve: (frame: ReceivedFrame) => void;
  }[] = [];
  private closeWaiters: ((code: number) => void)[] = [];
  private readonly listeners: ((frame: ReceivedFrame) => void)[] = [];
  /** The server's pings received so far (answered, unless the socket is `silent`). */
  pingsReceived = 0;
  private pingWaiters: { count: number; resolve: () => void }[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      if (isBinary) this.binaryFrames += 1;
      const frame = JSON.parse(data.toString()) as ReceivedFrame;
      this.frames.push(frame);
      this.counts.set(frame.event, (this.counts.get(frame.event) ?? 0) + 1);
      for (const listener of this.listeners) listener(frame);
      this.waiters = this.waiters.filter((waiter) => {
        if (!waiter.match(frame)) return true;
        waiter.resolve(frame);
        return false;
      });
    });
    ws.on('close', (code, reason) => {
      this.closeCode = code;
      this.closeReason = reason.toString();
      for (const resolve of this.closeWaiters.splice(0)) resolve(code);
    });
    ws.on('error', () => undefined);
    ws.on('ping', () => {
      this.pingsReceived += 1;
      this.pingWaiters = this.pingWaiters.filter((waiter) => {
        if (this.pingsReceived < waiter.count) return true;
        waiter.resolve();
        return false;
      });
    });
  }

  /** Resolves once the server has pinged this socket `count` times in all. */
  pinged(count: number): Promise<void> {
    if (this.pingsReceived >= count) return Promise.resolve();
    return new Promise((resolve) => this.pingWaiters.push({ count, resolve }));
  }

  /**
   * `headers`: what a browser's upgrade request would carry, e.g. its `user-agent`.
   * `silent`: never answers the server's pings, as a phone whose network went away unseen.
   */
  static open(
    url: string,
    headers?: Record<string, string>,
    { silent = false }: { silent?: boolean } = {},
  ): Promise<TestSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { ...(headers ? { headers } : {}), autoPong: !silent });
      const socket = new TestSocket(ws);
      ws.once('open', () => resolve(socket));
      ws.once('error', reject);
    });
  }

  send(event: string, data: unknown): void {
    this.ws.send(JSON.stringify({ event, data }));
  }

  /** Calls `listener` with every frame from now on (a client's own bookkeeping). */
  onFrame(listener: (frame: ReceivedFrame) => void): void {
    this.listeners.push(listener);
  }

  sendRaw(text: string | Buffer): void {
    this.ws.send(text);
  }

  /** Resolves with the first frame (already received or future) that matches. */
  next(match: (frame: ReceivedFrame) => boolean): Promise<ReceivedFrame> {
    const seen = this.frames.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  event(name: string): Promise<ReceivedFrame> {
    return this.next((frame) => frame.event === name);
  }

  /** Resolves once `count` frames of this event have arrived. */
  async count(name: string, count: number): Promise<ReceivedFrame[]> {
    await this.next(() => this.countOf(name) >= count);
    return this.of(name);
  }

  countOf(name: string): number {
    return this.counts.get(name) ?? 0;
  }

  of(name: string): ReceivedFrame[] {
    return this.frames.filter((frame) => frame.event === name);
  }

  closed(): Promise<number> {
    if (this.closeCode !== undefined) return Promise.resolve(this.closeCode);
    return new Promise((resolve) => this.closeWaiters.push(resolve));
  }

  close(): Promise<number> {
    this.ws.close();
    return this.closed();
  }

  /** Drops the connection without a close handshake, as a lost network would. */
  terminate(): Promise<number> {
    this.ws.terminate();
    return this.closed();
  }
}

/** A fix from a phone `index` seconds into the call, moving north-east. */
export function fixAt(base: number, index: number): Record<string, number> {
  return {
    latitude: 38.9 + index * 0.0001,
    longitude: -77.03 + index * 0.0001,
    accuracy: 12 + (index % 5),
    altitude: 40 + index,
    capturedAt: base + index * 1000,
  };
}
