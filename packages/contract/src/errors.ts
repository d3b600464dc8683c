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
  // Tracking
  'lookup-timeout',
  'lookup-no-location',
  'sms-opted-out',
  'sms-failed',
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
