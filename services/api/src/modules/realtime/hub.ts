import { closeCodes, realtimeLimits, realtimePaths } from '@locus/contract';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  callerSocketClosed,
  callerSocketOpened,
  findGrant,
  tokenStates,
  type ConnectionGrant,
  type TokenKind,
} from '../sessions/repo';
import {
  inScope,
  parseSessionTransferred,
  parseUserRevoked,
  revocationMessages,
} from '../sessions/revocation';
import { stopVideoOfEndedSession } from '../media/session-end';
import { hashToken, looksLikeToken } from '../sessions/tokens';
import { CallerConnection } from './caller-connection';
import { CallerPresence } from './caller-presence';
import type { ConsoleSockets } from './console-sockets';
import type { RealtimeContext } from './context';
import { DispatcherConnection } from './dispatcher-connection';
import { idsIn } from './fanout';
import { errorFrame } from './frames';
import { SocketHeartbeat } from './heartbeat';
import { TokenSocketCap } from './socket-caps';
import { ignoreSocketError, refuse, requestUrl } from './upgrade';

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
  private readonly socketCap: TokenSocketCap;
  /** The token each socket opened with, for a re-check after a lost revocation message. */
  private readonly tokenHashes = new Map<DispatcherConnection | CallerConnection, Buffer>();
  private closing = false;
  /** Database writes about caller sockets still in flight. */
  private readonly bookkeeping = new Set<Promise<void>>();
  private whenEmpty: (() => void) | undefined;
  private readonly presence: CallerPresence;

  constructor(
    private readonly context: RealtimeContext,
    /** Every signed-in console's socket (maintenance broadcasts), when this instance has them. */
    private readonly consoles?: ConsoleSockets,
    /** Pings this hub's sockets (and the consoles', which share it): see `SocketHeartbeat`. */
    private readonly heartbeat = new SocketHeartbeat(context.config.SOCKET_HEARTBEAT_MS),
  ) {
    this.socketCap = new TokenSocketCap(context);
    this.presence = new CallerPresence(context.db, context.log);
  }

  /** Listens for ended sessions, on every instance: their sockets may be anywhere. */
  async start(): Promise<void> {
    const { keys } = this.context.sequencer;
    await this.context.fanout.control(keys.sessionEnded(), (sessionId) => {
      this.endLocally(sessionId);
      // Every instance tries; the one that takes the running-video set records the stop.
      void stopVideoOfEndedSession(this.context, sessionId);
    });
    await this.context.media?.start(this.context.fanout);
    await this.context.fanout.control(keys.callersRevoked(), (message) => {
      const callerIds = new Set(idsIn(message));
      for (const connection of this.connections) {
        if (connection instanceof CallerConnection && callerIds.has(connection.callerId))
          connection.revoke();
      }
    });
    await this.context.fanout.control(
      keys.usersRevoked(),
      (message) => this.revokeUserLocally(message),
      // A revocation published while this instance's subscription was down never arrived:
      // every open dispatcher socket's token is checked again (one that merely expired while
      // its socket was open keeps it, as it would have without the outage).
      () => {
        void this.recheckDispatchers();
        void this.consoles?.recheckSignIns();
      },
    );
    await this.socketCap.start();
    await this.consoles?.start();
    this.presence.start();
    this.heartbeat.start();
  }

  /**
   * Closes a user's dispatcher sockets whose tokens were revoked (sessions/revocation.ts): those
   * issued to the auth sessions in the revocation's scope, not the user's other consoles.
   */
  private revokeUserLocally(message: string): void {
    const transferred = parseSessionTransferred(message);
    if (transferred) {
      for (const connection of this.connections) {
        if (
          connection instanceof DispatcherConnection &&
          connection.sessionId === transferred.sessionId &&
          connection.userId === transferred.userId
        )
          connection.transferred();
      }
      return;
    }
    const revoked = parseUserRevoked(message);
    if (!revoked) return;
    // The consoles of those sign-ins close too (their console sockets, see console-sockets.ts).
    this.consoles?.revokeUser(revoked);
    for (const connection of this.connections) {
      if (
        connection instanceof DispatcherConnection &&
        connection.userId === revoked.userId &&
        inScope(revoked.scope, connection.authSessionId)
      )
        connection.revoke(revocationMessages[revoked.reason]);
    }
  }

  private async recheckDispatchers(): Promise<void> {
    const dispatchers = [...this.connections].filter(
      (connection) => connection instanceof DispatcherConnection,
    );
    await this.recheck(dispatchers, ['revoked']);
  }

  /** Closes the sockets of callers whose links were revoked, wherever they are. */
  async revokeCallers(callerIds: string[]): Promise<void> {
    await this.context.sequencer.announceCallersRevoked(callerIds);
  }

  /** Ends a session everywhere: its caller pages show that it ended, its consoles close. */
  async endSession(sessionId: string): Promise<void> {
    await this.context.sequencer.announceEnded(sessionId);
  }

  private endLocally(sessionId: string): void {
    for (const connection of this.connections) {
      if (connection.sessionId === sessionId) connection.end();
    }
  }

  readonly handleUpgrade = (request: IncomingMessage, socket: Socket, head: Buffer): void => {
    // A function of the module, not a closure: this listener lives as long as the socket, and a
    // closure here would keep the upgrade request alive with it (see `accept`).
    socket.on('error', ignoreSocketError);
    const url = requestUrl(request);
    // A target the URL parser refuses (`//[`) would otherwise throw out of Node's 'upgrade'
    // event, which nothing catches: one request would stop the instance.
    if (!url) return refuse(socket, 400, 'Bad Request');
    if (url.pathname === realtimePaths.console && this.consoles)
      return this.consoles.handleUpgrade(request, socket, head);
    const kind = kindByPath[url.pathname];
    if (!kind) return refuse(socket, 404, 'Not Found');
    if (this.closing) return refuse(socket, 503, 'Service Unavailable');
    const token = url.searchParams.get('token');
    const lookup = looksLikeToken(token)
      ? findGrant(this.context.db, hashToken(token), kind)
      : Promise.resolve(undefined);
    lookup.then(
      (grant) => {
        if (this.closing) return refuse(socket, 503, 'Service Unavailable');
        const userAgent = request.headers['user-agent'] ?? null;
        this.wss.handleUpgrade(request, socket, head, (ws) =>
          this.accept(ws, socket, kind, token, grant, userAgent),
        );
      },
      (error: unknown) => {
        this.context.log.error({ err: error }, 'socket token lookup failed');
        refuse(socket, 503, 'Service Unavailable');
      },
    );
  };

  /**
   * A socket past its upgrade. Its own method, not a closure inside `handleUpgrade`: the closures
   * made here live as long as the socket, and would otherwise keep the upgrade request (headers,
   * URL, the first bytes) alive with them, a few KiB per idle console.
   */
  private accept(
    ws: WebSocket,
    socket: Socket,
    kind: TokenKind,
    /** Null only when it did not look like a token, and then there is no grant either. */
    token: string | null,
    grant: ConnectionGrant | undefined,
    userAgent: string | null,
  ): void {
    if (!grant || token === null || (kind === 'caller' && !grant.callerId)) {
      // Accept, then explain: a browser cannot read the status of a refused upgrade.
      this.context.metrics.framesRejected.inc({ reason: 'invalid-token' });
      // Until the peer's close frame, ws goes on reading: a malformed frame meanwhile is an
      // 'error' on `ws`, which must have a listener or it stops the process.
      ws.on('error', ignoreSocketError);
      ws.send(errorFrame('invalid-token', 'This link or token is unknown, expired or revoked.'));
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
            userAgent,
            () => this.callerOpenHere(grant.callerId!),
          );
    this.heartbeat.watch(ws, socket);
    const tokenHash = hashToken(token);
    this.connections.add(connection);
    this.tokenHashes.set(connection, tokenHash);
    if (connection instanceof CallerConnection) this.trackCaller(ws, token, grant);
    // The session may have ended, or the token been revoked, between the token check and
    // now, and that announced before this socket was listed: ask once more.
    void this.recheck([connection]);
    const released = this.socketCap.claim(connection, tokenHash);
    // Kept until what the socket sent is published (a caller's "disconnected" event
    // included), so that shutdown waits for it before closing Redis.
    ws.once('close', () => {
      this.tokenHashes.delete(connection);
      // Shutdown waits for it, before Redis is closed.
      const releasing = released();
      this.bookkeeping.add(releasing);
      void releasing.finally(() => this.bookkeeping.delete(releasing));
      void connection.settled().then(() => {
        this.connections.delete(connection);
        if (this.connections.size === 0) this.whenEmpty?.();
      });
    });
  }

  /** Ends or revokes the sockets whose session ended or whose token no longer works. */
  private async recheck(
    connections: (CallerConnection | DispatcherConnection)[],
    refused: readonly ('revoked' | 'expired')[] = ['revoked', 'expired'],
  ): Promise<void> {
    const listed = connections.flatMap((connection) => {
      const tokenHash = this.tokenHashes.get(connection);
      return tokenHash ? [{ connection, tokenHash }] : [];
    });
    if (listed.length === 0) return;
    try {
      const states = await tokenStates(
        this.context.db,
        listed.map(({ tokenHash }) => tokenHash),
      );
      for (const { connection, tokenHash } of listed) {
        const state = states.get(tokenHash.toString('hex'));
        if (state === 'ended') connection.end();
        else if ((state === 'revoked' || state === 'expired') && refused.includes(state))
          connection.revoke();
      }
    } catch (error) {
      this.context.log.error({ err: error }, 'could not re-check the tokens of sockets');
    }
  }

  /** Link opened and caller connected, for the rejoin rule; best effort, never blocks the socket. */
  private trackCaller(
    ws: { once(event: 'close', listener: () => void): unknown },
    token: string,
    grant: { sessionId: string; callerId: string | null },
  ): void {
    const { db, log } = this.context;
    const callerId = grant.callerId!;
    this.presence.opened(callerId);
    const opened = callerSocketOpened(db, hashToken(token), callerId).catch((error: unknown) =>
      log.error({ err: error }, 'could not record the caller socket opening'),
    );
    this.bookkeeping.add(opened);
    void opened.finally(() => this.bookkeeping.delete(opened));
    ws.once('close', () => {
      const lastHere = this.presence.closed(callerId);
      const closed = opened
        .then(() => callerSocketClosed(db, grant.sessionId, callerId, lastHere))
        .catch((error: unknown) =>
          log.error({ err: error }, 'could not record the caller socket closing'),
        );
      // Shutdown waits for it, so that a restart does not leave the caller "connected" until
      // the lease runs out.
      this.bookkeeping.add(closed);
      void closed.finally(() => this.bookkeeping.delete(closed));
    });
  }

  /**
   * Whether another socket of the caller on this instance will say what the caller's state is:
   * one open, or closing and about to say so itself. A superseded one never does; one whose
   * network went unseen is closed by the heartbeat.
   */
  private callerOpenHere(callerId: string): boolean {
    for (const connection of this.connections) {
      if (
        connection instanceof CallerConnection &&
        connection.callerId === callerId &&
        connection.speaksForCaller
      )
        return true;
    }
    return false;
  }

  get size(): number {
    return this.connections.size;
  }

  /**
   * Closes every socket with "going away", so clients reconnect to another instance, and
   * resolves once each socket is closed and what its caller sent is published (the
   * "disconnected" event included). A client that does not answer the close handshake within
   * `handshakeMs` is cut off; past `deadlineMs` (Redis unreachable) it stops waiting.
   */
  async close(handshakeMs = 2_000, deadlineMs = 10_000): Promise<void> {
    this.closing = true;
    this.presence.stop();
    this.heartbeat.stop();
    this.context.media?.stop();
    const consolesClosed = this.consoles?.close(handshakeMs, deadlineMs);
    for (const connection of this.connections) {
      connection.close(closeCodes.goingAway, 'server-restarting');
    }
    const cutOff = setTimeout(() => {
      for (const connection of this.connections) connection.terminate();
    }, handshakeMs);
    let giveUp: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.whenEmpty = resolve;
      if (this.connections.size === 0) resolve();
      giveUp = setTimeout(() => {
        this.context.log.error(
          { sockets: this.connections.size },
          'shutdown deadline passed before every caller event was published',
        );
        resolve();
      }, deadlineMs);
    });
    clearTimeout(cutOff);
    clearTimeout(giveUp);
    await consolesClosed;
    await Promise.all([...this.bookkeeping]);
  }
}
