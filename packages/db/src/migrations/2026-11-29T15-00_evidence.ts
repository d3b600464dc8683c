import { sql, type Kysely } from 'kysely';

// Evidence (issue 15):
// - `session_exports` tracks each export as a user would ask about it: queued, writing, stored,
//   failed after its retries (with why), where it went and what signed it. `expected_seq` is the
//   session's sequence counter when it ended: the export job writes nothing until every seq up
//   to it is in Postgres.
// - `consent_receipts`: what the caller saw when they tapped Share (rendered in their language
//   from the catalogue version their page ran), when, and from which browser.
// - Retention per team (`teams.retention_days`, null: the deployment's default), and a legal
//   hold on a session, which the purge skips while it is set.
// - The purge now deletes chat too; the chat metrics (issue 13: old metrics never change) read
//   counters kept on the session by a trigger, as the text counters are (migration
//   metrics-counters). The trigger is deferred to commit, so that a chat message's transaction
//   (which publishes to Redis before it commits) does not hold the session row meanwhile; it
//   locks the row before it recounts, so two messages committed at once are both counted.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table session_exports
      add column state text not null default 'queued'
        check (state in ('queued', 'writing', 'retrying', 'stored', 'failed')),
      add column attempts integer not null default 0,
      add column last_error text,
      add column last_attempt_at timestamptz,
      add column expected_seq integer,
      add column storage text,
      add column evidence_key text,
      add column chain_head text,
      add column signing_key_id text;
    update session_exports set state = 'stored' where stored_at is not null;

    create table consent_receipts (
      id uuid primary key default gen_random_uuid(),
      session_id uuid not null references tracking_sessions (id) on delete cascade,
      caller_id uuid not null references session_callers (id) on delete cascade,
      language text not null,
      catalogue_version text not null,
      agency_name text not null,
      -- The texts as the page showed them, rendered by the server from that catalogue version.
      shown_text jsonb not null,
      -- The phone's clock at the tap, as the page reported it, and the server's on receipt.
      tapped_at timestamptz,
      received_at timestamptz not null default now(),
      user_agent text
    );
    create index consent_receipts_session on consent_receipts (session_id, received_at);

    alter table teams
      add column retention_days integer check (retention_days between 1 and 3650);

    alter table tracking_sessions
      add column chat_messages integer not null default 0,
      add column chat_from_caller integer not null default 0,
      add column chat_from_dispatcher integer not null default 0,
      add column chat_translated integer not null default 0,
      add column legal_hold_at timestamptz,
      add column legal_hold_by uuid references users (id) on delete set null,
      add column legal_hold_reason text check (char_length(legal_hold_reason) <= 500);

    create function record_chat_counts() returns trigger language plpgsql as $$
    begin
      perform 1 from tracking_sessions where id = new.session_id for update;
      update tracking_sessions s set
        chat_messages = x.messages,
        chat_from_caller = x.from_caller,
        chat_from_dispatcher = x.from_dispatcher,
        chat_translated = x.translated
      from (
        select count(*)::int as messages,
               count(*) filter (where sender = 'caller')::int as from_caller,
               count(*) filter (where sender = 'dispatcher')::int as from_dispatcher,
               count(*) filter (where translation_status in ('translated', 'catalogue'))::int
                 as translated
        from chat_messages where session_id = new.session_id
      ) x
      where s.id = new.session_id;
      return null;
    end $$;
    create constraint trigger chat_messages_record_counts
      after insert or update of translation_status on chat_messages
      deferrable initially deferred
      for each row execute function record_chat_counts();

    update tracking_sessions s set
      chat_messages = x.messages,
      chat_from_caller = x.from_caller,
      chat_from_dispatcher = x.from_dispatcher,
      chat_translated = x.translated
    from (
      select session_id,
             count(*)::int as messages,
             count(*) filter (where sender = 'caller')::int as from_caller,
             count(*) filter (where sender = 'dispatcher')::int as from_dispatcher,
             count(*) filter (where translation_status in ('translated', 'catalogue'))::int
               as translated
      from chat_messages group by session_id
    ) x
    where s.id = x.session_id;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger chat_messages_record_counts on chat_messages;
    drop function record_chat_counts();
    alter table tracking_sessions
      drop column legal_hold_reason, drop column legal_hold_by, drop column legal_hold_at,
      drop column chat_translated, drop column chat_from_dispatcher, drop column chat_from_caller,
      drop column chat_messages;
    alter table teams drop column retention_days;
    drop table consent_receipts;
    alter table session_exports
      drop column signing_key_id, drop column chain_head, drop column evidence_key,
      drop column storage, drop column expected_seq, drop column last_attempt_at,
      drop column last_error, drop column attempts, drop column state;
  `.execute(db);
}
