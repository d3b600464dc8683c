import { mediaStorageConfigShape, mediaStorageFromConfig, s3ConfigShape } from '@locus/storage';
import type { ObjectStorage } from '@locus/storage';
import { z } from 'zod';

/** Development's key for signed media URLs; production must set its own. */
export const DEV_MEDIA_URL_SECRET = 'dev-only-media-url-secret-change-me';

/**
 * The API's media settings (issue 19), spread into `ApiConfig`: where photos and recordings are
 * stored (the worker reads the same settings, to export and purge them) and the key that signs
 * their URLs.
 */
export const mediaConfigShape = {
  ...mediaStorageConfigShape,
  ...s3ConfigShape,
  /** HMAC key of signed media URLs; every API instance needs the same one. */
  MEDIA_URL_SECRET: z.string().min(16).default(DEV_MEDIA_URL_SECRET),
} as const;

export type MediaConfig = z.output<z.ZodObject<typeof mediaConfigShape>>;

/** Settings that only make sense together, in `crossChecks`' words. */
export function mediaConfigProblems(config: MediaConfig & { NODE_ENV: string }): string[] {
  const problems: string[] = [];
  // A key everyone can read in this repository would let anyone sign a URL to a caller's photo.
  if (config.NODE_ENV === 'production' && config.MEDIA_URL_SECRET === DEV_MEDIA_URL_SECRET)
    problems.push('  MEDIA_URL_SECRET: set a secret of your own in production');
  if (config.MEDIA_STORAGE === 's3' && !config.S3_BUCKET)
    problems.push('  S3_BUCKET: required with MEDIA_STORAGE=s3');
  if ((config.S3_ACCESS_KEY_ID === undefined) !== (config.S3_SECRET_ACCESS_KEY === undefined))
    problems.push('  S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both or neither');
  return problems;
}

export function mediaStorage(config: MediaConfig): ObjectStorage {
  return mediaStorageFromConfig(config);
}

/** Where a session's picture is stored: `<session>/<id>.<ext>` under the media root or prefix. */
export function photoKey(sessionId: string, id: string, contentType: string): string {
  const extension = contentType.split('/')[1] ?? 'bin';
  return `${sessionId}/photos/${id}.${extension}`;
}

export function chunkKey(
  sessionId: string,
  recordingId: string,
  index: number,
  sha256: string,
): string {
  return `${sessionId}/recordings/${recordingId}/${String(index).padStart(6, '0')}-${sha256.slice(0, 16)}.webm`;
}
