import { signInLockout } from '@locus/contract';
import { ApiError } from '../app/api';

/** SPEC.md §8: every sign-in failure reads the same, so it never tells which part was wrong. */
export const signInFailed = 'Invalid email or password';
export const accountLocked = `Too many failed attempts. Try again in ${signInLockout.lockSeconds / 60} minutes.`;

/** SPEC.md §8: the server's message when it sent one, otherwise a generic line. */
export function signUpFailed(error: unknown): string {
  return error instanceof ApiError && error.body?.message
    ? error.body.message
    : 'Something went wrong with your request';
}

/** For the other account pages: the server's message, or a plain fallback. */
export function requestFailed(error: unknown): string {
  if (error instanceof ApiError && error.code === 'rate-limited') {
    return 'Too many requests. Please wait a minute and try again.';
  }
  return error instanceof ApiError && error.body?.message
    ? error.body.message
    : 'Something went wrong with your request. Please try again.';
}
