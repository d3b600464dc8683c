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
  private readonly watched = new Map<WebSocket, Watched>();
  private timer: NodeJS.Timeout | undefined;
  private lastBeatAt: number | undefined;

  constructor(private readonly everyMs: number) {}

  start(): void {
    if (this.everyMs <= 0) return;
    this.timer ??= setInterval(() => this.beat(), this.everyMs);
    // Never what keeps a stopping process alive.
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.lastBeatAt = undefined;
  }

  watch(ws: WebSocket, socket: Socket): void {
    const entry: Watched = { socket, unanswered: false, written: socket.bytesWritten };
    this.watched.set(ws, entry);
    ws.on('pong', () => {
      entry.unanswered = false;
    });
    ws.once('close', () => this.watched.delete(ws));
  }

  private beat(): void {
    const now = Date.now();
    // A beat that comes late means this process was stalled (a long GC, a starved CPU): the
    // answers may be waiting unread. This round only pings; nobody is cut off for the server's
    // own delay.
    const late = this.lastBeatAt !== undefined && now - this.lastBeatAt > this.everyMs * 1.5;
    this.lastBeatAt = now;
    // Decided after the sockets' pending input is read (timers run before I/O in a turn of
    // the event loop): an answer that arrived in time is never taken for a missing one.
    setImmediate(() => this.sweep(late));
  }

  private sweep(late: boolean): void {
    for (const [ws, entry] of this.watched) {
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
