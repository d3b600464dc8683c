import { z } from 'zod';

/**
 * Every error the API or a socket returns has this shape. The codes are SPEC.md §8's, plus the
 * generic ones any HTTP or socket API needs. Clients switch on `error`, never on `message`.
 */
export const errorCodes = [
  // SPEC.md §8
  'session-expired',
  'verify-email',
  'unauthorized-domain',
  'lookup-unavailable-no-team',
  'lookup-unavailable-not-active',
  'lookup-unavailable-invalid-keys',
  'rapid-sos-unavailable',
  // Accounts
  'invalid-credentials',
  'account-locked',
  'invalid-code',
  'captcha-failed',
  'captcha-required',
  /** The second step of sign-in: a wrong, reused or expired authenticator or recovery code (401). */
  'invalid-mfa-code',
  /** The sign-in's second step came too late or too often: start again with the password (401). */
  'mfa-challenge-expired',
  /** A team of the user requires multi-factor authentication and the user has none yet (403). */
  'mfa-required',
  // Tracking
  'lookup-timeout',
  'lookup-no-location',
  'sms-opted-out',
  'sms-failed',
  /** Locating needs membership of an active team (403). */
  'no-active-team',
  /** Locating needs a completed registration (403). */
  'registration-incomplete',
  /** A premium-rate, toll-free, landline or other number that cannot receive texts (422). */
  'untextable-number',
  // Partner API (issue 15)
  /** An `Idempotency-Key` sent again with another request (422). */
  'idempotency-key-reused',
  /** The first request with this `Idempotency-Key` is still being answered (409). */
  'idempotency-in-progress',
  // Generic HTTP
  'validation-failed',
  'unauthorized',
  'forbidden',
  'not-found',
  'conflict',
  'rate-limited',
  'service-unavailable',
  'internal-error',
  // Realtime sockets
  'invalid-token',
  'invalid-frame',
  'invalid-fix',
  'unknown-event',
  'not-joined',
] as const;

export const ErrorCode = z.enum(errorCodes);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const ErrorBody = z.object({
  error: ErrorCode,
  message: z.string(),
  /** Field-level details for `validation-failed`. */
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export { closeCodes } from './socket-constants';
