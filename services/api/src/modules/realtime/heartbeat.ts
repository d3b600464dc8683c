import { WebSocket } from 'ws';

/**
 * Pings every watched socket each `everyMs`; a socket that has not answered the previous ping
 * is cut off, and closes like any other. A phone that lost its network without a word (a
 * half-open socket: nothing tells the server) would otherwise count as open for ever: its caller
 * shown connected after the page that replaced it closed, its seat in the link's socket cap
 * taken, its presence lease renewed. Browsers answer pings themselves, whatever the page's code
 * is doing. `everyMs` 0: no pings.
 */
export class SocketHeartbeat {
  private readonly sockets = new Set<WebSocket>();
  private readonly unanswered = new Set<WebSocket>();
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

  watch(ws: WebSocket): void {
    this.sockets.add(ws);
    ws.on('pong', () => this.unanswered.delete(ws));
    ws.once('close', () => {
      this.sockets.delete(ws);
      this.unanswered.delete(ws);
    });
  }

  private beat(): void {
    const now = Date.now();
    // A beat that comes late means this process was stalled (a long GC, a starved CPU): the
    // answers may be waiting unread in the sockets. This round only pings; nobody is cut off
    // for the server's own delay.
    const late = this.lastBeatAt !== undefined && now - this.lastBeatAt > this.everyMs * 1.5;
    this.lastBeatAt = now;
    if (late) this.unanswered.clear();
    for (const ws of this.sockets) {
      if (ws.readyState !== WebSocket.OPEN) continue;
      if (this.unanswered.has(ws)) {
        ws.terminate();
        continue;
      }
      this.unanswered.add(ws);
      ws.ping();
    }
  }
}
