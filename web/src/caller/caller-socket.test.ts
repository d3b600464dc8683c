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
