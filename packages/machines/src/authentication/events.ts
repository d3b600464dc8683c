/** The second factors the sign-in's second step accepts (the contract's MfaMethod). */
export type SecondFactorMethod = 'totp' | 'recovery' | 'webauthn';

export interface Credentials {
  email: string;
  password: string;
  staySignedIn: boolean;
  /** Asked for after repeated failures, when a captcha is configured. */
  captchaToken?: string | undefined;
}

/** What the password step answered: signed in, or a challenge for a second factor. */
export type PasswordOutcome =
  | { kind: 'signed-in' }
  | { kind: 'second-factor'; challenge: string; methods: SecondFactorMethod[] };

/** A refusal as the machine needs it: the API's error code (null when it gave none). */
export interface AuthFailure {
  code: string | null;
  message: string;
  /** What the effect threw, for a view that needs more than the code (a Retry-After). */
  cause: unknown;
}

export type AuthenticationEvent =
  | { type: 'SUBMIT_PASSWORD'; credentials: Credentials }
  | { type: 'SUBMIT_CODE'; code: string }
  /** Answer with a passkey instead of a code (the challenge offers `webauthn`). */
  | { type: 'USE_PASSKEY' }
  /** Switch between the authenticator app's code and a recovery code. */
  | { type: 'CHOOSE_METHOD'; method: SecondFactorMethod }
  /** Leave the code step and start again with the password. */
  | { type: 'START_OVER' };
