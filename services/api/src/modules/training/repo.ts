import type { Database } from '@locus/db';
import { sql } from 'kysely';

/** When the user watched each video they have watched, by video id. */
export async function watchedVideos(db: Database, userId: string): Promise<Map<string, Date>> {
  const rows = await db
    .selectFrom('training_video_views')
    .select(['video_id', 'watched_at'])
    .where('user_id', '=', userId)
    .execute();
  return new Map(rows.map((row) => [row.video_id, row.watched_at]));
}

/** Marks a video watched; one already watched keeps its first time. Answers that time. */
export async function markWatched(db: Database, userId: string, videoId: string): Promise<Date> {
  // The no-op update makes `returning` answer the row that was already there.
  const row = await db
    .insertInto('training_video_views')
    .values({ user_id: userId, video_id: videoId })
    .onConflict((conflict) =>
      conflict
        .columns(['user_id', 'video_id'])
        .doUpdateSet({ watched_at: sql<Date>`training_video_views.watched_at` }),
    )
    .returning('watched_at')
    .executeTakeFirstOrThrow();
  return row.watched_at;
}

export async function markUnwatched(db: Database, userId: string, videoId: string): Promise<void> {
  await db
    .deleteFrom('training_video_views')
    .where('user_id', '=', userId)
    .where('video_id', '=', videoId)
    .execute();
}
