import { sql, type Kysely } from 'kysely';

// The session-lifecycle machine (issue 12, packages/machines/src/session-lifecycle) is the
// authority on a tracking session's state:
// - `lifecycle`: the machine's state (requested, lookingUp, texting, waiting, sharing, ended);
//   `status` stays 'active' / 'ended' beside it (every query that asks "is it running" reads it)
//   and the API writes both from the machine's decision.
// - `lifecycle_snapshot`: the machine's persisted snapshot; null for a session no event has
//   reached yet (the machine's initial state, `requested`).
// Existing sessions are backfilled from what they hold: ended, a fix (sharing), a text (waiting),
// a request error (texting), else requested.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table tracking_sessions
      add column lifecycle text not null default 'requested'
        check (lifecycle in ('requested', 'lookingUp', 'texting', 'waiting', 'sharing', 'ended')),
      add column lifecycle_snapshot jsonb;

    update tracking_sessions s set lifecycle = case
      when s.status = 'ended' then 'ended'
      when exists (select 1 from location_fixes f where f.session_id = s.id) then 'sharing'
      when s.location_type = 'TEXT_MESSAGE' then 'waiting'
      when s.request_error is not null then 'texting'
      else 'requested' end;

    update tracking_sessions s set lifecycle_snapshot = jsonb_build_object(
      'status', case when s.lifecycle = 'ended' then 'done' else 'active' end,
      'value', s.lifecycle,
      'historyValue', '{}'::jsonb,
      'children', '{}'::jsonb,
      'context', jsonb_build_object(
        'locationType', s.location_type,
        'requestError', s.request_error,
        'lookups', (select count(*) from location_lookups l where l.session_id = s.id),
        'texts', (select count(*) from sms_messages m
                  where m.session_id = s.id and m.direction = 'outbound'),
        'endedAt', (extract(epoch from s.ended_at) * 1000)::bigint,
        'lastEventAt', (extract(epoch from s.last_active_at) * 1000)::bigint
      )
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table tracking_sessions drop column lifecycle_snapshot, drop column lifecycle;
  `.execute(db);
}
