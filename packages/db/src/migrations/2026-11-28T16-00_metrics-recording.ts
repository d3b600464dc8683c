import { sql, type Kysely } from 'kysely';

// Metrics (issue 13): recorded where each thing happens, so that "time to locate", the link
// funnel and accuracy are read from columns, not rebuilt from logs.
// - tracking_sessions.first_fix_at / first_fix_source / first_fix_uncertainty_m: the session's
//   first stored fix (when it reached Locus, `received_at`; 'lookup' from the automatic lookup,
//   'link' from the caller: their page, or a position they texted back), set once by the batch
//   writer in the transaction that stores it. best_uncertainty_m: the smallest uncertainty of
//   any stored fix, kept there too (least()).
// - session_callers.prompt_shown_at: the caller's page asked the browser for the position (the
//   `prompt-shown` frame); shared_at: the caller's first position reached Locus (not the
//   `sharing` frame: the page sends it at the tap, before the prompt is answered); denied_at: the page reported the permission denied (`sharing-error`
//   `permission-denied`). Each set once by the caller socket.
// Older rows are backfilled from what they hold (fixes and session events); prompt_shown_at has
// no record before this migration and stays null for them.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table tracking_sessions
      add column first_fix_at timestamptz,
      add column first_fix_source text check (first_fix_source in ('lookup', 'link')),
      add column first_fix_uncertainty_m double precision,
      add column best_uncertainty_m double precision;

    alter table session_callers
      add column prompt_shown_at timestamptz,
      add column shared_at timestamptz,
      add column denied_at timestamptz;

    update tracking_sessions s set
      first_fix_at = f.received_at,
      first_fix_source = case when f.source = 'RAPID_SOS' then 'lookup' else 'link' end,
      first_fix_uncertainty_m = f.uncertainty_radius_m,
      best_uncertainty_m = f.best
    from (
      select distinct on (session_id) session_id, received_at, source, uncertainty_radius_m,
        min(uncertainty_radius_m) over (partition by session_id) as best
      from location_fixes
      order by session_id, received_at, seq
    ) f
    where f.session_id = s.id;

    update session_callers c set shared_at = x.at
    from (
      select caller_id, min(received_at) as at from location_fixes
      where source = 'TEXT_MESSAGE' and delivered_by is null
      group by caller_id
    ) x
    where x.caller_id = c.id;

    update session_callers c set denied_at = x.at
    from (
      select caller_id, min(created_at) as at from session_events
      where event = 'location-sharing-error' and payload->>'code' = 'permission-denied'
      group by caller_id
    ) x
    where x.caller_id = c.id;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table session_callers
      drop column denied_at, drop column shared_at, drop column prompt_shown_at;
    alter table tracking_sessions
      drop column best_uncertainty_m, drop column first_fix_uncertainty_m,
      drop column first_fix_source, drop column first_fix_at;
  `.execute(db);
}
