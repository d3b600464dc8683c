import {
  apiKeyLimits,
  apiKeyScopes,
  OAuthTokenRequest,
  type OAuthError,
  type OAuthToken,
} from '@locus/contract';
import { hashToken } from '../sessions/tokens';
import { findKeyBySecret, insertAccessToken } from './keys-repo';
import type { PartnerAuthOptions } from './partner-auth';
import { countPartnerRequest, type RateLimitState } from './rate-limit';
import { looksLikeApiKey, newAccessToken } from './secrets';

type Refusal = { status: 400 | 401; body: OAuthError };
/** Over the key's allowance: the route answers 429 with its headers. */
type RateLimited = { status: 429; allowance: RateLimitState };

function refuse(status: 400 | 401, error: OAuthError['error'], description: string): Refusal {
  return { status, body: { error, error_description: description, message: description } };
}

/** RFC 6749 §2.3.1: `Authorization: Basic` with the form-encoded id and secret. */
export function basicCredentials(
  header: string | undefined,
): { id: string; secret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  try {
    return {
      id: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
      secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
    };
  } catch {
    return undefined;
  }
}

/**
 * The client-credentials grant (RFC 6749 §4.4): the key's id and the key itself give an access
 * token with the key's scopes (or fewer), for `apiKeyLimits.accessTokenSeconds`.
 */
export async function issueAccessToken(
  { db, redis, redisPrefix, rateLimit }: PartnerAuthOptions,
  request: {
    body: unknown;
    basic: { id: string; secret: string } | undefined;
  },
): Promise<{ status: 200; body: OAuthToken } | Refusal | RateLimited> {
  const parsed = OAuthTokenRequest.safeParse(request.body);
  if (!parsed.success)
    return refuse(400, 'invalid_request', 'The token request’s fields must be short strings.');
  const form = parsed.data;
  if (form.grant_type !== 'client_credentials')
    return refuse(400, 'unsupported_grant_type', 'Only `client_credentials` is supported.');
  // RFC 6749 §2.3: one way of authenticating the client per request.
  if (request.basic && (form.client_id !== undefined || form.client_secret !== undefined))
    return refuse(
      400,
      'invalid_request',
      'Send the credentials in the body or as Basic, not both.',
    );
  const clientId = request.basic?.id ?? form.client_id;
  const clientSecret = request.basic?.secret ?? form.client_secret;
  if (!clientId || !clientSecret)
    return refuse(400, 'invalid_request', 'Send `client_id` and `client_secret`.');
  const invalidClient = () =>
    refuse(401, 'invalid_client', 'Unknown client, wrong secret, or a revoked or expired key.');
  if (!looksLikeApiKey(clientSecret)) return invalidClient();
  // Found by the secret's hash, as the partner guard finds a key; the id must then be its own.
  const key = await findKeyBySecret(db, hashToken(clientSecret));
  if (!key || key.keyId !== clientId.toLowerCase() || key.revoked || key.expired || !key.teamUsable)
    return invalidClient();
  // Asking for tokens counts against the key's allowance like any other request.
  const allowance = await countPartnerRequest(redis, redisPrefix, key.keyId, rateLimit);
  if (!allowance.allowed) return { status: 429, allowance };
  const asked = form.scope?.split(' ').filter(Boolean) ?? key.scopes;
  const unknown = asked.filter(
    (scope) => !(apiKeyScopes as readonly string[]).includes(scope) || !key.scopes.includes(scope),
  );
  if (unknown.length > 0 || asked.length === 0)
    return refuse(400, 'invalid_scope', `The key does not have: ${unknown.join(' ') || '(none)'}.`);
  const scopes = [...new Set(asked)];
  const token = newAccessToken();
  // Never longer than the key itself lasts, and said so.
  const ttlSeconds = Math.max(
    1,
    Math.min(apiKeyLimits.accessTokenSeconds, key.secondsLeft ?? Number.POSITIVE_INFINITY),
  );
  await insertAccessToken(db, { hash: token.hash, keyId: key.keyId, scopes, ttlSeconds });
  return {
    status: 200,
    body: {
      access_token: token.token,
      token_type: 'Bearer',
      expires_in: ttlSeconds,
      scope: scopes.join(' '),
    },
  };
}
