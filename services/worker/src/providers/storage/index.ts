import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { WorkerConfig } from '../../config';

/** Where export files go (SPEC.md §7 upload-to-s3). `key` is a relative path. */
export interface ExportStorage {
  readonly name: string;
  put(key: string, body: string, contentType: string): Promise<void>;
}

/** The default: files under a directory. Written to a temporary name first, so a file is whole or absent. */
export function localStorage(root: string): ExportStorage {
  const base = resolve(root);
  return {
    name: 'local',
    async put(key, body) {
      const path = join(base, key);
      if (!path.startsWith(`${base}/`)) throw new Error(`storage key escapes the root: ${key}`);
      await mkdir(dirname(path), { recursive: true });
      const partial = `${path}.partial`;
      await writeFile(partial, body, 'utf8');
      await rename(partial, path);
    },
  };
}

export function exportStorageFromConfig(config: WorkerConfig): ExportStorage {
  return localStorage(config.EXPORT_DIR);
}
