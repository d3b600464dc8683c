import { randomBytes } from 'node:crypto';
import {
  webhookLimits,
  type CreatedWebhook,
  type UpdateWebhookInput,
  type Webhook,
  type WebhookDelivery,
  type WebhookEvent,
} from '@locus/contract';
import type { Database } from '@locus/db';
import { ApiError } from '../../http/errors';
import {
  deleteWebhook,
  findWebhook,
  insertWebhook,
  listDeliveries,
  listWebhooks,
  markForResend,
  updateWebhook,
  type DeliveryRow,
  type WebhookRow,
} from './repo';

/**
 * Whose endpoints: a team's, managed by its partner system (a key with `webhooks:manage`) or by
 * its team admins on the API page (no key).
 */
export interface WebhookOwner {
  teamId: string;
  keyId: string | null;
}

export interface WebhookPolicy {
  /** WEBHOOK_ALLOW_HTTP: plain http: endpoints may be registered (tests, a local receiver). */
  allowHttp: boolean;
}

const toWebhook = (row: WebhookRow): Webhook => ({
  id: row.id,
  url: row.url,
  description: row.description,
  events: row.events,
  enabled: row.enabled,
  disabledReason: row.disabledReason,
  createdAt: row.createdAt.toISOString(),
});

const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  event: row.event,
  createdAt: row.createdAt.toISOString(),
  status: row.status,
  nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
  attempts: row.attempts.map((attempt) => ({ ...attempt, at: attempt.at.toISOString() })),
  payload: row.payload,
});

const notFound = () => new ApiError(404, 'not-found', 'There is no such webhook on your team.');

function requireScheme(url: string, policy: WebhookPolicy): void {
  if (new URL(url).protocol === 'https:' || policy.allowHttp) return;
  throw new ApiError(400, 'validation-failed', 'The request body is not valid.', [
    { path: 'url', message: 'An https: address' },
  ]);
}

/** The Standard Webhooks secret: `whsec_` and the base64 of 32 random bytes. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export async function teamWebhooks(db: Database, owner: WebhookOwner): Promise<Webhook[]> {
  return (await listWebhooks(db, owner.teamId)).map(toWebhook);
}

export async function createWebhook(
  db: Database,
  owner: WebhookOwner,
  input: { url: string; events: WebhookEvent[]; description: string | null },
  policy: WebhookPolicy,
): Promise<CreatedWebhook> {
  requireScheme(input.url, policy);
  const secret = newSecret();
  const row = await insertWebhook(db, {
    teamId: owner.teamId,
    ...input,
    secret,
    createdByKey: owner.keyId,
    cap: webhookLimits.endpointsPerTeam,
  });
  if (!row)
    throw new ApiError(
      409,
      'conflict',
      `A team has at most ${webhookLimits.endpointsPerTeam} webhook endpoints. Delete one first.`,
    );
  return { webhook: toWebhook(row), secret };
}

export async function changeWebhook(
  db: Database,
  owner: WebhookOwner,
  id: string,
  change: Omit<UpdateWebhookInput, 'url'> & { url?: string | undefined },
  policy: WebhookPolicy,
): Promise<Webhook> {
  if (change.url !== undefined) requireScheme(change.url, policy);
  const row = await updateWebhook(db, owner.teamId, id, change);
  if (!row) throw notFound();
  return toWebhook(row);
}

export async function removeWebhook(db: Database, owner: WebhookOwner, id: string): Promise<void> {
  if (!(await deleteWebhook(db, owner.teamId, id))) throw notFound();
}

export async function webhookDeliveries(
  db: Database,
  owner: WebhookOwner,
  id: string,
  limit: number | undefined,
): Promise<WebhookDelivery[]> {
  const webhook = await findWebhook(db, owner.teamId, id);
  if (!webhook) throw notFound();
  const rows = await listDeliveries(db, webhook.id, { limit: limit ?? 50 });
  return rows.map(toDelivery);
}

export async function resendDelivery(
  db: Database,
  owner: WebhookOwner,
  id: string,
  deliveryId: string,
): Promise<WebhookDelivery> {
  const webhook = await findWebhook(db, owner.teamId, id);
  if (!webhook || !(await markForResend(db, webhook.id, deliveryId)))
    throw new ApiError(404, 'not-found', 'There is no such delivery of this webhook.');
  const [row] = await listDeliveries(db, webhook.id, { limit: 1, deliveryId });
  return toDelivery(row!);
}
