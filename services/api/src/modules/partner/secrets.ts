import { apiKeyPattern, apiKeyPrefixLength } from '@locus/contract';
import { randomBytes } from 'node:crypto';
import { hashToken } from '../sessions/tokens';

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A new key: `lk_` and 40 characters from 62 (238 random bits). Letters and digits only, so that
 * it survives being pasted into any configuration file or shell. Only its SHA-256 is stored.
 */
export function newApiKey(): { secret: string; prefix: string; hash: Buffer } {
  const bytes = randomBytes(64);
  let body = '';
  // Rejection sampling: 248 is the largest multiple of 62 under 256, so every character is equally likely.
  for (const byte of bytes) {
    if (byte < 248) body += alphabet[byte % 62];
    if (body.length === 40) break;
  }
  if (body.length < 40) return newApiKey();
  const secret = `lk_${body}`;
  return { secret, prefix: secret.slice(0, apiKeyPrefixLength), hash: hashToken(secret) };
}

export const looksLikeApiKey = (value: string): boolean => apiKeyPattern.test(value);

/** OAuth access tokens: `lat_` and 43 base64url characters, told apart from keys by the prefix. */
export function newAccessToken(): { token: string; hash: Buffer } {
  const token = `lat_${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashToken(token) };
}

export const looksLikeAccessToken = (value: string): boolean =>
  /^lat_[A-Za-z0-9_-]{43}$/.test(value);
