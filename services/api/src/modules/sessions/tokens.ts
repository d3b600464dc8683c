import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe. Only its SHA-256 is stored, so a database leak reveals no token. */
export function newToken(): { token: string; hash: Buffer } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** Cheap shape check before any database lookup: 43 base64url characters. */
export function looksLikeToken(value: string | null | undefined): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);
}
