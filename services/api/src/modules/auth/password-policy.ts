import { ApiError } from '../../http/errors';

export const commonPasswordMessage = 'This password is too common. Choose another.';

let commonPasswords: Promise<ReadonlySet<string>> | undefined;

/**
 * The 49,000 most common passwords of the breach corpora zxcvbn-ts ships (MIT licence), read
 * once, at the first password someone chooses, so that start-up and sign-in do not pay for it.
 * Lower-cased: "Password123" is as guessable as "password123".
 */
function loadCommonPasswords(): Promise<ReadonlySet<string>> {
  commonPasswords ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) =>
      new Set(dictionary['passwords-common'].map((password) => password.toLowerCase())),
  );
  return commonPasswords;
}

export async function isCommonPassword(password: string): Promise<boolean> {
  return (await loadCommonPasswords()).has(password.toLowerCase());
}

/**
 * ASVS 2.1.7: a new password must not be a known breached or common one. Length (8 to 128) is
 * the contract's; this is the check a schema cannot make. Answers like a schema would, on the
 * `password` field (or the one named), so forms show it under the field.
 */
export async function assertAcceptablePassword(
  password: string,
  field = 'password',
): Promise<void> {
  if (await isCommonPassword(password)) {
    throw new ApiError(400, 'validation-failed', commonPasswordMessage, [
      { path: field, message: commonPasswordMessage },
    ]);
  }
}
