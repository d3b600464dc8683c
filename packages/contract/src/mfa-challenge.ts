import { z } from 'zod';

/** The second factors a user may answer a sign-in challenge with (`webauthn`: a passkey). */
export const MfaMethod = z.enum(['totp', 'recovery', 'webauthn']);
export type MfaMethod = z.infer<typeof MfaMethod>;

/**
 * Sign-in's answer when the password matched and the user has multi-factor authentication: no
 * session yet, a short-lived challenge to send back with a code (POST /api/v1/auth/sign-in/mfa).
 * Kept apart from `mfa.ts` so that `auth.ts` can use it without an import cycle.
 */
export const MfaChallenge = z.object({
  mfaRequired: z.literal(true),
  /** 256 random bits, base64url; only its hash is kept, for `mfaChallengeLimits.ttlSeconds`. */
  challenge: z.string(),
  methods: z.array(MfaMethod),
  /** ISO 8601, UTC. */
  expiresAt: z.string().datetime(),
});
export type MfaChallenge = z.infer<typeof MfaChallenge>;

/** A challenge lasts five minutes and takes at most five attempts, however they are sent. */
export const mfaChallengeLimits = { ttlSeconds: 5 * 60, maxAttempts: 5 } as const;
