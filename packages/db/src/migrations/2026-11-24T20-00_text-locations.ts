import { sql, type Kysely } from 'kysely';

// Locating by text message (when the caller's mobile data fails):
// - session_callers.text_code: a short random code the caller's page puts in the location text
//   it prefills ("LOC … #K7Q2"). Random (from gen_random_uuid, a strong generator), so it says
//   nothing about the session; it is only ever matched among the callers of the sender's number.
// - location_fixes.delivered_by: 'sms' for a fix that came back by text message (null: the page's
//   socket or the provider), so the dispatcher's replay marks it as the live frame did.
// - sms_messages.note: what an inbound text became (a location, a duplicate) or why it was not
//   read as one, for the session log and the inbound log.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function locus_text_code() returns text language sql volatile as $$
      select string_agg(
        substr('23456789ABCDEFGHJKLMNPQRSTUVWXYZ', (get_byte(bytes, i) % 32) + 1, 1), '' order by i)
      from (select uuid_send(gen_random_uuid()) as bytes) random, generate_series(0, 3) as i
    $$
  `.execute(db);
  await sql`
    alter table session_callers
      add column text_code text not null default locus_text_code()
        check (text_code ~ '^[2-9A-HJ-NP-Z]{4}$')
  `.execute(db);
  await sql`
    alter table location_fixes
      add column delivered_by text check (delivered_by in ('sms'))
  `.execute(db);
  await sql`alter table sms_messages add column note text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sms_messages drop column note`.execute(db);
  await sql`alter table location_fixes drop column delivered_by`.execute(db);
  await sql`alter table session_callers drop column text_code`.execute(db);
  await sql`drop function locus_text_code()`.execute(db);
}
