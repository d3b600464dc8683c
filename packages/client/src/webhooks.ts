import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks (https://www.standardwebhooks.com): how Locus signs a delivery and how a
 * receiver checks it. The signed content is `<webhook-id>.<webhook-timestamp>.<body>`, the key
 * the base64 after the secret's `whsec_`, the signature `v1,<base64 HMAC-SHA256>`.
 */
export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

const secretPrefix = 'whsec_';

function keyOf(secret: string): Buffer {
  if (!secret.startsWith(secretPrefix)) throw new WebhookVerificationError('Not a whsec_ secret');
  return Buffer.from(secret.slice(secretPrefix.length), 'base64');
}

function signature(secret: string, id: string, timestamp: string, body: string): string {
  return createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
}

/** The three headers of a delivery of `body` (the exact bytes sent), signed with `secret`. */
export function signWebhook(
  secret: string,
  delivery: { id: string; body: string; at?: Date },
): WebhookHeaders {
  const timestamp = String(Math.floor((delivery.at ?? new Date()).getTime() / 1000));
  return {
    'webhook-id': delivery.id,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${signature(secret, delivery.id, timestamp, delivery.body)}`,
  };
}

export class WebhookVerificationError extends Error {}

/**
 * Checks a delivery as received: `body` is the raw request body (not re-serialised JSON),
 * `headers` its headers (any case). Throws WebhookVerificationError when the signature does not
 * match or the timestamp is more than `toleranceSeconds` away (a replay); returns the payload.
 */
export function verifyWebhook<T = unknown>(
  secret: string,
  headers: Record<string, string | string[] | undefined> | Headers,
  body: string,
  options: { toleranceSeconds?: number; now?: Date } = {},
): T {
  // Header names in any case (frameworks and gateways differ).
  const plain =
    headers instanceof Headers
      ? undefined
      : new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  const read = (name: keyof WebhookHeaders): string => {
    const value = headers instanceof Headers ? headers.get(name) : plain?.get(name);
    const text = Array.isArray(value) ? value[0] : value;
    if (!text) throw new WebhookVerificationError(`Missing ${name}`);
    return text;
  };
  const id = read('webhook-id');
  const timestamp = read('webhook-timestamp');
  const seconds = Number(timestamp);
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('Invalid webhook-timestamp');
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - seconds) > (options.toleranceSeconds ?? 300))
    throw new WebhookVerificationError('webhook-timestamp too far from now');
  const expected = Buffer.from(signature(secret, id, timestamp, body), 'base64');
  // Several signatures may be sent (a secret being rotated): one matching is enough.
  const matches = read('webhook-signature')
    .split(' ')
    .some((candidate) => {
      const [version, value] = candidate.split(',', 2);
      if (version !== 'v1' || !value) return false;
      const given = Buffer.from(value, 'base64');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
  if (!matches) throw new WebhookVerificationError('No matching signature');
  return JSON.parse(body) as T;
}
