import { sql, type Kysely } from 'kysely';

// Case transfer and chat (issue 12).
// - `tracking_sessions.dispatcher_id`: who runs the session now. `created_by` stays who opened
//   it (metrics count it); a transfer moves `dispatcher_id`.
// - `case_transfers`: one row per offer. `status` mirrors the case-transfer machine's state and
//   `machine_snapshot` is the machine's persisted snapshot: the only authority on what may
//   happen next. At most one offer per session is pending (partial unique index).
// - `chat_messages`: every chat message, with the session seq it was announced with, so a
//   replay (dispatcher or caller) rebuilds the very same events.
// - `teams.time_zone`: the IANA zone the chat transcript shows beside UTC.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table tracking_sessions add column dispatcher_id uuid references users (id) on delete set null;
    update tracking_sessions set dispatcher_id = created_by;
    alter table tracking_sessions add column chat_initiated_at timestamptz;
    create index tracking_sessions_dispatcher on tracking_sessions (dispatcher_id, created_at desc);

    alter table teams add column time_zone text not null default 'UTC';

    create table case_transfers (
      id uuid primary key default gen_random_uuid(),
      session_id uuid not null references tracking_sessions (id) on delete cascade,
      team_id uuid not null references teams (id) on delete cascade,
      from_user_id uuid not null references users (id) on delete cascade,
      to_user_id uuid not null references users (id) on delete cascade,
      status text not null check (status in ('offered', 'accepted', 'denied', 'cancelled', 'expired')),
      machine_snapshot jsonb not null,
      -- The join-stream token's hash, held until the transfer is confirmed with it.
      join_token_hash bytea,
      offered_at timestamptz not null default now(),
      expires_at timestamptz not null,
      decided_at timestamptz
    );
    create unique index case_transfers_one_pending on case_transfers (session_id) where status = 'offered';
    create index case_transfers_to_pending on case_transfers (to_user_id) where status = 'offered';
    create index case_transfers_expiry on case_transfers (expires_at) where status = 'offered';
    create index case_transfers_session on case_transfers (session_id, offered_at desc);

    create table chat_messages (
      id uuid primary key default gen_random_uuid(),
      session_id uuid not null references tracking_sessions (id) on delete cascade,
      caller_id uuid not null references session_callers (id) on delete cascade,
      seq integer not null,
      sender text not null check (sender in ('dispatcher', 'caller')),
      sender_user_id uuid references users (id) on delete set null,
      sender_name text,
      client_id uuid,
      body text not null check (char_length(body) between 1 and 2000),
      language text not null,
      quick_reply text,
      translation_language text,
      translation_text text,
      translation_status text not null,
      sent_at timestamptz not null default now(),
      unique (session_id, seq)
    );
    -- A resend after a reconnect (same client id) is stored once.
    create unique index chat_messages_client on chat_messages (session_id, sender, client_id) where client_id is not null;
    create index chat_messages_caller on chat_messages (session_id, caller_id, seq);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table chat_messages;
    drop table case_transfers;
    alter table teams drop column time_zone;
    drop index tracking_sessions_dispatcher;
    alter table tracking_sessions drop column chat_initiated_at;
    alter table tracking_sessions drop column dispatcher_id;
  `.execute(db);
}
