import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/**
 * Encrypts authenticator secrets at rest (AES-256-GCM, a random 96-bit nonce per secret): a
 * database dump alone does not let anyone compute a user's codes. Stored as
 * `v1.<nonce>.<tag>.<ciphertext>`, base64url.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(passphrase: string) {
    this.key = createHash('sha256').update(passphrase).digest();
  }

  seal(plaintext: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, nonce, cipher.getAuthTag(), sealed]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** The plaintext; throws when the text was not sealed with this key or was altered. */
  open(text: string): string {
    const [version, nonce, tag, sealed] = text.split('.');
    if (version !== VERSION || !nonce || !tag || sealed === undefined)
      throw new Error('Not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(nonce, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(sealed, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  }
}
