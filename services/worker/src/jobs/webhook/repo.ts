import type { Database } from '@locus/db';
import { sql } from 'kysely';

/**
 * Due deliveries (new ones, retries whose time came, and any whose job was lost), leased for
 * `leaseSeconds` so that the next dispatch does not enqueue them again meanwhile, oldest first,
 * at most `perEndpoint` in flight for each endpoint (those leased and not yet answered count):
 * a slow receiver fills its own share of the delivery slots, never everyone's. Candidates are
 * taken per endpoint (its oldest `perEndpoint` due rows), so an endpoint with a long backlog
 * cannot crowd the others out of the batch. Several workers dispatching at once each take
 * different rows (skip locked); between them they may briefly exceed an endpoint's share, never
 * by more than one batch.
 */
export async function leaseDueDeliveries(
  db: Database,
  limit: number,
  leaseSeconds: number,
  perEndpoint: number,
): Promise<{ id: string; attempts: number }[]> {
  const lease = sql<Date>`now() + make_interval(secs => ${leaseSeconds})`;
  const { rows } = await sql<{ id: string; attempts: number }>`
    with candidates as (
      select w.id as webhook_id, d.id, d.next_attempt_at,
        (select count(*) from partner_webhook_deliveries f
          where f.webhook_id = w.id and f.status = 'pending' and f.leased_until > now()
        ) as in_flight
      from partner_webhooks w
      cross join lateral (
        select d.id, d.next_attempt_at from partner_webhook_deliveries d
        where d.webhook_id = w.id and d.status = 'pending' and d.next_attempt_at <= now()
        order by d.next_attempt_at
        limit ${perEndpoint}
        for update of d skip locked
      ) d
      -- A turned-off endpoint's deliveries wait, pending, until it is turned on again.
      where w.enabled
    ),
    ranked as (
      select id, next_attempt_at, in_flight,
        row_number() over (partition by webhook_id order by next_attempt_at) as n
      from candidates
    ),
    chosen as (
      select id from ranked where n + in_flight <= ${perEndpoint}
      order by next_attempt_at limit ${limit}
    )
    update partner_webhook_deliveries d
    set next_attempt_at = ${lease}, leased_until = ${lease}
    from chosen where d.id = chosen.id
    returning d.id, d.attempts
  `.execute(db);
  return rows;
}

/** The delivery's job ended without an attempt (not pending, endpoint off): its slot is free. */
export async function releaseLease(db: Database, deliveryId: string): Promise<void> {
  await db
    .updateTable('partner_webhook_deliveries')
    .set({ leased_until: null })
    .where('id', '=', deliveryId)
    .execute();
}

export interface DeliveryToSend {
  id: string;
  attempts: number;
  /** Attempts made before the last resend. */
  resendBase: number;
  /** The payload's exact JSON text: what is signed is what is sent. */
  body: string;
  webhookId: string;
  url: string;
  secret: string;
  enabled: boolean;
}

export async function findPendingDelivery(
  db: Database,
  deliveryId: string,
): Promise<DeliveryToSend | undefined> {
  const row = await db
    .selectFrom('partner_webhook_deliveries as d')
    .innerJoin('partner_webhooks as w', 'w.id', 'd.webhook_id')
    .select([
      'd.id',
      'd.attempts',
      'd.resend_base',
      sql<string>`d.payload::text`.as('body'),
      'w.id as webhook_id',
      'w.url',
      'w.secret',
      'w.enabled',
    ])
    .where('d.id', '=', deliveryId)
    .where('d.status', '=', 'pending')
    .executeTakeFirst();
  return row
    ? {
        id: row.id,
        attempts: row.attempts,
        resendBase: row.resend_base,
        body: row.body,
        webhookId: row.webhook_id,
        url: row.url,
        secret: row.secret,
        enabled: row.enabled,
      }
    : undefined;
}

export interface AttemptOutcome {
  attempt: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * Records an attempt and what follows: delivered, another attempt after `retryInMs`, or (none
 * left: `retryInMs` null) failed, which turns the endpoint off with `disableReason`.
 */
export async function recordAttempt(
  db: Database,
  delivery: Pick<DeliveryToSend, 'id' | 'webhookId'>,
  outcome: AttemptOutcome & { delivered: boolean; retryInMs: number | null; disableReason: string },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('partner_webhook_attempts')
      .values({
        delivery_id: delivery.id,
        attempt: outcome.attempt,
        status_code: outcome.statusCode,
        error: outcome.error,
        duration_ms: outcome.durationMs,
      })
      .onConflict((oc) => oc.columns(['delivery_id', 'attempt']).doNothing())
      .execute();
    const base = trx
      .updateTable('partner_webhook_deliveries')
      .where('id', '=', delivery.id)
      .where('status', '=', 'pending');
    if (outcome.delivered) {
      await base
        .set({
          status: 'delivered',
          attempts: outcome.attempt,
          delivered_at: sql<Date>`now()`,
          leased_until: null,
        })
        .execute();
      return;
    }
    if (outcome.retryInMs !== null) {
      await base
        .set({
          attempts: outcome.attempt,
          next_attempt_at: sql<Date>`now() + make_interval(secs => ${outcome.retryInMs / 1000})`,
          leased_until: null,
        })
        .execute();
      return;
    }
    await base.set({ status: 'failed', attempts: outcome.attempt, leased_until: null }).execute();
    await trx
      .updateTable('partner_webhooks')
      .set({ enabled: false, disabled_reason: outcome.disableReason })
      .where('id', '=', delivery.webhookId)
      .where('enabled', '=', true)
      .execute();
  });
}
