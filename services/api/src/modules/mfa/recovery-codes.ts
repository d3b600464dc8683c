import { recoveryCodeCount } from '@locus/contract';
import { createHash, createHmac, randomInt } from 'node:crypto';

// No 0/o, 1/l/i: a code copied from paper is read back right.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

const GROUPS = 4;
const GROUP_LENGTH = 5;

/** Ten codes like `k7m2p-x9qrt-4hnwe-b8cza` (20 characters of 31, about 99 bits), shown once. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: recoveryCodeCount }, () => {
    const groups = Array.from({ length: GROUPS }, () =>
      Array.from({ length: GROUP_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join(''),
    );
    return groups.join('-');
  });
}

/** Case, spaces and dashes as typed do not matter. */
export function normaliseRecoveryCode(code: string): string {
  return code.replace(/[\s-]+/g, '').toLowerCase();
}

/** The HMAC key for recovery codes, derived from `MFA_ENCRYPTION_KEY` (not the key itself). */
export function recoveryCodeKey(mfaEncryptionKey: string): Buffer {
  return createHash('sha256').update(`recovery-codes:${mfaEncryptionKey}`).digest();
}

/**
 * Only this is stored: HMAC-SHA-256 under a server secret, so a database dump alone gives no
 * way to test guesses offline.
 */
export function hashRecoveryCode(key: Buffer, code: string): Buffer {
  return createHmac('sha256', key).update(normaliseRecoveryCode(code)).digest();
}
