import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Where a team's webhook may not go (SSRF): this machine, the deployment's private networks,
 * link-local (cloud metadata at 169.254.169.254), carrier-grade NAT, multicast and reserved
 * ranges, in IPv4 and IPv6 (and IPv4 written as IPv6).
 */
const forbidden = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  forbidden.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  // IPv4 inside IPv6 (NAT64, 6to4, Teredo) could carry any of the ranges above.
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['2002::', 16],
  ['2001::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  forbidden.addSubnet(network, prefix, 'ipv6');

export function isPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPublicAddress(mapped[1]!);
  // The same, written in hex as URL parsers do (::ffff:7f00:1 is 127.0.0.1).
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex) {
    const [high, low] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
    return isPublicAddress(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`);
  }
  const family = isIP(address);
  if (family === 0) return false;
  return !forbidden.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export type WebhookResponse =
  { ok: true; statusCode: number } | { ok: false; statusCode: number | null; error: string };

export interface WebhookPostOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  allowHttp: boolean;
}

class Blocked extends Error {}

/**
 * Resolves the name and refuses a forbidden address at connection time, so that a name that
 * resolved to a public address when checked cannot connect to a private one (DNS rebinding).
 */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    const allowed = addresses.filter((entry) => isPublicAddress(entry.address));
    if (allowed.length === 0)
      // Not which address: the partner must not learn what the deployment's names resolve to.
      return callback(new Blocked('not a public address'), '', 0);
    if (options.all) return callback(null, allowed as unknown as string);
    return callback(null, allowed[0]!.address, allowed[0]!.family);
  });
};

/** POSTs one delivery. 2xx is delivered; anything else (or no answer in time) is a failure. */
export function postWebhook(
  target: string,
  headers: Record<string, string>,
  body: string,
  options: WebhookPostOptions,
): Promise<WebhookResponse> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return Promise.resolve({ ok: false, statusCode: null, error: 'not a valid address' });
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && options.allowHttp))
    return Promise.resolve({
      ok: false,
      statusCode: null,
      error: 'blocked: not an https: address',
    });
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) && !options.allowPrivate && !isPublicAddress(literal))
    return Promise.resolve({ ok: false, statusCode: null, error: 'blocked: a private address' });
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'Locus-Webhooks/1',
        },
        timeout: options.timeoutMs,
        signal: AbortSignal.timeout(options.timeoutMs),
        ...(options.allowPrivate ? {} : { lookup: guardedLookup }),
      },
      (response) => {
        // Read and drop the answer (bounded by the timeout): its body is not ours to keep.
        response.resume();
        response.on('end', () => {
          const statusCode = response.statusCode ?? 0;
          resolve(
            statusCode >= 200 && statusCode < 300
              ? { ok: true, statusCode }
              : { ok: false, statusCode, error: `answered ${statusCode}` },
          );
        });
        response.on('error', (error) =>
          resolve({ ok: false, statusCode: null, error: error.message }),
        );
      },
    );
    request.on('timeout', () => request.destroy(new Error('no answer in time')));
    request.on('error', (error) =>
      resolve({
        ok: false,
        statusCode: null,
        error:
          error instanceof Blocked
            ? `blocked: ${error.message}`
            : error.name === 'AbortError' || error.name === 'TimeoutError'
              ? 'no answer in time'
              : error.message,
      }),
    );
    request.end(body);
  });
}
