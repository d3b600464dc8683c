/**
 * The browser's passkey dialog ended without an answer: the user cancelled it, it timed out, or
 * no passkey of this account is on the device. Kept apart from `ceremony.ts` so that the sign-in
 * form can tell it from an API refusal without loading the WebAuthn library.
 */
export class PasskeyCeremonyError extends Error {
  override readonly name = 'PasskeyCeremonyError';
}
