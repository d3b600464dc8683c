import type { ErrorBody, ErrorCode } from '@locus/contract';

/** A non-success answer from the API, with the contract's `{ error, message }` body when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody | null,
  ) {
    super(body?.message ?? `The request failed with status ${status}`);
  }

  get code(): ErrorCode | null {
    return this.body?.error ?? null;
  }
}

let onSessionRejected: () => void = () => undefined;

/**
 * What happens when the API rejects the session (SPEC.md §4, §8: a 401 with session-expired, or
 * any 401 without a valid token): the app registers it once the router exists. It lives apart
 * from the API client so that the shell can register it without downloading the contract.
 */
export function setSessionRejectedHandler(handler: () => void): void {
  onSessionRejected = handler;
}

export function sessionRejected(): void {
  onSessionRejected();
}
