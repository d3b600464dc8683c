import { apiKeyLimits, apiKeyScopes, type OAuthError, type OAuthToken } from '@locus/contract';
import type { Database } from '@locus/db';
import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { hashToken } from '../sessions/tokens';
import { findKeyById, findKeyBySecret, insertAccessToken } from './keys-repo';
import { looksLikeApiKey, newAccessToken } from './secrets';

type Refusal = { status: 400 | 401; body: OAuthError };

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
  db: Database,
  request: {
    grantType: string;
    clientId: string | undefined;
    clientSecret: string | undefined;
    scope: string | undefined;
  },
): Promise<{ status: 200; body: OAuthToken } | Refusal> {
  if (request.grantType !== 'client_credentials')
    return refuse(400, 'unsupported_grant_type', 'Only `client_credentials` is supported.');
  const { clientId, clientSecret } = request;
  if (!clientId || !clientSecret)
    return refuse(400, 'invalid_request', 'Send `client_id` and `client_secret`.');
  const invalidClient = () =>
    refuse(401, 'invalid_client', 'Unknown client, wrong secret, or a revoked or expired key.');
  if (!z.string().uuid().safeParse(clientId).success || !looksLikeApiKey(clientSecret))
    return invalidClient();
  const stored = await findKeyById(db, clientId);
  const hash = hashToken(clientSecret);
  if (!stored || !timingSafeEqual(stored.secretHash, hash)) return invalidClient();
  const key = await findKeyBySecret(db, hash);
  if (!key || key.revoked || key.expired || !key.teamUsable) return invalidClient();
  const asked = request.scope?.split(' ').filter(Boolean) ?? key.scopes;
  const unknown = asked.filter(
    (scope) => !(apiKeyScopes as readonly string[]).includes(scope) || !key.scopes.includes(scope),
  );
  if (unknown.length > 0 || asked.length === 0)
    return refuse(400, 'invalid_scope', `The key does not have: ${unknown.join(' ') || '(none)'}.`);
  const scopes = [...new Set(asked)];
  const token = newAccessToken();
  await insertAccessToken(db, {
    hash: token.hash,
    keyId: key.keyId,
    scopes,
    ttlSeconds: apiKeyLimits.accessTokenSeconds,
  });
  return {
    status: 200,
    body: {
      access_token: token.token,
      token_type: 'Bearer',
      expires_in: apiKeyLimits.accessTokenSeconds,
      scope: scopes.join(' '),
    },
  };
}
