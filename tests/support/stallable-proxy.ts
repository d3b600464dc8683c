import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy in front of one server (Postgres, here) that can stall like a hung database: while
 * stalled, nothing moves in either direction and new connections wait, but nothing is closed.
 * One API instance can point at it while the rest of the suite uses the real server, which a
 * SIGSTOP of the shared Postgres process would stall as well.
 */
export interface StallableProxy {
  /** `url` with its host and port replaced by the proxy's. */
  url: string;
  stall(): void;
  /**
   * Like a stopped Postgres: every open connection is reset and new ones are closed at once,
   * until `resume()`.
   */
  down(): void;
  resume(): void;
  close(): Promise<void>;
}

export async function stallableProxy(url: string): Promise<StallableProxy> {
  const target = new URL(url);
  const sockets = new Set<Socket>();
  // What arrived while stalled, in order, with where it goes: sent on resume.
  const held: [to: Socket, chunk: Buffer][] = [];
  const waiting: (() => void)[] = [];
  let stalled = false;
  let refusing = false;

  const forward = (from: Socket, to: Socket) =>
    from.on('data', (chunk: Buffer) => (stalled ? held.push([to, chunk]) : to.write(chunk)));

  const server: Server = createServer((client) => {
    if (refusing) {
      client.on('error', () => undefined);
      client.resetAndDestroy();
      return;
    }
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    const open = () => {
      const upstream = connect(Number(target.port || 5432), target.hostname);
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      upstream.on('error', () => undefined);
      forward(client, upstream);
      forward(upstream, client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    };
    if (stalled) {
      // Reads nothing until resumed: the client's first bytes wait in the kernel.
      client.pause();
      waiting.push(() => {
        open();
        client.resume();
      });
    } else open();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(port);

  return {
    url: proxied.toString(),
    stall: () => {
      stalled = true;
    },
    down: () => {
      refusing = true;
      for (const socket of sockets) socket.resetAndDestroy();
    },
    resume: () => {
      refusing = false;
      stalled = false;
      for (const [to, chunk] of held.splice(0)) to.write(chunk);
      for (const open of waiting.splice(0)) open();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
