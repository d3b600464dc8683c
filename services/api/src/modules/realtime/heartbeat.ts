import type { Socket } from 'node:net';
import { WebSocket } from 'ws';

interface Watched {
  socket: Socket;
  /** No answer yet to the last ping. */
  unanswered: boolean;
  /** `socket.bytesWritten` at the last beat. */
  written: number;
}

/**
 * Pings every watched socket each `everyMs`; a socket that has not answered the previous ping
 * is cut off, and closes like any other. A phone or console whose network went away without a
 * word (a half-open socket: nothing tells the server) would otherwise count as open for ever: a
 * caller shown connected after the page that replaced it closed, a dispatcher still "online"
 * for case transfers, a seat in the link's socket cap, a presence lease renewed. Browsers answer
 * pings themselves, whatever the page's code is doing. `everyMs` 0: no pings.
 *
 * A ping waits behind what is already queued for that socket. A slow but alive link (a
 * dispatcher catching up on a weak network) is kept while data still drains to it; a half-open
 * one stops draining once the kernel's buffer is full.
 */
export class SocketHeartbeat {
  /** The sockets, in `slices` groups pinged in turn, so that a beat is never one long burst. */
  private readonly groups: Map<WebSocket, Watched>[] = Array.from(
    { length: slices },
    () => new Map(),
  );
  private added = 0;
  private tick = 0;
  private timer: NodeJS.Timeout | undefined;
  private lastTickAt: number | undefined;

  constructor(private readonly everyMs: number) {}

  start(): void {
    if (this.everyMs <= 0) return;
    this.timer ??= setInterval(() => this.beat(), this.everyMs / slices);
    // Never what keeps a stopping process alive.
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.lastTickAt = undefined;
  }

  watch(ws: WebSocket, socket: Socket): void {
    const entry: Watched = { socket, unanswered: false, written: socket.bytesWritten };
    const group = this.groups[this.added++ % slices]!;
    group.set(ws, entry);
    ws.on('pong', () => {
      entry.unanswered = false;
    });
    ws.once('close', () => group.delete(ws));
  }

  /** One group per tick: each socket is pinged every `everyMs`. */
  private beat(): void {
    const now = Date.now();
    const tickMs = this.everyMs / slices;
    // A tick that comes late means this process was stalled (a long GC, a starved CPU): the
    // answers may be waiting unread. This group is only pinged; nobody is cut off for the
    // server's own delay.
    const late = this.lastTickAt !== undefined && now - this.lastTickAt > tickMs * 1.5;
    this.lastTickAt = now;
    const group = this.groups[this.tick++ % slices]!;
    // Decided after the sockets' pending input is read (timers run before I/O in a turn of
    // the event loop): an answer that arrived in time is never taken for a missing one.
    setImmediate(() => this.sweep(group, late));
  }

  private sweep(group: Map<WebSocket, Watched>, late: boolean): void {
    for (const [ws, entry] of group) {
      if (ws.readyState !== WebSocket.OPEN) continue;
      const { socket } = entry;
      const draining = socket.writableLength > 0 && socket.bytesWritten > entry.written;
      entry.written = socket.bytesWritten;
      if (entry.unanswered && !late && !draining) {
        ws.terminate();
        continue;
      }
      entry.unanswered = true;
      ws.ping();
    }
  }
}

/**
 * Groups pinged in turn within a period. A beat pinging every socket at once (10,000 on a busy
 * instance) would be one burst of writes in a single turn of the event loop, which a fix
 * arriving then waits out; a tenth of them at a time makes that wait a tenth as long.
 */
const slices = 10;
