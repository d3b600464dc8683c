import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { WorkerConfig } from '../../config';
import { s3Storage } from './s3';

export { s3Storage, type S3StorageOptions } from './s3';

/** Where export files go (SPEC.md §7 upload-to-s3). `key` is a relative path. */
export interface ExportStorage {
  readonly name: string;
  put(key: string, body: string, contentType: string): Promise<void>;
  /** Where `key` is (or would be) stored, for people: a file path, `s3://bucket/key`. */
  describe(key: string): string;
}

/**
 * The default: files under a directory. Written to a temporary name first, so a file is whole or
 * absent. Exports are callers' movements: only the account the worker runs as may read them
 * (files 0600, folders 0700), whatever the process's umask.
 */
export function localStorage(root: string): ExportStorage {
  const base = resolve(root);
  const pathOf = (key: string) => {
    const path = join(base, key);
    if (!path.startsWith(`${base}/`)) throw new Error(`storage key escapes the root: ${key}`);
    return path;
  };
  return {
    name: 'local',
    describe: pathOf,
    async put(key, body) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      const partial = `${path}.partial`;
      await writeFile(partial, body, { encoding: 'utf8', mode: 0o600 });
      // `mode` applies only to a new file; a rewrite of an older export tightens it too.
      await chmod(partial, 0o600);
      await rename(partial, path);
    },
  };
}

export function exportStorageFromConfig(config: WorkerConfig): ExportStorage {
  if (config.EXPORT_STORAGE === 'local') return localStorage(config.EXPORT_DIR);
  // parseWorkerConfig has refused s3 without a bucket; the check keeps the type honest.
  if (!config.S3_BUCKET) throw new Error('S3_BUCKET: required with EXPORT_STORAGE=s3');
  return s3Storage({
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    bucket: config.S3_BUCKET,
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    // S3-compatible servers are mostly reached by path; AWS itself by virtual host.
    forcePathStyle: config.S3_FORCE_PATH_STYLE ?? config.S3_ENDPOINT !== undefined,
    prefix: config.S3_PREFIX,
    serverSideEncryption: config.S3_SSE,
  });
}
