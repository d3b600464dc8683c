import { sql, type Kysely } from 'kysely';

// Issue 19: photos and recordings from the caller's phone, kept as evidence.
// - `session_media`: one row per stored picture (a caller's photo, a still the caller's page sent
//   while video could not be sustained, a dispatcher's snapshot). The bytes are in the storage
//   adapter under `storage_key`; `sha256` is of the stored (metadata-stripped) bytes, what the
//   evidence chain covers. A position read from the photo's EXIF is kept here and also stored as
//   a fix of the session.
// - `session_recordings` and their chunks: a dispatcher's recording of the received video
//   (MediaRecorder, WebM), uploaded in chunks; `sha256` and `bytes` of the chunks in order are
//   set when it is finished.
// - `media_deletions`: storage keys whose rows the retention purge deleted, written in the same
//   transaction, so a file is never left behind by a purge that dies before it removes it (the
//   next run finishes the list).
// - `teams.record_media`: the team's evidence recording of video (off unless an admin turns it on).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table teams add column record_media boolean not null default false;

    create table session_media (
      id uuid primary key default gen_random_uuid(),
      session_id uuid not null references tracking_sessions (id) on delete cascade,
      caller_id uuid not null references session_callers (id) on delete cascade,
      kind text not null check (kind in ('photo', 'still', 'snapshot')),
      -- Who sent a snapshot (a dispatcher); null for the caller's own pictures.
      uploaded_by uuid references users (id) on delete set null,
      content_type text not null,
      bytes integer not null check (bytes > 0),
      width integer,
      height integer,
      taken_at timestamptz not null,
      uploaded_at timestamptz not null default now(),
      latitude double precision,
      longitude double precision,
      uncertainty_radius_m double precision,
      sha256 text not null,
      storage_key text not null unique,
      seq integer
    );
    create index session_media_session on session_media (session_id, uploaded_at);
    create index session_media_caller on session_media (caller_id, kind);

    create table session_recordings (
      id uuid primary key default gen_random_uuid(),
      session_id uuid not null references tracking_sessions (id) on delete cascade,
      caller_id uuid not null references session_callers (id) on delete cascade,
      recorded_by uuid references users (id) on delete set null,
      content_type text not null,
      started_at timestamptz not null default now(),
      ended_at timestamptz,
      bytes bigint not null default 0,
      sha256 text
    );
    create index session_recordings_session on session_recordings (session_id, started_at);

    create table session_recording_chunks (
      recording_id uuid not null references session_recordings (id) on delete cascade,
      index integer not null check (index >= 0),
      bytes integer not null check (bytes > 0),
      sha256 text not null,
      storage_key text not null unique,
      uploaded_at timestamptz not null default now(),
      primary key (recording_id, index)
    );

    create table media_deletions (
      storage_key text primary key,
      queued_at timestamptz not null default now()
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table media_deletions;
    drop table session_recording_chunks;
    drop table session_recordings;
    drop table session_media;
    alter table teams drop column record_media;
  `.execute(db);
}
