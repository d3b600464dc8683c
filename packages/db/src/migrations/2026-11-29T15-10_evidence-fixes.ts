import { sql, type Kysely } from 'kysely';

// After review of the evidence migration (issue 15):
// - `tracking_sessions.history_purged_at`: set by the retention purge when it deletes a
//   session's history, so the sessions page, Export again and upload-to-s3 know it is gone (not
//   guess from dates), and a legal hold cannot be set on what is no longer there.
// - The chat counters' trigger locks the session row `for no key update`: `for update` conflicts
//   with the key-share lock every chat insert holds on its session (its foreign key), so two
//   messages committing together in one session could deadlock.
// - `evidence_signing_keys`: every public key a worker has signed evidence files with, written
//   at the worker's start, so the API can publish them (an auditor pins the file to the
//   deployment's key, not to whatever key the file carries).
// - Exports left from before `session_exports.state` existed that never stored: their jobs are
//   long gone, so they show as failed (Export again writes them) rather than queued forever.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table tracking_sessions add column history_purged_at timestamptz;

    create table evidence_signing_keys (
      key_id text primary key,
      public_key_pem text not null,
      first_used_at timestamptz not null default now()
    );

    create or replace function record_chat_counts() returns trigger language plpgsql as $$
    begin
      perform 1 from tracking_sessions where id = new.session_id for no key update;
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

    update session_exports
    set state = 'failed',
        last_error = 'Queued before export states were recorded; its outcome is not known.'
    where stored_at is null and attempts = 0 and created_at < now() - interval '1 hour';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table evidence_signing_keys;
    alter table tracking_sessions drop column history_purged_at;
  `.execute(db);
}
