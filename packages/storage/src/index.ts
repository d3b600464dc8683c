import { createWriteStream } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { s3Storage, type S3StorageOptions } from './s3';

export { s3Storage, type S3StorageOptions } from './s3';

/**
 * Where files of the product go: exports (SPEC.md §7 upload-to-s3) written by the worker, and
 * callers' photos and recordings (issue 19) written by the API and read by both. `key` is a
 * relative path (`<team>/<session>/…`).
 */
export interface ObjectStorage {
  readonly name: 'local' | 's3';
  put(key: string, body: string | Uint8Array, contentType: string): Promise<void>;
  /**
   * Stores `body`, `bytes` long, as it is read: a file of hundreds of megabytes (an hour of
   * recorded video) is never held whole in memory. Rejects if the body fails or its length is
   * not `bytes`; what a server kept of a failed put is the caller's to delete.
   */
  putStream(key: string, body: Readable, bytes: number, contentType: string): Promise<void>;
  /** The stored bytes, or null when nothing is stored under `key`. */
  get(key: string): Promise<Buffer | null>;
  /** Removes `key`; nothing stored there is not an error (a retried purge finds it gone). */
  delete(key: string): Promise<void>;
  /** Where `key` is (or would be) stored, for people: a file path, `s3://bucket/key`. */
  describe(key: string): string;
  close(): void;
}

/** The worker's name for it, from before the API stored files too. */
export type ExportStorage = ObjectStorage;

/**
 * The default: files under a directory. Written to a temporary name first, so a file is whole or
 * absent. What is stored is callers' movements and pictures: only the account the process runs
 * as may read them (files 0600, folders 0700), whatever the process's umask.
 */
export function localStorage(root: string): ObjectStorage {
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
      // `mode` applies only to a new file; a rewrite of an older file tightens it too.
      await chmod(partial, 0o600);
      await rename(partial, path);
    },
    async putStream(key, body, bytes) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      // Its own temporary name: a job run again while a slow one still writes never shares it.
      const partial = `${path}.${randomUUID()}.partial`;
      try {
        const file = createWriteStream(partial, { mode: 0o600 });
        await pipeline(body, file);
        if (file.bytesWritten !== bytes)
          throw new Error(`the stream had ${file.bytesWritten} bytes, not ${bytes}`);
        await chmod(partial, 0o600);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      await rename(partial, path);
    },
    async get(key) {
      try {
        return await readFile(pathOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    close() {},
  };
}

/** An empty value (`S3_ENDPOINT=` in an env file) means unset, not an invalid value. */
const unsetWhenEmpty = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema);

/** The S3 settings, one schema for the API and the worker (both store files). */
export const s3ConfigShape = {
  /** An S3-compatible server (MinIO, the embedded one of `npm start`); unset or empty: AWS. */
  S3_ENDPOINT: unsetWhenEmpty(z.string().url().optional()),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_BUCKET: unsetWhenEmpty(z.string().optional()),
  /** With the secret below; both unset: the SDK's default chain (instance role, AWS_* env). */
  S3_ACCESS_KEY_ID: unsetWhenEmpty(z.string().optional()),
  S3_SECRET_ACCESS_KEY: unsetWhenEmpty(z.string().optional()),
  /** Path-style URLs (`host/bucket/key`); unset: true with S3_ENDPOINT, false for AWS. */
  S3_FORCE_PATH_STYLE: unsetWhenEmpty(
    z
      .enum(['true', 'false'])
      .transform((value) => value === 'true')
      .optional(),
  ),
  /** Put before every export's object key (`locus/exports` → `locus/exports/<team>/<session>/…`). */
  S3_PREFIX: unsetWhenEmpty(z.string().optional()),
  /** Server-side encryption asked for each object; unset: the bucket's default. */
  S3_SSE: unsetWhenEmpty(z.enum(['AES256', 'aws:kms', 'aws:kms:dsse']).optional()),
} as const;

/** Where media (photos, recordings) go: the same two kinds, in their own folder or prefix. */
export const mediaStorageConfigShape = {
  /** `local`: files under MEDIA_DIR (the default, no account needed); `s3`: S3_BUCKET under MEDIA_S3_PREFIX. */
  MEDIA_STORAGE: z.enum(['local', 's3']).default('local'),
  MEDIA_DIR: z.string().default('.data/media'),
  MEDIA_S3_PREFIX: z.string().default('locus-media'),
} as const;

type S3Settings = z.output<z.ZodObject<typeof s3ConfigShape>>;
type MediaStorageSettings = z.output<z.ZodObject<typeof mediaStorageConfigShape>>;

/** The adapter's options from the S3 settings, with its own key prefix. */
export function s3Options(settings: S3Settings, prefix: string | undefined): S3StorageOptions {
  // The configs have refused s3 without a bucket; the check keeps the type honest.
  if (!settings.S3_BUCKET) throw new Error('S3_BUCKET: required to store in S3');
  return {
    endpoint: settings.S3_ENDPOINT,
    region: settings.S3_REGION,
    bucket: settings.S3_BUCKET,
    accessKeyId: settings.S3_ACCESS_KEY_ID,
    secretAccessKey: settings.S3_SECRET_ACCESS_KEY,
    // S3-compatible servers are mostly reached by path; AWS itself by virtual host.
    forcePathStyle: settings.S3_FORCE_PATH_STYLE ?? settings.S3_ENDPOINT !== undefined,
    prefix,
    serverSideEncryption: settings.S3_SSE,
  };
}

/** Photos and recordings: the API writes and serves them, the worker exports and purges them. */
export function mediaStorageFromConfig(config: S3Settings & MediaStorageSettings): ObjectStorage {
  if (config.MEDIA_STORAGE === 'local') return localStorage(config.MEDIA_DIR);
  return s3Storage(s3Options(config, config.MEDIA_S3_PREFIX));
}
