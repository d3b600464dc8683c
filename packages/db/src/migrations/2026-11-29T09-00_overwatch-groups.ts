import { sql, type Kysely } from 'kysely';

// Overwatch (issue 14): a premiere-level team's groups of numbers watched together. A watch is
// a tracking session of kind 'overwatch' (the same pipeline as the dashboard's), linked to the
// group it was started from; the dashboard's rejoin never picks one up.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table overwatch_groups (
      id uuid primary key default gen_random_uuid(),
      team_id uuid not null references teams (id) on delete cascade,
      name text not null,
      language text not null default 'en' check (language in ('en', 'es', 'fr', 'zh')),
      stale_after_seconds integer not null default 120 check (stale_after_seconds between 10 and 3600),
      movement text not null default 'walking'
        check (movement in ('walking', 'boat', 'vehicle', 'custom')),
      speed_mps double precision not null default 1.5 check (speed_mps > 0),
      max_speed_mps double precision not null default 12 check (max_speed_mps >= speed_mps),
      archived_at timestamptz,
      created_by uuid references users (id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index overwatch_groups_team on overwatch_groups (team_id, name);

    create table overwatch_group_members (
      group_id uuid not null references overwatch_groups (id) on delete cascade,
      phone_number text not null,
      label text,
      position integer not null,
      primary key (group_id, phone_number)
    );

    create table overwatch_geofences (
      id uuid primary key default gen_random_uuid(),
      group_id uuid not null references overwatch_groups (id) on delete cascade,
      name text not null,
      polygon jsonb not null,
      position integer not null
    );
    create index overwatch_geofences_group on overwatch_geofences (group_id, position);

    -- Sessions are written every fix batch. The new columns' constant default and nulls need no
    -- table rewrite; the migration's transaction still holds the table until it commits (the
    -- validation scans the table once), so run it in a quiet moment on a large deployment.
    alter table tracking_sessions
      add column kind text not null default 'dispatch',
      add column overwatch_group_id uuid;
    alter table tracking_sessions
      add constraint tracking_sessions_kind check (kind in ('dispatch', 'overwatch')) not valid,
      add constraint tracking_sessions_overwatch_group
        foreign key (overwatch_group_id) references overwatch_groups (id) on delete set null not valid;
    alter table tracking_sessions validate constraint tracking_sessions_kind;
    alter table tracking_sessions validate constraint tracking_sessions_overwatch_group;
    create index tracking_sessions_overwatch_active on tracking_sessions (dispatcher_id, created_at desc)
      where kind = 'overwatch' and status = 'active';
    -- A group deleted with its team sets its watches' link to null: found by this index.
    create index tracking_sessions_overwatch_group on tracking_sessions (overwatch_group_id)
      where overwatch_group_id is not null;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index if exists tracking_sessions_overwatch_group;
    drop index if exists tracking_sessions_overwatch_active;
    alter table tracking_sessions drop column overwatch_group_id, drop column kind;
    drop table overwatch_geofences;
    drop table overwatch_group_members;
    drop table overwatch_groups;
  `.execute(db);
}
