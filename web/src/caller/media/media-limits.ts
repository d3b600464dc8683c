/**
 * The caller page's copy of the contract's `mediaLimits` (packages/contract/src/media.ts): that
 * module is zod schemas, which the caller's page must not load (its script stays small).
 * `media-limits.test.ts` fails when the two drift apart.
 */
export const callerMediaLimits = {
  maxPhotosPerCaller: 10,
  maxUploadBytes: 15 * 1024 * 1024,
  maxPhotoEdgePx: 2048,
  minVideoFps: 3,
  stillsAfterMs: 8_000,
  stillEveryMs: 3_000,
} as const;
