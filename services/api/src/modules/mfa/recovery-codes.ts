import { recoveryCodeCount } from '@locus/contract';
import { createHash, randomInt } from 'node:crypto';

// No 0/o, 1/l/i: a code copied from paper is read back right.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten codes like `k7m2p-x9qrt` (about 49 bits each), shown once at enrolment. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: recoveryCodeCount }, () => {
    const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]);
    return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
  });
}

/** Case, spaces and dashes as typed do not matter. */
export function normaliseRecoveryCode(code: string): string {
  return code.replace(/[\s-]+/g, '').toLowerCase();
}

/** Only this is stored. The codes are random enough that a plain SHA-256 cannot be reversed. */
export function hashRecoveryCode(code: string): Buffer {
  return createHash('sha256').update(normaliseRecoveryCode(code)).digest();
}
