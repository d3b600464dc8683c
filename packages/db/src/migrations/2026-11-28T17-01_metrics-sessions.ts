import { sql, type Kysely } from 'kysely';

// Metrics over a team's sessions (issue 13: fast over two years of history).
// - Every query starts from the team's sessions in a range, or one user's among them; the columns
//   the counts read ride along, so that a range is one index-only scan of the index.
// - The rows counted per session (callers, sent texts, lookups, accepted transfers) are found by
//   their own time first: none is written before its session starts, so the range's start bounds
//   them and a recent range reads only recent rows (session-totals-repo.ts).
// `if not exists`: other metrics queries share these access paths.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index if not exists tracking_sessions_team_created on tracking_sessions
      (team_id, created_at)
      include (id, created_by, first_fix_at, first_fix_source, chat_initiated_at);
    create index if not exists tracking_sessions_team_creator_created on tracking_sessions
      (team_id, created_by, created_at)
      include (id, first_fix_at, first_fix_source, chat_initiated_at);
    create index if not exists session_callers_created on session_callers (created_at)
      include (session_id);
    create index if not exists sms_messages_sent_outbound on sms_messages (created_at)
      include (session_id) where direction = 'outbound' and sent_at is not null;
    create index if not exists location_lookups_created on location_lookups (created_at)
      include (session_id, status);
    create index if not exists case_transfers_team_accepted on case_transfers (team_id, offered_at)
      include (session_id) where status = 'accepted';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index if exists case_transfers_team_accepted;
    drop index if exists location_lookups_created;
    drop index if exists sms_messages_sent_outbound;
    drop index if exists session_callers_created;
    drop index if exists tracking_sessions_team_creator_created;
    drop index if exists tracking_sessions_team_created;
  `.execute(db);
}
