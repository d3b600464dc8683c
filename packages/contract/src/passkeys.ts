import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { AuthToken, OneTimeCode, signInPasswordMaxLength } from './auth';
import { ErrorBody } from './errors';
import { publicRoute } from './route-security';

const c = initContract();

/** A user may register at most this many passkeys. */
export const maxPasskeysPerUser = 10;

/** What the user calls a passkey, so they can tell which one to remove. */
export const PasskeyName = z
  .string()
  .trim()
  .min(1, 'Required')
  .max(64, 'At most 64 characters')
  .refine((name) => !name.includes('\u0000'), 'Remove the invisible characters');

const Base64Url = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]*={0,2}$/, 'Not base64url');

/**
 * WebAuthn options as `@simplewebauthn/server` makes them and `@simplewebauthn/browser` takes
 * them (PublicKeyCredentialCreationOptionsJSON / PublicKeyCredentialRequestOptionsJSON).
 */
export const WebAuthnOptions = z.record(z.string(), z.unknown());
export type WebAuthnOptions = z.infer<typeof WebAuthnOptions>;

/** The browser's answer to `navigator.credentials.create`, as `startRegistration` returns it. */
export const PasskeyRegistrationResponse = z.object({
  id: Base64Url,
  rawId: Base64Url,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: Base64Url,
    attestationObject: Base64Url,
    transports: z.array(z.string().max(32)).max(10).optional(),
  }),
  /** Not used by the server (no extensions are asked for): accepted and dropped. */
  clientExtensionResults: z.object({}).default({}),
  authenticatorAttachment: z.string().max(32).optional(),
});

/** The browser's answer to `navigator.credentials.get`, as `startAuthentication` returns it. */
export const PasskeyAuthenticationResponse = z.object({
  id: Base64Url,
  rawId: Base64Url,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: Base64Url,
    authenticatorData: Base64Url,
    signature: Base64Url,
    userHandle: Base64Url.optional(),
  }),
  /** Not used by the server (no extensions are asked for): accepted and dropped. */
  clientExtensionResults: z.object({}).default({}),
  authenticatorAttachment: z.string().max(32).optional(),
});

export const AddPasskeyBody = z.object({
  name: PasskeyName,
  response: PasskeyRegistrationResponse,
});
export type AddPasskeyBody = z.infer<typeof AddPasskeyBody>;

/** Adding a passkey starts only with the current password: a borrowed session cannot add a factor. */
export const PasskeyRegistrationOptionsBody = z.object({
  password: z.string().min(1, 'Required').max(signInPasswordMaxLength),
});
export type PasskeyRegistrationOptionsBody = z.infer<typeof PasskeyRegistrationOptionsBody>;

export const PasskeySignInOptionsBody = z.object({ challenge: OneTimeCode });
export const PasskeySignInBody = z.object({
  challenge: OneTimeCode,
  response: PasskeyAuthenticationResponse,
});
export type PasskeySignInBody = z.infer<typeof PasskeySignInBody>;

/** A registered passkey, as the profile lists it. */
export const Passkey = z.object({
  id: z.string().uuid(),
  name: z.string(),
  /** ISO 8601, UTC. */
  createdAt: z.string().datetime(),
  /** The last sign-in with it; null until then. */
  lastUsedAt: z.string().datetime().nullable(),
});
export type Passkey = z.infer<typeof Passkey>;

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 409: ErrorBody, 429: ErrorBody };

/** WebAuthn passkeys as a second factor (CJIS advanced authentication). */
export const passkeysContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/api/v1/auth/mfa/passkeys',
      summary: "The signed-in user's passkeys",
      description: "Each passkey's name, when it was added and when it was last used.",
      responses: { 200: z.array(Passkey), ...errors },
    },
    registrationOptions: {
      method: 'POST',
      path: '/api/v1/auth/mfa/passkeys/options',
      summary: 'Start adding a passkey: WebAuthn creation options for `startRegistration`',
      description:
        'Needs the current password (a wrong one is 401 `invalid-credentials` and counts toward the account lockout). The challenge is kept by the server for five minutes, bound to the signed-in user, and works once.',
      body: PasskeyRegistrationOptionsBody,
      responses: { 200: WebAuthnOptions, ...errors },
    },
    add: {
      method: 'POST',
      path: '/api/v1/auth/mfa/passkeys',
      summary: "Finish adding a passkey: the browser's registration response and a name",
      description:
        "A response to no challenge, another user's or an expired one, or one that does not verify, is 400 `validation-failed`; more than ten passkeys or one already registered is 409 `conflict`. The user's first second factor ends their other sessions; a session that never passed the user's existing second step is refused (403 `mfa-required`).",
      body: AddPasskeyBody,
      responses: { 201: Passkey, ...errors },
    },
    remove: {
      method: 'DELETE',
      path: '/api/v1/auth/mfa/passkeys/:id',
      summary: 'Remove one of your passkeys',
      description:
        "Removing the last second factor turns two-step sign-in off; when a team of the user requires it that is refused with 409 `conflict` (add another passkey or an authenticator app first). Another user's passkey is 404.",
      pathParams: z.object({ id: z.string().uuid() }),
      body: c.noBody(),
      responses: { 204: c.noBody(), 404: ErrorBody, ...errors },
    },
    signInOptions: {
      method: 'POST',
      path: '/api/v1/auth/sign-in/mfa/passkey/options',
      ...publicRoute,
      summary: "Sign-in's second step with a passkey: WebAuthn request options for the challenge",
      description:
        'Only for a challenge whose methods include `webauthn`; an unknown, used or expired challenge is 401 `mfa-challenge-expired`.',
      body: PasskeySignInOptionsBody,
      responses: { 200: WebAuthnOptions, ...errors },
    },
    signIn: {
      method: 'POST',
      path: '/api/v1/auth/sign-in/mfa/passkey',
      ...publicRoute,
      summary:
        "Sign-in's second step with a passkey: the browser's assertion; returns a bearer token",
      description:
        'An assertion that does not verify (another challenge, an unknown key, a signature counter not above the last one) is 401 `invalid-mfa-code` and counts toward the account lockout like a wrong code.',
      body: PasskeySignInBody,
      responses: { 200: AuthToken, ...errors },
    },
  },
  { strictStatusCodes: true },
);
