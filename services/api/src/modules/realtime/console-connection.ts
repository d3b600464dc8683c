import { closeCodes } from '@locus/contract';
import type { WebSocket } from 'ws';
import type { ConsoleGrant } from '../broadcasts/console-tickets';
import type { Metrics } from '../../platform/metrics';
import { errorFrame } from './frames';

/** Frames a console may send (it sends none) before it is closed with 1008. */
const IGNORED_FRAMES_BEFORE_CLOSE = 20;
/** A console this far behind on reading is not reading: it is cut off and will reconnect. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

/**
 * One console socket (`realtimePaths.console`): a signed-in console, of any layout, listening
 * for what the platform tells every console (maintenance broadcasts). It carries no session and
 * the server only writes to it; the client's frames are ignored, and a stream of them closes it.
 */
export class ConsoleConnection {
  private closed = false;
  private ignoredFrames = 0;

  constructor(
    private readonly ws: WebSocket,
    readonly grant: ConsoleGrant,
    private readonly metrics: Metrics,
  ) {
    metrics.sockets.inc({ kind: 'console' });
    ws.on('message', () => {
      this.ignoredFrames += 1;
      if (this.ignoredFrames > IGNORED_FRAMES_BEFORE_CLOSE)
        this.close(closeCodes.policyViolation, 'console-sends-nothing');
    });
    ws.on('close', () => this.markClosed());
    ws.on('error', () => undefined);
  }

  get userId(): string {
    return this.grant.userId;
  }

  get authSessionId(): string {
    return this.grant.authSessionId;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Writes one frame (JSON text); a console that stopped reading is dropped instead. */
  send(frame: string): void {
    if (this.closed) return;
    if (this.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.terminate();
      return;
    }
    this.ws.send(frame);
  }

  /** The sign-in this console belongs to ended: say so, then close as the hub does for tokens. */
  revoke(message = 'This sign-in has ended.'): void {
    if (this.closed) return;
    this.ws.send(errorFrame('invalid-token', message));
    this.markClosed();
    this.ws.close(closeCodes.invalidToken, 'revoked');
  }

  close(code: number, reason: string): void {
    this.markClosed();
    this.ws.close(code, reason);
  }

  terminate(): void {
    this.markClosed();
    this.ws.terminate();
  }

  private markClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.metrics.sockets.dec({ kind: 'console' });
  }
}
