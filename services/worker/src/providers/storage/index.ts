import {
  localStorage,
  mediaStorageFromConfig,
  s3Options,
  s3Storage,
  type ObjectStorage,
} from '@locus/storage';
import type { WorkerConfig } from '../../config';

// The adapters live in @locus/storage since the API stores files too (issue 19: photos).
export {
  localStorage,
  mediaStorageFromConfig,
  s3Storage,
  type ExportStorage,
  type ObjectStorage,
  type S3StorageOptions,
} from '@locus/storage';

export function exportStorageFromConfig(config: WorkerConfig): ObjectStorage {
  if (config.EXPORT_STORAGE === 'local') return localStorage(config.EXPORT_DIR);
  return s3Storage(s3Options(config, config.S3_PREFIX));
}

/** Callers' photos and recordings, as the API stored them (the export copies, the purge deletes). */
export function workerMediaStorage(config: WorkerConfig): ObjectStorage {
  return mediaStorageFromConfig(config);
}
