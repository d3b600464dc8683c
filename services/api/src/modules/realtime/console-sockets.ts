import { closeCodes, type Broadcast } from '@locus/contract';
import type { Database } from '@locus/db';
import type { FastifyBaseLogger } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { WebSocketServer } from 'ws';
import type { ConsoleTickets } from '../broadcasts/console-tickets';
import { ConsoleUsers } from '../case-transfer/console-users';
import { currentBroadcasts, liveSignIns } from '../broadcasts/repo';
import { inScope, revocationMessages, type UserRevoked } from '../sessions/revocation';
import type { Metrics } from '../../platform/metrics';
import { ConsoleConnection } from './console-connection';
import type { Fanout } from './fanout';
import type { SocketHeartbeat } from './heartbeat';
import { errorFrame, frame } from './frames';
import { ignoreSocketError, refuse, requestUrl } from './upgrade';

export interface ConsoleSocketsDeps {
  db: Database;
  log: FastifyBaseLogger;
  metrics: Metrics;
  fanout: Fanout;
  tickets: ConsoleTickets;
  /** The control channel on which any instance says that the current broadcasts changed. */
  broadcastsChannel: string;
  /** Presence and per-user delivery (case transfers), across instances. */
  users?: ConsoleUsers;
  /**
   * The hub's pings: a console whose network went away unseen is closed, and its user no
   * longer counts as online for case transfers.
   */
  heartbeat?: SocketHeartbeat;
}

/** How long after a failed re-read of the broadcasts the next one is tried. */
export const refreshRetryMs = 2_000;

/** A read of the current broadcasts; a later `generation` was started later, so it is as new. */
interface Snapshot {
  generation: number;
  list: Broadcast[];
}

/**
 * This instance's console sockets (`realtimePaths.console`): every signed-in console keeps one,
 * opened with a one-use ticket (`POST /api/v1/console/ticket`). On connect each gets the current
 * broadcasts; when any instance announces a change on the broadcasts channel, this one reads them
 * again from Postgres and sends them to all its consoles. A console whose sign-in ends (sign-out,
 * idle expiry, password change: `control:users-revoked`, through the hub) is closed with 4401.
 */
export class ConsoleSockets {
  private readonly wss = new WebSocketServer({
    noServer: true,
    // A console sends nothing; anything bigger than a stray ping is not ours.
    maxPayload: 1024,
    perMessageDeflate: false,
    clientTracking: false,
  });
  private readonly connections = new Set<ConsoleConnection>();
  /** The newest generation each socket was sent, so an older read never follows a newer one. */
  private readonly sentGeneration = new WeakMap<ConsoleConnection, number>();
  private generation = 0;
  /** The latest read started: what a new console is greeted with. */
  private latest: Promise<Snapshot> | undefined;
  /** The generation of the latest refresh: only its failure is retried (a newer one supersedes). */
  private refreshGeneration = 0;
  /** Set while a failed refresh waits to be tried again. */
  private retryTimer: NodeJS.Timeout | undefined;
  private closing = false;
  private whenEmpty: (() => void) | undefined;

  constructor(private readonly deps: ConsoleSocketsDeps) {}

  /** Listens for changes; a change missed while the subscription was down is caught by a re-read. */
  async start(): Promise<void> {
    await this.deps.fanout.control(
      this.deps.broadcastsChannel,
      () => this.refresh(),
      () => this.refresh(),
    );
    const { users } = this.deps;
    if (users) {
      // A frame for one user (a case transfer): their consoles here get it.
      await this.deps.fanout.control(users.channel, (message) => {
        const parsed = ConsoleUsers.parse(message);
        if (parsed) this.sendToUser(parsed.userId, parsed.frame);
      });
      users.startHeartbeat(
        () => this.userIds(),
        (error) => this.deps.log.error({ err: error }, 'console presence not refreshed'),
      );
    }
  }

  /** The users with a console open on this instance. */
  userIds(): Set<string> {
    return new Set([...this.connections].map((connection) => connection.userId));
  }

  sendToUser(userId: string, frame: string): void {
    for (const connection of this.connections) {
      if (connection.userId === userId) connection.send(frame);
    }
  }

  /** Presence: this instance holds (or no longer holds) a console of the user. */
  private present(userId: string, open: boolean): void {
    const { users } = this.deps;
    // Shutting down: `close` took this instance's presence off already.
    if (!users || this.closing) return;
    const still = [...this.connections].some((connection) => connection.userId === userId);
    const done = open || still ? users.here([userId]) : users.gone(userId);
    done.catch((error: unknown) =>
      this.deps.log.error({ err: error }, 'console presence not recorded'),
    );
  }

  get size(): number {
    return this.connections.size;
  }

  private read(): Promise<Snapshot> {
    const generation = ++this.generation;
    const reading = currentBroadcasts(this.deps.db).then((list) => ({ generation, list }));
    this.latest = reading;
    // A failed read is not kept: the next console or change reads again.
    reading.catch(() => {
      if (this.latest === reading) this.latest = undefined;
    });
    return reading;
  }

  /**
   * The broadcasts changed (here or on another instance): every console gets the new list. A
   * failed read is retried every `refreshRetryMs` until one succeeds, or a withdrawn warning
   * would stay up on every open console; each retry is a new read (a later generation), so
   * `send` still never lets an older list follow a newer one.
   */
  private refresh(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    if (this.closing) return;
    const reading = this.read();
    const generation = (this.refreshGeneration = this.generation);
    reading.then(
      (snapshot) => {
        for (const connection of this.connections) this.send(connection, snapshot);
      },
      (error: unknown) => {
        this.deps.log.error(
          { err: error },
          'could not read the current broadcasts; trying again shortly',
        );
        // A refresh started since then stands for this one (and retries itself if it fails).
        if (this.closing || generation !== this.refreshGeneration) return;
        clearTimeout(this.retryTimer);
        this.retryTimer = setTimeout(() => this.refresh(), refreshRetryMs);
        // A pending retry must not keep the process alive.
        this.retryTimer.unref();
      },
    );
  }

  private send(connection: ConsoleConnection, snapshot: Snapshot): void {
    if ((this.sentGeneration.get(connection) ?? 0) >= snapshot.generation) return;
    this.sentGeneration.set(connection, snapshot.generation);
    // A kept snapshot may hold a broadcast whose end time has passed since.
    const now = Date.now();
    const current = snapshot.list.filter(
      (broadcast) => broadcast.endsAt === null || Date.parse(broadcast.endsAt) > now,
    );
    connection.send(frame('broadcasts', { current }));
  }

  private async greet(connection: ConsoleConnection): Promise<void> {
    try {
      this.send(connection, await (this.latest ?? this.read()));
    } catch (error) {
      this.deps.log.error({ err: error }, 'could not read the current broadcasts');
    }
  }

  readonly handleUpgrade = (request: IncomingMessage, socket: Socket, head: Buffer): void => {
    if (this.closing) return refuse(socket, 503, 'Service Unavailable');
    const url = requestUrl(request);
    if (!url) return refuse(socket, 400, 'Bad Request');
    this.deps.tickets.redeem(url.searchParams.get('ticket')).then(
      (grant) => {
        if (this.closing) return refuse(socket, 503, 'Service Unavailable');
        this.wss.handleUpgrade(request, socket, head, (ws) => {
          if (!grant) {
            // Accept, then explain, as the hub does for tokens: a browser cannot read the
            // status of a refused upgrade.
            this.deps.metrics.framesRejected.inc({ reason: 'invalid-token' });
            // ws reads on until the close completes: a malformed frame meanwhile must not be
            // an 'error' with no listener.
            ws.on('error', ignoreSocketError);
            ws.send(
              errorFrame('invalid-token', 'This ticket is unknown, expired or already used.'),
            );
            ws.close(closeCodes.invalidToken, 'invalid-token');
            return;
          }
          const connection = new ConsoleConnection(ws, grant, this.deps.metrics);
          this.deps.heartbeat?.watch(ws, socket);
          this.connections.add(connection);
          this.present(connection.userId, true);
          ws.once('close', () => {
            this.connections.delete(connection);
            this.present(connection.userId, false);
            if (this.connections.size === 0) this.whenEmpty?.();
          });
          void this.greet(connection);
          // The sign-in may have ended between the ticket and now, announced before this socket
          // was listed: ask once more.
          void this.recheckSignIns([connection]);
        });
      },
      (error: unknown) => {
        this.deps.log.error({ err: error }, 'console ticket lookup failed');
        refuse(socket, 503, 'Service Unavailable');
      },
    );
  };

  /** A `control:users-revoked` message (read by the hub): close that user's consoles in scope. */
  revokeUser(revoked: UserRevoked): void {
    for (const connection of this.connections) {
      if (connection.userId === revoked.userId && inScope(revoked.scope, connection.authSessionId))
        connection.revoke(revocationMessages[revoked.reason]);
    }
  }

  /** Closes the consoles whose sign-in no longer works (after a revocation may have been missed). */
  async recheckSignIns(connections = [...this.connections]): Promise<void> {
    if (connections.length === 0) return;
    try {
      const live = await liveSignIns(this.deps.db, [
        ...new Set(connections.map((connection) => connection.authSessionId)),
      ]);
      for (const connection of connections) {
        if (!live.has(connection.authSessionId)) connection.revoke();
      }
    } catch (error) {
      this.deps.log.error({ err: error }, 'could not re-check the sign-ins of console sockets');
    }
  }

  /** Shutdown: every console is told to go elsewhere (1001) and reconnects to another instance. */
  async close(handshakeMs = 2_000, deadlineMs = 10_000): Promise<void> {
    this.closing = true;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    // Not awaited: with Redis unreachable, shutdown must not wait on it (members age out anyway).
    void this.deps.users?.stop(this.userIds());
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
      giveUp = setTimeout(resolve, deadlineMs);
    });
    clearTimeout(cutOff);
    clearTimeout(giveUp);
  }
}
