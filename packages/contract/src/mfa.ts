import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { AuthToken, OneTimeCode, signInPasswordMaxLength } from './auth';
import { ErrorBody } from './errors';
import { publicRoute } from './route-security';

const c = initContract();

/** Ten recovery codes are issued at enrolment, each usable once. */
export const recoveryCodeCount = 10;

/** Six digits from an authenticator app (the console removes the spaces some apps show). */
export const TotpCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app');

export const MfaSignInBody = z.object({
  challenge: OneTimeCode,
  method: z.enum(['totp', 'recovery']).default('totp'),
  code: z.string().trim().min(1, 'Required').max(32),
});
export type MfaSignInBody = z.infer<typeof MfaSignInBody>;

/** The signed-in user's second factors. */
export const MfaStatus = z.object({
  totp: z.boolean(),
  /** Recovery codes not used yet. */
  recoveryCodesLeft: z.number().int(),
  /** A team of the user requires multi-factor authentication. */
  requiredByTeam: z.boolean(),
});
export type MfaStatus = z.infer<typeof MfaStatus>;

/** What the authenticator app needs: shown once, while enrolment is not confirmed. */
export const TotpEnrolment = z.object({
  /** Base32, for typing into an app by hand. */
  secret: z.string(),
  /** The `otpauth://` URI the QR code holds. */
  uri: z.string(),
});
export type TotpEnrolment = z.infer<typeof TotpEnrolment>;

export const TotpCodeBody = z.object({ code: TotpCode });
/** Enrolment starts only with the current password: a borrowed session cannot add a factor. */
export const StartTotpBody = z.object({
  password: z.string().min(1, 'Required').max(signInPasswordMaxLength),
});
export type StartTotpBody = z.infer<typeof StartTotpBody>;
export const RecoveryCodes = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof RecoveryCodes>;

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 409: ErrorBody, 429: ErrorBody };

/** Multi-factor authentication (CJIS advanced authentication): enrolment and sign-in's second step. */
export const mfaContract = c.router(
  {
    signInWithCode: {
      method: 'POST',
      path: '/api/v1/auth/sign-in/mfa',
      ...publicRoute,
      summary: "Sign-in's second step: the challenge and a code; returns a bearer token",
      description:
        'A wrong, reused or expired code is 401 `invalid-mfa-code` and counts toward the account lockout; an unknown, used or exhausted challenge is 401 `mfa-challenge-expired`.',
      body: MfaSignInBody,
      responses: { 200: AuthToken, ...errors },
    },
    status: {
      method: 'GET',
      path: '/api/v1/auth/mfa',
      summary: "The signed-in user's second factors",
      description:
        'Whether an authenticator app is enrolled, how many recovery codes are left, and whether a team of the user requires a second step.',
      responses: { 200: MfaStatus, ...errors },
    },
    startTotp: {
      method: 'POST',
      path: '/api/v1/auth/mfa/totp',
      summary: 'Start enrolling an authenticator app: a new secret, not active until confirmed',
      description:
        'Needs the current password (a wrong one is 401 `invalid-credentials` and counts toward the account lockout). Refused with 409 `conflict` once an app is enrolled (disable it first).',
      body: StartTotpBody,
      responses: { 200: TotpEnrolment, ...errors },
    },
    confirmTotp: {
      method: 'POST',
      path: '/api/v1/auth/mfa/totp/confirm',
      summary: 'Confirm enrolment with a code from the app; returns the recovery codes, shown once',
      description:
        'The six-digit code from the authenticator app started with `/auth/mfa/totp`. The recovery codes are answered once and stored only as hashes; a wrong code is 401 `invalid-mfa-code`.',
      body: TotpCodeBody,
      responses: { 200: RecoveryCodes, ...errors },
    },
    disableTotp: {
      method: 'POST',
      path: '/api/v1/auth/mfa/totp/disable',
      summary: 'Remove the authenticator app and the recovery codes; needs a current code',
      description:
        'A wrong code is 400 `invalid-mfa-code` and counts toward the account lockout; while the account is locked, 401 `account-locked`.',
      body: TotpCodeBody,
      responses: { 200: MfaStatus, ...errors },
    },
  },
  { strictStatusCodes: true },
);
