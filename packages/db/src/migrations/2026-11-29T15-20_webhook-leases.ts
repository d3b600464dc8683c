import { sql, type Kysely } from 'kysely';

// Webhook deliveries in flight, per endpoint (issue 15: "a receiver answering slowly does not
// slow anything else"): a leased delivery keeps `leased_until` until its attempt is recorded,
// so the dispatcher can give each endpoint at most WEBHOOK_CONCURRENCY_PER_ENDPOINT of the
// shared delivery slots; a slow or silent receiver holds only its own.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table partner_webhook_deliveries add column leased_until timestamptz;
    create index partner_webhook_deliveries_in_flight
      on partner_webhook_deliveries (webhook_id, leased_until) where status = 'pending';
    -- The dispatcher takes each endpoint's oldest due deliveries.
    create index partner_webhook_deliveries_endpoint_due
      on partner_webhook_deliveries (webhook_id, next_attempt_at) where status = 'pending';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index partner_webhook_deliveries_endpoint_due;
    drop index partner_webhook_deliveries_in_flight;
    alter table partner_webhook_deliveries drop column leased_until;
  `.execute(db);
}
