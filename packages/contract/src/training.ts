import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ErrorBody } from './errors';

/**
 * Training videos (issue 14). Each deployment lists its own videos in a JSON file the API reads
 * at boot (`TRAINING_VIDEOS_FILE`); a video's `url` is either a file Locus serves itself
 * (`/training-media/…`, from `TRAINING_MEDIA_DIR`) or an absolute `https://` address of a
 * video file. Whether a user has watched a video is kept per user.
 */
const c = initContract();
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody };

/** A video's id in the deployment's list: lower-case letters, digits and dashes. */
export const TrainingVideoId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'Lower-case letters, digits and dashes only');
export type TrainingVideoId = z.infer<typeof TrainingVideoId>;

export const TrainingVideo = z.object({
  id: TrainingVideoId,
  title: z.string(),
  description: z.string(),
  /** The video file: a path on this server (`/training-media/…`) or an absolute URL. */
  url: z.string(),
  /** WebVTT captions for the video, or null when it has none. */
  captionsUrl: z.string().nullable(),
  /** The video's length as the deployment states it, or null when it does not. */
  durationSeconds: z.number().int().positive().nullable(),
  /** When the signed-in user marked it watched (or finished it), or null. */
  watchedAt: z.string().datetime().nullable(),
});
export type TrainingVideo = z.infer<typeof TrainingVideo>;

export const TrainingVideoList = z.object({ videos: z.array(TrainingVideo) });
export type TrainingVideoList = z.infer<typeof TrainingVideoList>;

const VideoParams = z.object({ id: TrainingVideoId });

export const trainingContract = c.router(
  {
    videos: {
      method: 'GET',
      path: '/api/v1/training/videos',
      summary: "The deployment's training videos, with the signed-in user's watched state",
      description:
        'In the order the deployment lists them. `watchedAt` is when the signed-in user marked ' +
        'the video watched (or finished it), or null; nobody else’s state is ever shown. Any ' +
        'signed-in user.',
      responses: { 200: TrainingVideoList, ...errors },
    },
    markWatched: {
      method: 'POST',
      path: '/api/v1/training/videos/:id/watched',
      summary: 'Mark a training video watched by the signed-in user',
      description:
        'Idempotent: marking a watched video again keeps the first `watchedAt`. Answers the ' +
        'video as `videos` lists it. An id the deployment does not list is 404 `not-found`.',
      pathParams: VideoParams,
      body: c.noBody(),
      responses: { 200: TrainingVideo, ...errors },
    },
    markUnwatched: {
      method: 'DELETE',
      path: '/api/v1/training/videos/:id/watched',
      summary: 'Mark a training video not watched by the signed-in user',
      description:
        'Idempotent: a video that is not watched stays so. Answers the video with `watchedAt` ' +
        'null. An id the deployment does not list is 404 `not-found`.',
      pathParams: VideoParams,
      body: c.noBody(),
      responses: { 200: TrainingVideo, ...errors },
    },
  },
  { strictStatusCodes: true },
);
