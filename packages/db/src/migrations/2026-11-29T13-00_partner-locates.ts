import { sql, type Kysely } from 'kysely';

// Partner locates (issue 15): a session a partner's system started carries the key that started
// it (no user did: `created_by` stays null) and the partner's own reference for it, e.g. its CAD
// incident number. `Idempotency-Key` answers are kept 24 h per key, so that a retried request
// starts nothing twice and gets the first answer back.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table tracking_sessions
      add column partner_key_id uuid references partner_api_keys (id) on delete set null,
      add column external_reference text check (char_length(external_reference) <= 128);

    create table partner_idempotency_keys (
      key_id uuid not null references partner_api_keys (id) on delete cascade,
      idempotency_key text not null,
      -- SHA-256 of the route and its canonical body: the same key with another body is refused.
      request_hash bytea not null,
      session_id uuid references tracking_sessions (id) on delete cascade,
      response_status integer,
      response_body jsonb,
      -- Until then another attempt waits (409); after it, an attempt that died is taken over.
      locked_until timestamptz not null,
      created_at timestamptz not null default now(),
      primary key (key_id, idempotency_key),
      check ((response_status is null) = (response_body is null))
    );
    create index partner_idempotency_keys_age on partner_idempotency_keys (created_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table partner_idempotency_keys;
    alter table tracking_sessions drop column external_reference, drop column partner_key_id;
  `.execute(db);
}
