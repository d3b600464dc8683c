import type { TrainingVideo } from '@locus/contract';
import type { Database } from '@locus/db';
import { ApiError } from '../../http/errors';
import type { TrainingCatalogue, TrainingVideoEntry } from './catalogue';
import * as repo from './repo';

function asVideo(entry: TrainingVideoEntry, watchedAt: Date | undefined): TrainingVideo {
  return {
    id: entry.id,
    title: entry.title,
    description: entry.description,
    url: entry.url,
    captionsUrl: entry.captionsUrl ?? null,
    durationSeconds: entry.durationSeconds ?? null,
    watchedAt: watchedAt?.toISOString() ?? null,
  };
}

function entryOf(catalogue: TrainingCatalogue, id: string): TrainingVideoEntry {
  const entry = catalogue.videos.find((video) => video.id === id);
  if (!entry) throw new ApiError(404, 'not-found', 'There is no training video with this id.');
  return entry;
}

/** The deployment's videos in its order, with this user's watched state. */
export async function listVideos(
  db: Database,
  catalogue: TrainingCatalogue,
  userId: string,
): Promise<TrainingVideo[]> {
  const watched = await repo.watchedVideos(db, userId);
  return catalogue.videos.map((entry) => asVideo(entry, watched.get(entry.id)));
}

export async function markWatched(
  db: Database,
  catalogue: TrainingCatalogue,
  userId: string,
  id: string,
): Promise<TrainingVideo> {
  const entry = entryOf(catalogue, id);
  return asVideo(entry, await repo.markWatched(db, userId, entry.id));
}

export async function markUnwatched(
  db: Database,
  catalogue: TrainingCatalogue,
  userId: string,
  id: string,
): Promise<TrainingVideo> {
  const entry = entryOf(catalogue, id);
  await repo.markUnwatched(db, userId, entry.id);
  return asVideo(entry, undefined);
}
