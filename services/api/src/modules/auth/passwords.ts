import { hashPassword } from '@locus/db';
import { verify } from '@node-rs/argon2';

export { hashPassword };

let decoy: Promise<string> | undefined;

/**
 * Checks a password against a stored argon2id hash. Without an account it still verifies,
 * against a decoy hash, so that an unknown address takes as long as a wrong password.
 */
export async function checkPassword(
  storedHash: string | undefined,
  password: string,
): Promise<boolean> {
  decoy ??= hashPassword('decoy password that matches nothing');
  const hash = storedHash ?? (await decoy);
  try {
    const matches = await verify(hash, password);
    return matches && storedHash !== undefined;
  } catch {
    return false;
  }
}
