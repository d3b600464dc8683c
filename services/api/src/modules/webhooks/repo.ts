import type { WebhookEvent } from '@locus/contract';
import type { Database } from '@locus/db';
import { sql } from 'kysely';

export interface WebhookRow {
  id: string;
  url: string;
  description: string | null;
  events: WebhookEvent[];
  enabled: boolean;
  disabledReason: string | null;
  createdAt: Date;
}

const columns = [
  'id',
  'url',
  'description',
  'events',
  'enabled',
  'disabled_reason',
  'created_at',
] as const;

const toWebhook = (row: {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
  disabled_reason: string | null;
  created_at: Date;
}): WebhookRow => ({
  id: row.id,
  url: row.url,
  description: row.description,
  events: row.events as WebhookEvent[],
  enabled: row.enabled,
  disabledReason: row.disabled_reason,
  createdAt: row.created_at,
});

export async function listWebhooks(db: Database, teamId: string): Promise<WebhookRow[]> {
  const rows = await db
    .selectFrom('partner_webhooks')
    .select(columns)
    .where('team_id', '=', teamId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toWebhook);
}

export async function findWebhook(
  db: Database,
  teamId: string,
  id: string,
): Promise<WebhookRow | undefined> {
  const row = await db
    .selectFrom('partner_webhooks')
    .select(columns)
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toWebhook(row) : undefined;
}

/** Inserts the endpoint unless the team already has `cap`; undefined when it has. */
export async function insertWebhook(
  db: Database,
  webhook: {
    teamId: string;
    url: string;
    description: string | null;
    events: WebhookEvent[];
    secret: string;
    createdByKey: string | null;
    cap: number;
  },
): Promise<WebhookRow | undefined> {
  return db.transaction().execute(async (trx) => {
    // The team's row lock: two creations at once cannot both pass the cap.
    await trx
      .selectFrom('teams')
      .select('id')
      .where('id', '=', webhook.teamId)
      .forUpdate()
      .execute();
    const count = await trx
      .selectFrom('partner_webhooks')
      .select(sql<number>`count(*)::int`.as('count'))
      .where('team_id', '=', webhook.teamId)
      .executeTakeFirstOrThrow();
    if (count.count >= webhook.cap) return undefined;
    const row = await trx
      .insertInto('partner_webhooks')
      .values({
        team_id: webhook.teamId,
        url: webhook.url,
        description: webhook.description,
        events: webhook.events,
        secret: webhook.secret,
        created_by_key: webhook.createdByKey,
      })
      .returning(columns)
      .executeTakeFirstOrThrow();
    return toWebhook(row);
  });
}

export async function updateWebhook(
  db: Database,
  teamId: string,
  id: string,
  change: {
    url?: string | undefined;
    events?: WebhookEvent[] | undefined;
    description?: string | null | undefined;
    enabled?: boolean | undefined;
  },
): Promise<WebhookRow | undefined> {
  const changes = {
    ...(change.url !== undefined ? { url: change.url } : {}),
    ...(change.events !== undefined ? { events: change.events } : {}),
    ...(change.description !== undefined ? { description: change.description } : {}),
    ...(change.enabled !== undefined
      ? { enabled: change.enabled, ...(change.enabled ? { disabled_reason: null } : {}) }
      : {}),
  };
  // Nothing to change: the endpoint as it is (an empty `set` was an SQL syntax error, answered
  // 500; found by tests/fuzz).
  if (Object.keys(changes).length === 0) return findWebhook(db, teamId, id);
  const row = await db
    .updateTable('partner_webhooks')
    .set(changes)
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .returning(columns)
    .executeTakeFirst();
  return row ? toWebhook(row) : undefined;
}

export async function deleteWebhook(db: Database, teamId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('partner_webhooks')
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export interface DeliveryRow {
  id: string;
  event: WebhookEvent;
  createdAt: Date;
  status: 'pending' | 'delivered' | 'failed';
  nextAttemptAt: Date;
  payload: Record<string, unknown>;
  attempts: {
    attempt: number;
    at: Date;
    statusCode: number | null;
    error: string | null;
    durationMs: number;
  }[];
}

/** The endpoint's newest deliveries, each with its attempts in order. */
export async function listDeliveries(
  db: Database,
  webhookId: string,
  options: { limit: number; deliveryId?: string },
): Promise<DeliveryRow[]> {
  let query = db
    .selectFrom('partner_webhook_deliveries')
    .select(['id', 'event', 'created_at', 'status', 'next_attempt_at', 'payload'])
    .where('webhook_id', '=', webhookId);
  if (options.deliveryId) query = query.where('id', '=', options.deliveryId);
  const deliveries = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(options.limit)
    .execute();
  if (deliveries.length === 0) return [];
  const attempts = await db
    .selectFrom('partner_webhook_attempts')
    .select(['delivery_id', 'attempt', 'at', 'status_code', 'error', 'duration_ms'])
    .where(
      'delivery_id',
      'in',
      deliveries.map((row) => row.id),
    )
    .orderBy('attempt')
    .execute();
  return deliveries.map((row) => ({
    id: row.id,
    event: row.event as WebhookEvent,
    createdAt: row.created_at,
    status: row.status as DeliveryRow['status'],
    nextAttemptAt: row.next_attempt_at,
    payload: row.payload as Record<string, unknown>,
    attempts: attempts
      .filter((attempt) => attempt.delivery_id === row.id)
      .map((attempt) => ({
        attempt: attempt.attempt,
        at: attempt.at,
        statusCode: attempt.status_code,
        error: attempt.error,
        durationMs: attempt.duration_ms,
      })),
  }));
}

/** Pending again, due now: the dispatcher sends it with the same id. False if there is none. */
export async function markForResend(
  db: Database,
  webhookId: string,
  deliveryId: string,
): Promise<boolean> {
  const result = await db
    .updateTable('partner_webhook_deliveries')
    .set((eb) => ({
      status: 'pending',
      next_attempt_at: sql<Date>`now()`,
      delivered_at: null,
      resend_base: eb.ref('attempts'),
    }))
    .where('webhook_id', '=', webhookId)
    .where('id', '=', deliveryId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
