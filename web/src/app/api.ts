import { contract, ErrorBody, type ErrorCode } from '@locus/contract';
import { initClient, tsRestFetchApi } from '@ts-rest/core';
import { ApiError, sessionRejected } from './api-error';
import { sessionStore } from './session';

export { ApiError, setSessionRejectedHandler } from './api-error';

/** 401s that answer the credentials someone typed, not the session they hold. */
const credentialErrors: ReadonlySet<ErrorCode> = new Set([
  'invalid-credentials',
  'account-locked',
  'captcha-required',
  'invalid-mfa-code',
  'mfa-challenge-expired',
]);

let reloadingUser: Promise<unknown> | undefined;

/**
 * A 403 `mfa-required` mid-shift (a team admin turned the requirement on, or this session never
 * passed a second step): reload the current user, whose `mfaRequired` makes the console show the
 * two-step page instead. Once at a time; loaded on demand, as auth.ts imports this module.
 */
function mfaRequired(): void {
  reloadingUser ??= import('./auth')
    .then(({ reloadCurrentUser }) => reloadCurrentUser())
    .catch(() => undefined)
    .finally(() => {
      reloadingUser = undefined;
    });
}

/**
 * The typed client for the whole contract. Every request carries the bearer token when there is
 * one; call it from TanStack Query's queryFn / mutationFn and pass the result to `expect`.
 */
export const api = initClient(contract, {
  baseUrl: '',
  throwOnUnknownStatus: false,
  api: async (args) => {
    const { token } = sessionStore.get();
    const headers = token ? { ...args.headers, authorization: `Bearer ${token}` } : args.headers;
    const response = await tsRestFetchApi({ ...args, headers });
    if (response.status === 401 && args.route !== contract.auth.signOut) {
      const body = ErrorBody.safeParse(response.body);
      const code = body.success ? body.data.error : null;
      // Only for the session that is still signed in: an answer to a request sent before a
      // sign-out (the console's periodic user read) must not sign out, or navigate, again.
      const stillCurrent =
        token !== null && token !== undefined && sessionStore.get().token === token;
      if (stillCurrent && (code === null || !credentialErrors.has(code))) sessionRejected();
    }
    if (response.status === 403) {
      const body = ErrorBody.safeParse(response.body);
      if (body.success && body.data.error === 'mfa-required') mfaRequired();
    }
    return response;
  },
});

type Response = { status: number; body: unknown };

/**
 * The body of a response with one of the expected statuses; anything else throws an ApiError,
 * so TanStack Query sees a failure.
 */
export function expect<R extends Response, S extends R['status']>(
  response: R,
  ...statuses: S[]
): Extract<R, { status: S }>['body'] {
  if ((statuses as number[]).includes(response.status)) {
    return response.body as Extract<R, { status: S }>['body'];
  }
  const body = ErrorBody.safeParse(response.body);
  throw new ApiError(response.status, body.success ? body.data : null);
}

/** The code of an API failure, or null for anything else (a network error). */
export function errorCode(error: unknown): ErrorCode | null {
  return error instanceof ApiError ? error.code : null;
}
