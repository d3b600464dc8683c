import type { CallerServerFrame } from '@locus/contract/caller';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CallerSocket, type CallerSocketListener } from './caller-socket';
import { FixQueue, type FixStore } from './fix-queue';

/** Storage that holds nothing: the queue lives in memory. */
const noStore: FixStore = {
  load: async () => [],
  put: () => undefined,
  delete: () => undefined,
  deleteLink: () => undefined,
};

/** Just enough of a browser WebSocket for CallerSocket, opened and answered by the test. */
class FakeWebSocket {
  static readonly OPEN = 1;
  readyState = 0;
  sent: { event: string; data: { n?: number; fixes?: { n?: number }[] } }[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((message: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onerror: (() => void) | null = null;
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
  answer(frame: CallerServerFrame): void {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
}

const fix = (second: number) => ({
  latitude: 38.9,
  longitude: -77.03,
  accuracy: 10,
  capturedAt: Date.UTC(2026, 10, 24, 14, 0, second),
});

let now = 1_000;

beforeEach(() => {
  vi.stubGlobal('WebSocket', FakeWebSocket);
  vi.spyOn(performance, 'now').mockImplementation(() => now);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function connected() {
  const queue = FixQueue.open('link-a', noStore);
  await queue.ready;
  let ws: FakeWebSocket | null = null;
  const listener: CallerSocketListener = {
    onConnection: () => undefined,
    onEnded: () => undefined,
    onRevoked: () => undefined,
    onQueue: () => undefined,
    onRefused: () => undefined,
  };
  const socket = new CallerSocket('ws://test', queue, listener, () => true, {
    createSocket: () => {
      ws = new FakeWebSocket();
      return ws as unknown as WebSocket;
    },
  });
  socket.connect();
  ws!.open();
  return { socket, ws: ws! };
}

describe('how long fixes have waited for the server (the offer to text them)', () => {
  it('counts from the oldest fix not acked, by the page’s monotonic clock', async () => {
    const { socket, ws } = await connected();
    expect(socket.unackedSince).toBeNull();
    now = 2_000;
    socket.sendFix(fix(1));
    now = 3_000;
    socket.sendFix(fix(2));
    expect(socket.unackedSince).toBe(2_000);
    ws.answer({ event: 'ack', data: { n: 1, outcome: 'stored' } });
    expect(socket.unackedSince).toBe(3_000);
    ws.answer({ event: 'ack', data: { n: 2, outcome: 'duplicate' } });
    expect(socket.unackedSince).toBeNull();
    socket.close();
  });

  it('a refused fix still counts as not got through, until the server takes a later one', async () => {
    const { socket, ws } = await connected();
    now = 2_000;
    socket.sendFix(fix(1));
    ws.answer({ event: 'ack', data: { n: 1, outcome: 'refused', reason: 'in the future' } });
    expect(socket.unackedSince).toBe(2_000);
    now = 5_000;
    socket.sendFix(fix(2));
    ws.answer({ event: 'ack', data: { n: 2, outcome: 'refused', reason: 'in the future' } });
    expect(socket.unackedSince).toBe(2_000);
    now = 9_000;
    socket.sendFix(fix(3));
    ws.answer({ event: 'ack', data: { n: 3, outcome: 'stored' } });
    expect(socket.unackedSince).toBeNull();
    socket.close();
  });
});

describe('the chat on the caller socket', () => {
  it('joins after every open from the last seq seen, and resends what was not stored', async () => {
    const queue = FixQueue.open('link-chat', noStore);
    await queue.ready;
    const sockets: FakeWebSocket[] = [];
    const socket = new CallerSocket(
      'ws://test',
      queue,
      {
        onConnection: () => undefined,
        onEnded: () => undefined,
        onRevoked: () => undefined,
        onQueue: () => undefined,
        onRefused: () => undefined,
      },
      () => true,
      {
        createSocket: () => {
          const ws = new FakeWebSocket();
          sockets.push(ws);
          return ws as unknown as WebSocket;
        },
      },
    );
    let lastSeq = 0;
    const unsent = [{ clientId: '00000000-0000-4000-8000-000000000009', text: 'hola' }];
    const frames: string[] = [];
    socket.attachChat({
      lastSeq: () => lastSeq,
      unsent: () => unsent,
      onFrame: (frame) => frames.push(frame.event),
      // CallerChat sends its waiting messages (a few at a time) once the socket has joined.
      joined: () => {
        for (const { clientId, text } of unsent) socket.sendChat(clientId, text);
      },
    });
    socket.connect();
    // Before the socket opens nothing can be sent: the message waits for the join.
    expect(socket.sendChat(unsent[0]!.clientId, 'hola')).toBe(false);
    sockets[0]!.open();
    expect(sockets[0]!.sent.map((frame) => frame.event)).toEqual([
      'tab-focus',
      'chat-join',
      'chat',
    ]);
    expect(sockets[0]!.sent[1]!.data).toEqual({ lastSeq: 0 });
    sockets[0]!.answer({
      event: 'chat-opened',
      data: { seq: 4, sessionId: unsent[0]!.clientId, callerId: unsent[0]!.clientId },
    });
    expect(frames).toEqual(['chat-opened']);

    lastSeq = 4;
    sockets[0]!.onclose?.({ code: 1006 });
    socket.reconnectNow();
    sockets[1]!.open();
    expect(sockets[1]!.sent.filter((frame) => frame.event.startsWith('chat'))).toEqual([
      { event: 'chat-join', data: { lastSeq: 4 } },
      { event: 'chat', data: { clientId: unsent[0]!.clientId, text: 'hola' } },
    ]);
    socket.close();
  });
});

describe('a link open in several tabs (close 4409: a newer socket took this one’s place)', () => {
  /** A socket whose page is visible or not as the test says; every socket it opens is kept. */
  async function tab(visible: { now: boolean }) {
    const queue = FixQueue.open('link-tabs', noStore);
    await queue.ready;
    const sockets: FakeWebSocket[] = [];
    const states: string[] = [];
    const socket = new CallerSocket(
      'ws://test',
      queue,
      {
        onConnection: (state) => states.push(state),
        onEnded: () => undefined,
        onRevoked: () => undefined,
        onQueue: () => undefined,
        onRefused: () => undefined,
      },
      () => visible.now,
      {
        createSocket: () => {
          const ws = new FakeWebSocket();
          sockets.push(ws);
          return ws as unknown as WebSocket;
        },
      },
    );
    socket.connect();
    sockets[0]!.open();
    return { socket, sockets, states };
  }

  beforeEach(() => {
    vi.useFakeTimers();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('a hidden tab that is not sharing gives way, and takes the link back when the caller looks at it', async () => {
    const visible = { now: false };
    const { socket, sockets, states } = await tab(visible);
    sockets[0]!.onclose?.({ code: 4409 });
    expect(socket.connection).toBe('superseded');
    // No reconnect, however long it waits, and not when the network comes back either.
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    socket.reconnectNow();
    expect(sockets).toHaveLength(1);
    expect(states.at(-1)).toBe('superseded');

    // The caller comes back to this tab: it connects at once and is the page that counts.
    visible.now = true;
    socket.reconnectNow();
    expect(sockets).toHaveLength(2);
    sockets[1]!.open();
    expect(socket.connection).toBe('connected');
    expect(sockets[1]!.sent[0]).toEqual({ event: 'tab-focus', data: { focused: true } });
    socket.close();
  });

  it('the visible tab takes the link back after a pause', async () => {
    const { socket, sockets } = await tab({ now: true });
    sockets[0]!.onclose?.({ code: 4409 });
    expect(socket.connection).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sockets).toHaveLength(2);
    socket.close();
  });

  it('a hidden sharing tab keeps every fix it has not sent and sends them once it is back', async () => {
    const { socket, sockets } = await tab({ now: false });
    socket.setSharing(true);
    socket.sendFix(fix(1));
    sockets[0]!.onclose?.({ code: 4409 });
    // A fix taken while it is pushed out waits in the queue.
    socket.sendFix(fix(2));
    expect(socket.connection).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(1_000);
    sockets[1]!.open();
    const sent = sockets[1]!.sent.flatMap((frame) =>
      frame.event === 'fixes' ? frame.data.fixes!.map((each) => each.n) : [],
    );
    expect(sockets[1]!.sent[0]).toEqual({ event: 'sharing', data: { sharing: true } });
    expect(sent).toEqual([1, 2]);
    socket.close();
  });

  it('a tab that gave way takes the link back when the caller shares from it', async () => {
    const visible = { now: false };
    const { socket, sockets } = await tab(visible);
    sockets[0]!.onclose?.({ code: 4409 });
    expect(socket.connection).toBe('superseded');
    socket.setSharing(true);
    expect(sockets).toHaveLength(2);
    sockets[1]!.open();
    expect(sockets[1]!.sent[0]).toEqual({ event: 'sharing', data: { sharing: true } });
    socket.close();
  });

  it('tabs that all have a claim take the link back ever more slowly, not in a tight loop', async () => {
    const { socket, sockets } = await tab({ now: false });
    socket.setSharing(true);
    const pauses: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      sockets.at(-1)!.onclose?.({ code: 4409 });
      const before = sockets.length;
      let waited = 0;
      while (sockets.length === before) {
        await vi.advanceTimersByTimeAsync(500);
        waited += 500;
      }
      pauses.push(waited);
      sockets.at(-1)!.open();
    }
    expect(pauses).toEqual([1_000, 2_000, 5_000, 10_000, 10_000]);
    socket.close();
  });
});
