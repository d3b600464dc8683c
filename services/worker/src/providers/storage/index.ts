import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { WorkerConfig } from '../../config';

/** Where export files go (SPEC.md §7 upload-to-s3). `key` is a relative path. */
export interface ExportStorage {
  readonly name: string;
  put(key: string, body: string, contentType: string): Promise<void>;
}

/**
 * The default: files under a directory. Written to a temporary name first, so a file is whole or
 * absent. Exports are callers' movements: only the account the worker runs as may read them
 * (files 0600, folders 0700), whatever the process's umask.
 */
export function localStorage(root: string): ExportStorage {
  const base = resolve(root);
  return {
    name: 'local',
    async put(key, body) {
      const path = join(base, key);
      if (!path.startsWith(`${base}/`)) throw new Error(`storage key escapes the root: ${key}`);
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
  return localStorage(config.EXPORT_DIR);
}
