import { sql, type Kysely } from 'kysely';

// Training videos (issue 14): which of the deployment's videos each user has watched. The videos
// themselves are listed in a file per deployment (TRAINING_VIDEOS_FILE), so `video_id` is that
// file's id, not a foreign key; a video dropped from the file keeps its rows, unseen.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table training_video_views (
      user_id uuid not null references users (id) on delete cascade,
      video_id text not null check (char_length(video_id) between 1 and 64),
      watched_at timestamptz not null default now(),
      primary key (user_id, video_id)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table training_video_views`.execute(db);
}
