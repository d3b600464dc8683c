import { mediaLimits } from '@locus/contract';
import { createHmac, timingSafeEqual } from 'node:crypto';

export type SignedMediaKind = 'photos' | 'recordings';

/**
 * Media URLs work without sign-in for `mediaLimits.signedUrlSeconds`, so that an `<img>` or a
 * `<video>` (which send no Authorization header) can load them: the signature is an HMAC over
 * the kind, the id and the expiry with the deployment's `MEDIA_URL_SECRET`. Only a dispatcher who
 * can see the session is handed one (the list route); it names one file and cannot be moved to
 * another or extended.
 */
function signature(secret: string, kind: SignedMediaKind, id: string, expires: number): string {
  return createHmac('sha256', secret).update(`${kind}:${id}:${expires}`).digest('base64url');
}

export function signMediaUrl(
  secret: string,
  kind: SignedMediaKind,
  id: string,
  now = Date.now(),
): { url: string; expiresAt: Date } {
  const expires = Math.floor(now / 1000) + mediaLimits.signedUrlSeconds;
  const query = new URLSearchParams({
    expires: String(expires),
    signature: signature(secret, kind, id, expires),
  });
  return { url: `/api/v1/media/${kind}/${id}?${query}`, expiresAt: new Date(expires * 1000) };
}

/** `valid`, or why not: a wrong signature and an expired one are both 403 to the caller. */
export function checkMediaSignature(
  secret: string,
  kind: SignedMediaKind,
  id: string,
  query: { expires: number; signature: string },
  now = Date.now(),
): 'valid' | 'expired' | 'forged' {
  const expected = Buffer.from(signature(secret, kind, id, query.expires));
  const given = Buffer.from(query.signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'forged';
  return query.expires * 1000 <= now ? 'expired' : 'valid';
}
