import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What every fake vendor server shares: a real HTTP server on a free loopback port, its URL,
 * and a close that does not wait for keep-alive sockets. Each fake speaks its vendor's protocol
 * in `handle`.
 */
export abstract class HttpFake {
  private readonly server = createServer((request, response) => {
    // A client that goes away mid-request (or `close()` cutting one) rejects the body read:
    // the fake drops that request instead of failing the run with an unhandled rejection.
    this.handle(request, response).catch(() => response.destroy());
  });

  /** Starts a fake of this class: `await FakeTwilio.start()`. */
  static async start<T extends HttpFake>(this: new () => T): Promise<T> {
    const fake = new this();
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  protected abstract handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
}

/** The whole request body as text. */
export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}

/** A JSON answer, unless the client has gone (a test closed it mid-request). */
export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  if (response.destroyed) return;
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(body === undefined ? '' : JSON.stringify(body));
}
