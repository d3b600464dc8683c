import { sql, type Kysely } from 'kysely';

// Metrics (issue 13) that outlive the retention purge. The purge (worker, retention.purge) deletes
// a session's fixes, lookups and texts LOCATION_RETENTION_DAYS (90) after it ended, but keeps the
// session and its callers: the metrics of a year ago must still count the texts sent, the lookups
// made and the callers who shared. So what the metrics need is recorded on the session and the
// caller when it happens, and read from there:
// - session_callers.texts_sent (texts handed to the provider), first_text_at (the first text
//   written to the caller, sent or not: the link funnel starts there and shows what was lost)
//   and text_delivered_at (when the provider first said one was delivered);
// - tracking_sessions.texts_sent (the session's texts, with or without a caller),
//   lookup_requested_at and lookup_answered_at (found or not-found; a failure is no answer).
// Triggers write them, so every writer of a text or a lookup (the SMS worker, the status
// webhooks, the lookup service, the demo seed) records them in its own transaction. They
// recount from the rows rather than add one, so a row written twice or a status repeated counts
// once; each first locks the row it updates, so two texts of one caller committed at once are
// both counted. The purge deletes rows and fires nothing: the counts stay.
// Deploying: the index rebuilds and the backfill run in one transaction that holds
// tracking_sessions and session_callers; on years of history, run it in a maintenance window.
// A texted-back position also sets session_callers.shared_at now (sms/text-location.ts), as the
// caller's page does for its first position, so "shared" no longer needs the fixes either.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table session_callers
      add column texts_sent integer not null default 0,
      add column first_text_at timestamptz,
      add column text_delivered_at timestamptz;
    alter table tracking_sessions
      add column texts_sent integer not null default 0,
      add column lookup_requested_at timestamptz,
      add column lookup_answered_at timestamptz;

    create function record_text_counts() returns trigger language plpgsql as $$
    begin
      if new.direction <> 'outbound' then return null; end if;
      -- The session first, then the caller: the order in which the API takes them when it
      -- writes a text (location/repo.ts locks the session's lifecycle first). The other order
      -- would deadlock a resent link against the worker marking the first one sent.
      if new.session_id is not null then
        perform 1 from tracking_sessions where id = new.session_id for update;
      end if;
      if new.caller_id is not null then
        perform 1 from session_callers where id = new.caller_id for update;
        update session_callers c set
          texts_sent = x.sent,
          first_text_at = x.first_at,
          text_delivered_at = coalesce(c.text_delivered_at, case when x.delivered then now() end)
        from (
          select count(*) filter (where sent_at is not null)::int as sent,
                 min(created_at) as first_at,
                 coalesce(bool_or(status = 'delivered'), false) as delivered
          from sms_messages where caller_id = new.caller_id and direction = 'outbound'
        ) x
        where c.id = new.caller_id;
      end if;
      if new.session_id is not null then
        update tracking_sessions set texts_sent = (
          select count(*)::int from sms_messages
          where session_id = new.session_id and direction = 'outbound' and sent_at is not null
        ) where id = new.session_id;
      end if;
      return null;
    end $$;
    create trigger sms_messages_record_counts
      after insert or update of status, sent_at on sms_messages
      for each row execute function record_text_counts();

    create function record_lookup_times() returns trigger language plpgsql as $$
    begin
      update tracking_sessions set
        lookup_requested_at = coalesce(lookup_requested_at, new.created_at),
        lookup_answered_at = coalesce(lookup_answered_at,
          case when new.status in ('found', 'not-found') then coalesce(new.answered_at, now()) end)
      where id = new.session_id;
      return null;
    end $$;
    create trigger location_lookups_record_times
      after insert or update of status on location_lookups
      for each row execute function record_lookup_times();

    create index sms_messages_session_outbound on sms_messages (session_id)
      where direction = 'outbound';

    -- A live session's row is updated with every batch of fixes (batch-writer touchSessions:
    -- last activity, best accuracy). With the metrics indexes it has ten; an update that finds
    -- no room on its page must write a new entry in each. Room left on each page lets most of
    -- those updates stay on the page (HOT), touching no index.
    alter table tracking_sessions set (fillfactor = 80);

    -- The metrics read the new columns from the indexes they scan, as they read the others
    -- (migration metrics-sessions): a range stays one index-only scan.
    drop index tracking_sessions_team_created;
    create index tracking_sessions_team_created on tracking_sessions (team_id, created_at)
      include (id, created_by, first_fix_at, first_fix_source, chat_initiated_at, texts_sent,
        lookup_requested_at, lookup_answered_at);
    drop index tracking_sessions_team_creator_created;
    create index tracking_sessions_team_creator_created on tracking_sessions
      (team_id, created_by, created_at)
      include (id, first_fix_at, first_fix_source, chat_initiated_at, texts_sent,
        lookup_requested_at, lookup_answered_at);
    -- Languages: a range's callers with what is counted of them.
    drop index session_callers_created;
    create index session_callers_created on session_callers (created_at)
      include (session_id, language, first_text_at, shared_at);
    -- The link funnel: the callers texted in a range, with every step.
    create index session_callers_first_text on session_callers (first_text_at)
      include (session_id, language, text_delivered_at, link_opened_at, prompt_shown_at,
        shared_at, denied_at)
      where first_text_at is not null;
  `.execute(db);

  // What history still holds: the texts and lookups not purged yet. (A delivery's time was not
  // kept: the text's sending time stands in for it.)
  await sql`
    update session_callers c set texts_sent = x.sent, first_text_at = x.first_at,
      text_delivered_at = case when x.delivered then x.first_at end
    from (
      select caller_id,
             count(*) filter (where sent_at is not null)::int as sent,
             min(created_at) as first_at,
             coalesce(bool_or(status = 'delivered'), false) as delivered
      from sms_messages where direction = 'outbound' and caller_id is not null
      group by caller_id
    ) x
    where c.id = x.caller_id;
    update tracking_sessions s set texts_sent = x.sent
    from (
      select session_id, count(*)::int as sent from sms_messages
      where direction = 'outbound' and sent_at is not null and session_id is not null
      group by session_id
    ) x
    where s.id = x.session_id;
    update tracking_sessions s set lookup_requested_at = x.requested_at,
      lookup_answered_at = x.answered_at
    from (
      select session_id, min(created_at) as requested_at,
             min(coalesce(answered_at, created_at)) filter (where status in ('found', 'not-found'))
               as answered_at
      from location_lookups group by session_id
    ) x
    where s.id = x.session_id;
    update session_callers c set shared_at = x.at
    from (
      select caller_id, min(received_at) as at from location_fixes
      where source = 'TEXT_MESSAGE' group by caller_id
    ) x
    where c.id = x.caller_id and c.shared_at is null;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table tracking_sessions reset (fillfactor);
    drop index session_callers_first_text;
    drop index session_callers_created;
    create index session_callers_created on session_callers (created_at) include (session_id);
    drop index tracking_sessions_team_creator_created;
    create index tracking_sessions_team_creator_created on tracking_sessions
      (team_id, created_by, created_at)
      include (id, first_fix_at, first_fix_source, chat_initiated_at);
    drop index tracking_sessions_team_created;
    create index tracking_sessions_team_created on tracking_sessions (team_id, created_at)
      include (id, created_by, first_fix_at, first_fix_source, chat_initiated_at);
    drop index sms_messages_session_outbound;
    drop trigger location_lookups_record_times on location_lookups;
    drop function record_lookup_times();
    drop trigger sms_messages_record_counts on sms_messages;
    drop function record_text_counts();
    alter table tracking_sessions
      drop column lookup_answered_at, drop column lookup_requested_at, drop column texts_sent;
    alter table session_callers
      drop column text_delivered_at, drop column first_text_at, drop column texts_sent;
  `.execute(db);
}
