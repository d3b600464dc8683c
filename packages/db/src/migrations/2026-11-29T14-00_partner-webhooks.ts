import { sql, type Kysely } from 'kysely';

// Webhooks (issue 15): a team's endpoints, and an outbox of deliveries written in the same
// transaction as what they announce (a session opened or ended, fixes stored, a caller's
// sharing changed), so that nothing accepted is lost between the database and the queue. The
// worker's `webhook.dispatch` picks the due ones and `webhook.deliver` sends each, signed as
// the Standard Webhooks specification says; each attempt is kept.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table partner_webhooks (
      id uuid primary key default gen_random_uuid(),
      team_id uuid not null references teams (id) on delete cascade,
      url text not null check (char_length(url) <= 2048),
      description text check (char_length(description) <= 200),
      events text[] not null check (cardinality(events) > 0),
      -- whsec_…: the deliveries are signed with it, so it is kept, not hashed.
      secret text not null,
      enabled boolean not null default true,
      disabled_reason text,
      created_at timestamptz not null default now(),
      created_by_key uuid references partner_api_keys (id) on delete set null
    );
    create index partner_webhooks_team on partner_webhooks (team_id, created_at);

    create table partner_webhook_deliveries (
      -- msg_…: the webhook-id header, the same for every attempt and a resend.
      id text primary key,
      webhook_id uuid not null references partner_webhooks (id) on delete cascade,
      event text not null,
      payload jsonb not null,
      created_at timestamptz not null default now(),
      status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
      attempts integer not null default 0,
      -- The attempts made before the last resend: a resend gets a whole new round of retries.
      resend_base integer not null default 0,
      next_attempt_at timestamptz not null default now(),
      delivered_at timestamptz
    );
    create index partner_webhook_deliveries_endpoint
      on partner_webhook_deliveries (webhook_id, created_at desc);
    create index partner_webhook_deliveries_due
      on partner_webhook_deliveries (next_attempt_at) where status = 'pending';

    create table partner_webhook_attempts (
      delivery_id text not null references partner_webhook_deliveries (id) on delete cascade,
      attempt integer not null,
      at timestamptz not null default now(),
      status_code integer,
      error text,
      duration_ms integer not null,
      primary key (delivery_id, attempt)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table partner_webhook_attempts;
    drop table partner_webhook_deliveries;
    drop table partner_webhooks;
  `.execute(db);
}
