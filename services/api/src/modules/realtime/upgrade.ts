import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/**
 * A socket's or a refused ws's errors: a reset connection surfaces as `close`, which the
 * connection handles; the error itself is not news, and must not stop the process.
 */
export function ignoreSocketError(): void {}

/** The upgrade request's URL, or null when its target is not one (`//[`). */
export function requestUrl(request: IncomingMessage): URL | null {
  try {
    return new URL(request.url ?? '/', 'http://localhost');
  } catch {
    return null;
  }
}

/** Refuses an upgrade with a plain HTTP status, and closes. */
export function refuse(socket: Socket, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
