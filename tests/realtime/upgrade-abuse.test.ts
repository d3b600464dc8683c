import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { realtimePaths } from '@locus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, testRedisPrefix, type TestApi } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';

/**
 * Requests that, before they were handled, stopped the whole API instance with an uncaught
 * exception: no token needed, one request each. Spoken byte by byte, as a hostile client would.
 */
let database: TestDatabase;
let api: TestApi;

beforeAll(async () => {
  database = await freshDatabase();
  api = await startApi({ databaseUrl: database.url, redisPrefix: testRedisPrefix() });
});

afterAll(async () => {
  await api?.close();
  await database?.drop();
});

const port = () => Number(new URL(api.url).port);

/** Sends a websocket upgrade for `target`; resolves with the socket and the response head. */
async function upgrade(target: string): Promise<{ socket: Socket; head: string }> {
  const socket = connect(port(), '127.0.0.1');
  socket.on('error', () => undefined);
  let received = Buffer.alloc(0);
  const head = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.off('data', onData);
      resolve(received.subarray(0, end).toString('latin1'));
    };
    socket.on('data', onData);
    socket.once('close', () => reject(new Error(`closed before an answer: ${String(received)}`)));
  });
  socket.write(
    [
      `GET ${target} HTTP/1.1`,
      `Host: 127.0.0.1:${port()}`,
      'Connection: Upgrade',
      'Upgrade: websocket',
      'Sec-WebSocket-Version: 13',
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
      '',
      '',
    ].join('\r\n'),
  );
  return { socket, head: await head };
}

/** A masked text frame with RSV1 set, which no extension was agreed for: a protocol error. */
function badFrame(): Buffer {
  const payload = Buffer.from('{}');
  const mask = randomBytes(4);
  const masked = Buffer.from(payload.map((byte, index) => byte ^ mask[index % 4]!));
  return Buffer.concat([Buffer.from([0xc1, 0x80 | payload.length]), mask, masked]);
}

const closed = (socket: Socket) =>
  new Promise<void>((resolve) => {
    if (socket.destroyed) return resolve();
    socket.once('close', () => resolve());
  });

async function stillServing(): Promise<void> {
  const health = await fetch(`${api.url}/api/v1/health`);
  expect(health.status).toBe(200);
}

describe('upgrade requests that used to stop the instance', () => {
  it('answers a target the URL parser refuses with 400', async () => {
    for (const target of ['//[', '//%00/api/v1/socket']) {
      const { socket, head } = await upgrade(target);
      expect(head).toMatch(/^HTTP\/1\.1 400 /);
      await closed(socket);
    }
    await stillServing();
  });

  it.each([
    ['dispatcher socket, unknown token', `${realtimePaths.dispatcher}?token=${'x'.repeat(43)}`],
    ['caller socket, no token', realtimePaths.caller],
    ['console socket, unknown ticket', `${realtimePaths.console}?ticket=nope`],
  ])('survives a malformed frame sent while it refuses a %s', async (_name, target) => {
    const { socket, head } = await upgrade(target);
    // Accepted, then refused with a close: until the close completes, the server still reads.
    expect(head).toMatch(/^HTTP\/1\.1 101 /);
    socket.write(badFrame());
    await closed(socket);
    await stillServing();
  });
});
