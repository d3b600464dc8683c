import { sql, type Kysely } from 'kysely';

// Accounts and teams are created here because the demo seed needs them from day one; the
// accounts issue adds the columns sign-in needs (lockout, codes, sessions).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table psaps (
      id serial primary key,
      fcc_psap_id text unique,
      name text not null,
      state char(2) not null,
      county text,
      city text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index psaps_name_search on psaps (lower(name) text_pattern_ops);

    create table teams (
      id uuid primary key default gen_random_uuid(),
      team_name text not null unique,
      is_active boolean not null default true,
      is_platform_owner boolean not null default false,
      permission_levels text[] not null default '{}',
      custom_content jsonb not null default '{"links":{"header":[],"headerDropdown":[]}}',
      export_on_end boolean not null default false,
      created_at timestamptz not null default now()
    );

    create table users (
      id uuid primary key default gen_random_uuid(),
      first_name text not null,
      last_name text not null,
      email text not null,
      email_confirmed_at timestamptz,
      password_hash text not null,
      phone_number text,
      psap_id integer references psaps (id) on delete set null,
      is_admin boolean not null default false,
      has_seen_walkthrough boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index users_email_unique on users (lower(email));

    create table team_members (
      team_id uuid not null references teams (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      role text not null check (role in ('admin', 'member')),
      created_at timestamptz not null default now(),
      primary key (team_id, user_id)
    );
    create index team_members_user on team_members (user_id);

    create table cleared_email_domains (
      domain text primary key check (domain = lower(domain)),
      created_at timestamptz not null default now()
    );

    create table tracking_sessions (
      id uuid primary key default gen_random_uuid(),
      team_id uuid references teams (id) on delete set null,
      created_by uuid references users (id) on delete set null,
      status text not null default 'active' check (status in ('active', 'ended')),
      created_at timestamptz not null default now(),
      last_active_at timestamptz not null default now(),
      ended_at timestamptz
    );
    create index tracking_sessions_ended on tracking_sessions (ended_at) where ended_at is not null;

    create table session_callers (
      id uuid primary key default gen_random_uuid(),
      session_id uuid not null references tracking_sessions (id) on delete cascade,
      phone_number text not null,
      language text not null default 'en' check (language in ('en', 'es', 'fr', 'zh')),
      created_at timestamptz not null default now(),
      unique (session_id, phone_number)
    );

    -- Bearer tokens for the two sockets. Only a SHA-256 of each token is stored.
    create table connection_tokens (
      token_hash bytea primary key,
      kind text not null check (kind in ('dispatcher', 'caller')),
      session_id uuid not null references tracking_sessions (id) on delete cascade,
      caller_id uuid references session_callers (id) on delete cascade,
      user_id uuid references users (id) on delete cascade,
      expires_at timestamptz not null,
      revoked_at timestamptz,
      created_at timestamptz not null default now(),
      check ((kind = 'caller') = (caller_id is not null))
    );
    create index connection_tokens_session on connection_tokens (session_id);

    -- Location fixes and the other sequenced session events share one per-session sequence.
    create table location_fixes (
      session_id uuid not null references tracking_sessions (id) on delete cascade,
      seq integer not null,
      caller_id uuid not null references session_callers (id) on delete cascade,
      latitude double precision not null,
      longitude double precision not null,
      uncertainty_radius_m double precision not null,
      altitude double precision,
      heading double precision,
      speed double precision,
      address text,
      source text not null check (source in ('TEXT_MESSAGE', 'RAPID_SOS')),
      captured_at timestamptz not null,
      received_at timestamptz not null,
      primary key (session_id, seq)
    );

    create table session_events (
      session_id uuid not null references tracking_sessions (id) on delete cascade,
      seq integer not null,
      caller_id uuid not null references session_callers (id) on delete cascade,
      event text not null,
      payload json not null, -- json, not jsonb: replay rebuilds the very bytes first sent
      created_at timestamptz not null,
      primary key (session_id, seq)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table session_events;
    drop table location_fixes;
    drop table connection_tokens;
    drop table session_callers;
    drop table tracking_sessions;
    drop table cleared_email_domains;
    drop table team_members;
    drop table users;
    drop table teams;
    drop table psaps;
  `.execute(db);
}
