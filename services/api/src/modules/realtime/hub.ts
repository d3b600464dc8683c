import { closeCodes, realtimeLimits, realtimePaths } from '@locus/contract';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { WebSocketServer } from 'ws';
import { findGrant, type TokenKind } from '../sessions/repo';
import { hashToken, looksLikeToken } from '../sessions/tokens';
import { CallerConnection } from './caller-connection';
import type { RealtimeContext } from './context';
import { DispatcherConnection } from './dispatcher-connection';
import { errorFrame } from './frames';

const kindByPath: Record<string, TokenKind> = {
  [realtimePaths.dispatcher]: 'dispatcher',
  [realtimePaths.caller]: 'caller',
};

/** Accepts the two sockets on this instance's HTTP server and tracks them for shutdown. */
export class RealtimeHub {
  private readonly wss = new WebSocketServer({
    noServer: true,
    maxPayload: realtimeLimits.maxFrameBytes,
    // Compression would cost tens of KiB per socket; frames are a few hundred bytes.
    perMessageDeflate: false,
    clientTracking: false,
  });
  private readonly connections = new Set<DispatcherConnection | CallerConnection>();
  private closing = false;

  constructor(private readonly context: RealtimeContext) {}

  readonly handleUpgrade = (request: IncomingMessage, socket: Socket, head: Buffer): void => {
    socket.on('error', () => undefined);
    const url = new URL(request.url ?? '/', 'http://localhost');
    const kind = kindByPath[url.pathname];
    if (!kind) return refuse(socket, 404, 'Not Found');
    if (this.closing) return refuse(socket, 503, 'Service Unavailable');
    const token = url.searchParams.get('token');
    const lookup = looksLikeToken(token)
      ? findGrant(this.context.db, hashToken(token), kind)
      : Promise.resolve(undefined);
    lookup.then(
      (grant) => {
        this.wss.handleUpgrade(request, socket, head, (ws) => {
          if (!grant || (kind === 'caller' && !grant.callerId)) {
            // Accept, then explain: a browser cannot read the status of a refused upgrade.
            this.context.metrics.framesRejected.inc({ reason: 'invalid-token' });
            ws.send(
              errorFrame('invalid-token', 'This link or token is unknown, expired or revoked.'),
            );
            ws.close(closeCodes.invalidToken, 'invalid-token');
            return;
          }
          const connection =
            kind === 'dispatcher'
              ? new DispatcherConnection(ws, socket, grant, this.context)
              : new CallerConnection(
                  ws,
                  { sessionId: grant.sessionId, callerId: grant.callerId! },
                  this.context,
                );
          this.connections.add(connection);
          // Kept until what the socket sent is published (a caller's "disconnected" event
          // included), so that shutdown waits for it before closing Redis.
          ws.once('close', () => {
            void connection.settled().then(() => this.connections.delete(connection));
          });
        });
      },
      (error: unknown) => {
        this.context.log.error({ err: error }, 'socket token lookup failed');
        refuse(socket, 503, 'Service Unavailable');
      },
    );
  };

  get size(): number {
    return this.connections.size;
  }

  /**
   * Closes every socket with "going away", so clients reconnect to another instance, and
   * resolves once what callers had sent is published (their "disconnected" event included).
   */
  async close(): Promise<void> {
    this.closing = true;
    const open = [...this.connections];
    for (const connection of open) connection.close(closeCodes.goingAway, 'server-restarting');
    await new Promise<void>((resolve) => setImmediate(resolve));
    await Promise.all(open.map((connection) => connection.settled()));
  }
}

function refuse(socket: Socket, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
