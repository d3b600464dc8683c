import { sql, type Kysely } from 'kysely';

// Issue 18, the known reliability gaps.
// - `connected_until` replaces the `connected_sockets` counter: every API instance renews it for
//   the callers whose sockets it holds, so an instance that dies without closing its sockets
//   leaves nothing behind once the lease runs out (a counter stayed above zero for good).
// - `reported_status` is the status of an outbound text that its session was last told of. Any
//   API instance reports a row whose status moved past it, so an outcome that arrives after the
//   instance that took the request died still reaches the dispatcher.
// - `sms_early_reports` keeps Twilio delivery reports that arrive before the worker stored the
//   message's id; storing the id applies them.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table session_callers add column connected_until timestamptz;
    update session_callers set connected_until = now() + interval '45 seconds'
      where connected_sockets > 0;
    alter table sms_messages add column reported_status text;
    update sms_messages set reported_status = status
      where direction = 'outbound' and created_at > now() - interval '1 day';
    create index sms_messages_unreported on sms_messages (created_at)
      where direction = 'outbound' and status <> 'queued' and reported_status is not null
        and reported_status <> status and session_id is not null;
    create table sms_early_reports (
      provider_message_id text not null,
      status text not null,
      error text,
      received_at timestamptz not null default now(),
      primary key (provider_message_id, status)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table sms_early_reports;
    drop index sms_messages_unreported;
    alter table sms_messages drop column reported_status;
    alter table session_callers drop column connected_until;
  `.execute(db);
}
