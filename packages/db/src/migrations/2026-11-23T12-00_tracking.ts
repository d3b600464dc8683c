import { sql, type Kysely } from 'kysely';

// Tracking a caller: the automatic lookup, the SMS link and its delivery, STOP opt-outs, the
// caller link's first-open deadline, and the export of ended sessions.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Per-team access to the emergency-data provider (SPEC.md §8 lookup-unavailable-not-active).
    alter table teams add column lookup_active boolean not null default true;

    alter table tracking_sessions
      add column location_type text check (location_type in ('TEXT_MESSAGE', 'RAPID_SOS')),
      -- The last request error (SPEC.md §8: stored as the location request error).
      add column request_error text;
    create index tracking_sessions_creator_active on tracking_sessions (created_by, created_at)
      where status = 'active';

    alter table session_callers
      -- Rejoin (SPEC.md §9): a session stays resumable while a caller is connected.
      add column connected_sockets integer not null default 0,
      add column link_opened_at timestamptz;

    -- A caller link must be opened before expires_at; the first open extends it to
    -- hard_expires_at, the cap no link outlives.
    alter table connection_tokens add column hard_expires_at timestamptz;
    create index connection_tokens_caller on connection_tokens (caller_id) where caller_id is not null;

    -- One automatic lookup. The API writes it, the worker's location.lookup job answers it.
    create table location_lookups (
      id uuid primary key default gen_random_uuid(),
      session_id uuid not null references tracking_sessions (id) on delete cascade,
      caller_id uuid not null references session_callers (id) on delete cascade,
      status text not null default 'pending'
        check (status in ('pending', 'found', 'not-found', 'failed', 'timed-out')),
      error text,
      latitude double precision,
      longitude double precision,
      uncertainty_radius_m double precision,
      altitude double precision,
      address text,
      captured_at timestamptz,
      created_at timestamptz not null default now(),
      answered_at timestamptz
    );
    create index location_lookups_session on location_lookups (session_id);

    -- Every text message, both ways. Outbound rows are written before sms.send is enqueued.
    create table sms_messages (
      id uuid primary key default gen_random_uuid(),
      direction text not null check (direction in ('outbound', 'inbound')),
      session_id uuid references tracking_sessions (id) on delete set null,
      caller_id uuid references session_callers (id) on delete set null,
      phone_number text not null,
      body text not null,
      language text check (language in ('en', 'es', 'fr', 'zh')),
      status text not null
        check (status in ('queued', 'sent', 'delivered', 'failed', 'undelivered', 'received')),
      provider text,
      provider_message_id text,
      error text,
      created_at timestamptz not null default now(),
      sent_at timestamptz
    );
    create index sms_messages_outbox on sms_messages (created_at) where provider = 'outbox';
    create unique index sms_messages_provider_id on sms_messages (provider_message_id)
      where provider_message_id is not null;
    create index sms_messages_phone on sms_messages (phone_number, created_at);

    -- Numbers that texted STOP: no further text is sent to them until they text START.
    create table sms_opt_outs (
      phone_number text primary key,
      created_at timestamptz not null default now()
    );

    -- Ended sessions whose team exports them; the export.upload job fills stored_at.
    create table session_exports (
      session_id uuid primary key references tracking_sessions (id) on delete cascade,
      team_id uuid not null references teams (id) on delete cascade,
      file_name text,
      storage_key text,
      created_at timestamptz not null default now(),
      stored_at timestamptz
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table session_exports;
    drop table sms_opt_outs;
    drop table sms_messages;
    drop table location_lookups;
    drop index connection_tokens_caller;
    alter table connection_tokens drop column hard_expires_at;
    alter table session_callers drop column link_opened_at, drop column connected_sockets;
    drop index tracking_sessions_creator_active;
    alter table tracking_sessions drop column request_error, drop column location_type;
    alter table teams drop column lookup_active;
  `.execute(db);
}
