import type { Database } from '@locus/db';
import { sql } from 'kysely';

/**
 * Due deliveries (new ones, retries whose time came, and any whose job was lost), leased for
 * `leaseSeconds` so that the next dispatch does not enqueue them again meanwhile. Several
 * workers dispatching at once each take different rows (skip locked).
 */
export async function leaseDueDeliveries(
  db: Database,
  limit: number,
  leaseSeconds: number,
): Promise<{ id: string; attempts: number }[]> {
  return db
    .updateTable('partner_webhook_deliveries')
    .set({ next_attempt_at: sql<Date>`now() + make_interval(secs => ${leaseSeconds})` })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('partner_webhook_deliveries as d')
        // A turned-off endpoint's deliveries wait, pending, until it is turned on again.
        .innerJoin('partner_webhooks as w', 'w.id', 'd.webhook_id')
        .select('d.id')
        .where('w.enabled', '=', true)
        .where('d.status', '=', 'pending')
        .where('d.next_attempt_at', '<=', sql<Date>`now()`)
        .orderBy('d.next_attempt_at')
        .limit(limit)
        .forUpdate('d')
        .skipLocked(),
    )
    .returning(['id', 'attempts'])
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
        .set({ status: 'delivered', attempts: outcome.attempt, delivered_at: sql<Date>`now()` })
        .execute();
      return;
    }
    if (outcome.retryInMs !== null) {
      await base
        .set({
          attempts: outcome.attempt,
          next_attempt_at: sql<Date>`now() + make_interval(secs => ${outcome.retryInMs / 1000})`,
        })
        .execute();
      return;
    }
    await base.set({ status: 'failed', attempts: outcome.attempt }).execute();
    await trx
      .updateTable('partner_webhooks')
      .set({ enabled: false, disabled_reason: outcome.disableReason })
      .where('id', '=', delivery.webhookId)
      .where('enabled', '=', true)
      .execute();
  });
}
