import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FixQueue, type FixStore } from './fix-queue';
import { LocationSharing } from './location-sharing';

/** Storage that holds nothing: the queue lives in memory. */
const noStore: FixStore = {
  load: async () => [],
  put: () => undefined,
  delete: () => undefined,
  deleteLink: () => undefined,
};

/** Just enough of a browser WebSocket, opened and closed by the test. */
class FakeWebSocket {
  static readonly OPEN = 1;
  static readonly made: FakeWebSocket[] = [];
  readyState = 0;
  sent: { event: string; data: unknown }[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((message: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor() {
    FakeWebSocket.made.push(this);
  }
  open(): void {
    this.readyState = FakeWebSocket.OPEN;
    this.onopen?.();
  }
  send(raw: string): void {
    this.sent.push(JSON.parse(raw) as FakeWebSocket['sent'][number]);
  }
  close(): void {
    this.readyState = 3;
  }
  /** The network drops the connection. */
  lose(): void {
    this.readyState = 3;
    this.onclose?.({ code: 1006 });
  }
}

const events = (ws: FakeWebSocket) => ws.sent.map((frame) => frame.event);
const allEvents = () => FakeWebSocket.made.flatMap(events);

/** The frames the page had sent, on every socket, each time it asked for the position. */
let sentWhenAsked: string[][];

beforeEach(() => {
  vi.useFakeTimers();
  FakeWebSocket.made.length = 0;
  sentWhenAsked = [];
  const listeners = { addEventListener: () => undefined, removeEventListener: () => undefined };
  vi.stubGlobal('WebSocket', FakeWebSocket);
  vi.stubGlobal('window', {
    ...listeners,
    isSecureContext: true,
    location: { protocol: 'https:', host: 'locus.test' },
  });
  vi.stubGlobal('document', { ...listeners, visibilityState: 'visible' });
  vi.stubGlobal('localStorage', {
    getItem: () => null,
    setItem: () => undefined,
    removeItem: () => undefined,
  });
  let watches = 0;
  vi.stubGlobal('navigator', {
    geolocation: {
      watchPosition: () => {
        sentWhenAsked.push(allEvents());
        return (watches += 1);
      },
      clearWatch: () => undefined,
    },
  });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

async function page() {
  const queue = FixQueue.open('link-prompt', noStore);
  await queue.ready;
  return new LocationSharing('link-prompt', queue);
}

describe('the caller page tells the server it asked for the position (prompt-shown)', () => {
  it('once, before asking, on the socket the page opened with', async () => {
    const sharing = await page();
    sharing.resume();
    FakeWebSocket.made[0]!.open();

    sharing.start();
    expect(sentWhenAsked).toHaveLength(1);
    expect(sentWhenAsked[0]!.filter((event) => event === 'prompt-shown')).toHaveLength(1);
    expect(FakeWebSocket.made[0]!.sent).toContainEqual({ event: 'prompt-shown', data: {} });

    // Stop, then Share again: asked again, not told again.
    sharing.stop();
    sharing.start();
    expect(sentWhenAsked).toHaveLength(2);
    expect(allEvents().filter((event) => event === 'prompt-shown')).toHaveLength(1);
    sharing.destroy();
  });

  it('queued while the socket is not open yet, sent once it opens, and not again on a reconnect', async () => {
    const sharing = await page();
    sharing.start();
    expect(sentWhenAsked).toEqual([[]]);

    const first = FakeWebSocket.made[0]!;
    first.open();
    expect(events(first).filter((event) => event === 'prompt-shown')).toHaveLength(1);
    // Said before any position could follow: sharing, focus, then the prompt.
    expect(events(first).indexOf('prompt-shown')).toBeGreaterThan(events(first).indexOf('sharing'));

    first.lose();
    await vi.advanceTimersByTimeAsync(1_000);
    const second = FakeWebSocket.made[1]!;
    second.open();
    expect(events(second)).toContain('sharing');
    expect(events(second)).not.toContain('prompt-shown');
    sharing.destroy();
  });
});
