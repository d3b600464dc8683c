import { createPublicKey, randomUUID, type KeyObject } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { generateEvidenceKeyPem, loadEd25519PrivateKey, publicKeyId } from '@locus/client/evidence';
import type { Database } from '@locus/db';
import type { Logger } from 'pino';
import { registerSigningKey } from '../jobs/export/repo';
import type { WorkerConfig } from '../config';

/**
 * The deployment's Ed25519 key that signs evidence files (issue 15): `EVIDENCE_SIGNING_KEY`
 * (PKCS8 PEM), else the file `EVIDENCE_SIGNING_KEY_FILE`. Outside production a missing file is
 * created on first start, with its public half beside it (`….pub.pem`, for
 * `npm run verify-export -- FILE --key …`); in production a missing key stops the worker at
 * start. Every key used is recorded for the API to publish.
 */
export async function evidenceSigningKey(
  config: WorkerConfig,
  { db, log }: { db: Database; log: Logger },
): Promise<KeyObject> {
  const key = config.EVIDENCE_SIGNING_KEY
    ? loadEd25519PrivateKey(config.EVIDENCE_SIGNING_KEY)
    : await keyFromFile(config);
  const publicKey = createPublicKey(key);
  const keyId = publicKeyId(publicKey.export({ type: 'spki', format: 'der' }));
  // Published by the API (GET /api/v1/evidence/signing-keys): auditors check files against it,
  // whichever way the key was given.
  await registerSigningKey(db, keyId, publicKey.export({ type: 'spki', format: 'pem' }).toString());
  log.info({ keyId }, 'evidence files are signed with this key');
  return key;
}

export async function keyFromFile(
  config: Pick<WorkerConfig, 'EVIDENCE_SIGNING_KEY_FILE' | 'NODE_ENV'>,
): Promise<KeyObject> {
  const file = config.EVIDENCE_SIGNING_KEY_FILE;
  return readFile(file, 'utf8').then(
    (pem) => loadEd25519PrivateKey(pem),
    async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT' || config.NODE_ENV === 'production') throw error;
      const { privateKeyPem, publicKeyPem } = generateEvidenceKeyPem();
      await mkdir(dirname(file), { recursive: true, mode: 0o700 });
      // Written whole under a private name, then linked into place: `link` fails if the file
      // exists, so of two workers starting at once the first one's key is kept, and neither
      // can read the other's key half-written (writing the key file itself with `wx` let a
      // second worker read it empty).
      const created = await createOnce(file, privateKeyPem);
      if (created) await writeFile(publicKeyFile(file), publicKeyPem, { mode: 0o644 });
      return loadEd25519PrivateKey(await readFile(file, 'utf8'));
    },
  );
}

/**
 * Writes `file` unless it exists; false when another worker's key got there first. Written
 * whole under a draft name, then linked into place. Where the filesystem has no hard links
 * (vfat, some network and shared-folder mounts), an exclusive create of the file itself.
 */
async function createOnce(file: string, content: string): Promise<boolean> {
  const existed = (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
    return false;
  };
  const draft = `${file}.${process.pid}.${randomUUID()}.tmp`;
  await writeFile(draft, content, { mode: 0o600, flag: 'wx' });
  return link(draft, file)
    .then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (!noHardLinks.has(error.code ?? '')) return existed(error);
        return writeFile(file, content, { mode: 0o600, flag: 'wx' }).then(() => true, existed);
      },
    )
    .finally(() => rm(draft, { force: true }));
}

const noHardLinks = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

export function publicKeyFile(privateKeyFile: string): string {
  return privateKeyFile.replace(/(\.pem)?$/, '.pub.pem');
}
