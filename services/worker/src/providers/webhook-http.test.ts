import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress, postWebhook } from './webhook-http';

// The SSRF guard (issue 15): a team's webhook never reaches this machine or the deployment's
// networks unless the deployment allows it (tests, a local receiver), and a slow receiver holds
// a delivery no longer than its timeout.

let server: Server;
let requests = 0;
let port: number;

beforeAll(async () => {
  server = createServer((request, response) => {
    requests += 1;
    if (request.url === '/slow') return void setTimeout(() => response.end(), 2_000);
    response.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const strict = { timeoutMs: 1_000, allowPrivate: false, allowHttp: true };

describe('webhook addresses', () => {
  it('tells public addresses from private, loopback, link-local and reserved ones', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111'])
      expect(isPublicAddress(address), address).toBe(true);
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::ffff:7f00:1',
      '64:ff9b::a9fe:a9fe',
      '2002:7f00:1::',
      'not an address',
    ])
      expect(isPublicAddress(address), address).toBe(false);
  });

  it('never connects to this machine, by address or by name, unless allowed', async () => {
    const before = requests;
    expect(await postWebhook(`http://127.0.0.1:${port}/`, {}, '{}', strict)).toMatchObject({
      ok: false,
      error: 'blocked: a private address',
    });
    expect(await postWebhook(`http://[::1]:${port}/`, {}, '{}', strict)).toMatchObject({
      ok: false,
    });
    const byName = await postWebhook(`http://localhost:${port}/`, {}, '{}', strict);
    expect(byName).toMatchObject({ ok: false });
    expect(byName.ok ? '' : byName.error).toBe('blocked: not a public address');
    expect(await postWebhook(`http://[::ffff:127.0.0.1]:${port}/`, {}, '{}', strict)).toMatchObject(
      { ok: false },
    );
    expect(requests).toBe(before);
    expect(
      await postWebhook(`http://127.0.0.1:${port}/`, {}, '{}', { ...strict, allowPrivate: true }),
    ).toEqual({ ok: true, statusCode: 204 });
    expect(requests).toBe(before + 1);
  });

  it('refuses plain http unless allowed, and gives up on a slow receiver at its timeout', async () => {
    expect(
      await postWebhook(`http://127.0.0.1:${port}/`, {}, '{}', {
        ...strict,
        allowPrivate: true,
        allowHttp: false,
      }),
    ).toMatchObject({ ok: false, error: 'blocked: not an https: address' });
    const slow = await postWebhook(`http://127.0.0.1:${port}/slow`, {}, '{}', {
      ...strict,
      allowPrivate: true,
      timeoutMs: 300,
    });
    // The receiver would have answered 204 at 2 s: the delivery did not wait for it.
    expect(slow).toMatchObject({ ok: false, statusCode: null, error: 'no answer in time' });
  });
});
