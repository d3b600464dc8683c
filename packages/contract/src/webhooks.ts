import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ErrorBody } from './errors';
import { partnerRoute } from './route-security';

/**
 * Webhooks (issue 15): a team's partner system registers endpoints with a key that has
 * `webhooks:manage`, and Locus POSTs each chosen event to them, signed as the Standard Webhooks
 * specification says (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`, an
 * HMAC-SHA256 of `<id>.<timestamp>.<body>` with the endpoint's `whsec_` secret). A failed
 * delivery is retried with exponential back-off for about a day; each attempt is kept.
 */
const c = initContract();
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody };

export const webhookEvents = [
  'session.started',
  'location.created',
  'caller.sharing_changed',
  'session.ended',
  'sms.status',
] as const;
export const WebhookEvent = z.enum(webhookEvents);
export type WebhookEvent = z.infer<typeof WebhookEvent>;

export const webhookEventDescriptions: Record<WebhookEvent, string> = {
  'session.started': 'A session of the team was opened, by a dispatcher or a partner locate.',
  'location.created': 'A position of a caller was stored (from the provider, the page or a text).',
  'caller.sharing_changed': 'A caller started or stopped sharing on their page.',
  'session.ended': 'A session ended: its links no longer work.',
  'sms.status': 'A text to a caller was sent, or could not be.',
};

export const webhookLimits = {
  endpointsPerTeam: 10,
  urlMaxLength: 2048,
  descriptionMaxLength: 200,
  deliveriesPageMax: 100,
} as const;

/** The Standard Webhooks secret: `whsec_` and the base64 of 32 random bytes. */
export const webhookSecretPattern = /^whsec_[A-Za-z0-9+/]{43}=$/;

const WebhookUrl = z
  .string()
  .trim()
  .max(webhookLimits.urlMaxLength)
  .url()
  .refine((value) => /^https?:\/\//i.test(value), 'An https: address')
  // zod runs this refinement after `.url()` refused the text too: an address `URL` cannot read
  // threw out of safeParse, and the route answered 500 (found by tests/fuzz). It is refused
  // above already, so here it passes.
  .refine((value) => {
    if (!URL.canParse(value)) return true;
    const url = new URL(value);
    return url.username === '' && url.password === '';
  }, 'No user name or password in the address');

const EventList = z
  .array(WebhookEvent)
  .min(1, 'Choose at least one event')
  .refine((events) => new Set(events).size === events.length, 'Each event once');

export const Webhook = z.object({
  id: z.string().uuid(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(WebhookEvent),
  enabled: z.boolean(),
  /** Why Locus turned it off (its deliveries failed for a day), or null. */
  disabledReason: z.string().nullable(),
  createdAt: z.string().datetime(),
});
export type Webhook = z.infer<typeof Webhook>;

export const CreateWebhookInput = z
  .object({
    url: WebhookUrl,
    events: EventList,
    description: z.string().trim().max(webhookLimits.descriptionMaxLength).nullable().default(null),
  })
  .strict();
export type CreateWebhookInput = z.input<typeof CreateWebhookInput>;

export const UpdateWebhookInput = z
  .object({
    url: WebhookUrl.optional(),
    events: EventList.optional(),
    description: z.string().trim().max(webhookLimits.descriptionMaxLength).nullable().optional(),
    /** Turning an endpoint back on clears why it was turned off. */
    enabled: z.boolean().optional(),
  })
  .strict();
export type UpdateWebhookInput = z.input<typeof UpdateWebhookInput>;

/** The new endpoint with its signing secret: shown in this answer only. */
export const CreatedWebhook = z.object({
  webhook: Webhook,
  secret: z.string().regex(webhookSecretPattern),
});
export type CreatedWebhook = z.infer<typeof CreatedWebhook>;

export const WebhookAttempt = z.object({
  attempt: z.number().int().positive(),
  at: z.string().datetime(),
  /** The receiver's HTTP status, or null when none came (refused, timed out, blocked). */
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int(),
});

export const WebhookDelivery = z.object({
  /** The `webhook-id` header: the same for every attempt and a resend, to deduplicate on. */
  id: z.string(),
  event: WebhookEvent,
  createdAt: z.string().datetime(),
  status: z.enum(['pending', 'delivered', 'failed']),
  /** When the next attempt is due, while pending. */
  nextAttemptAt: z.string().datetime().nullable(),
  attempts: z.array(WebhookAttempt),
  payload: z.record(z.unknown()),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryList = z.object({ deliveries: z.array(WebhookDelivery) });

const WebhookParams = z.object({ id: z.string().uuid() });
const DeliveryParams = z.object({ id: z.string().uuid(), deliveryId: z.string().max(64) });

const SCOPE = 'Scope `webhooks:manage`; the key’s team’s endpoints only (another team’s is 404).';

export const partnerWebhooksContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/api/v1/partner/webhooks',
      ...partnerRoute('webhooks:manage'),
      summary: "The team's webhook endpoints, oldest first, without their secrets",
      description: SCOPE,
      responses: { 200: z.object({ webhooks: z.array(Webhook) }), ...errors },
    },
    create: {
      method: 'POST',
      path: '/api/v1/partner/webhooks',
      ...partnerRoute('webhooks:manage'),
      summary: 'Register an endpoint; its signing secret is in this answer only',
      description:
        `${SCOPE} The address must be \`https:\` (plain \`http:\` only where the deployment ` +
        'allows it, for tests), and deliveries never go to private, loopback or link-local ' +
        `addresses unless the deployment allows that too. At most ${webhookLimits.endpointsPerTeam} ` +
        'endpoints per team (409 `conflict`).',
      body: CreateWebhookInput,
      responses: { 201: CreatedWebhook, 409: ErrorBody, ...errors },
    },
    update: {
      method: 'PATCH',
      path: '/api/v1/partner/webhooks/:id',
      ...partnerRoute('webhooks:manage'),
      summary: 'Change an endpoint’s address, events or description, or turn it off and on',
      description: SCOPE,
      pathParams: WebhookParams,
      body: UpdateWebhookInput,
      responses: { 200: Webhook, ...errors },
    },
    remove: {
      method: 'DELETE',
      path: '/api/v1/partner/webhooks/:id',
      ...partnerRoute('webhooks:manage'),
      summary: 'Delete an endpoint and its delivery log; nothing more is sent to it',
      description: SCOPE,
      pathParams: WebhookParams,
      body: c.noBody(),
      responses: { 204: c.noBody(), ...errors },
    },
    deliveries: {
      method: 'GET',
      path: '/api/v1/partner/webhooks/:id/deliveries',
      ...partnerRoute('webhooks:manage'),
      summary: 'An endpoint’s newest deliveries, with every attempt',
      description: `${SCOPE} At most ${webhookLimits.deliveriesPageMax}, newest first.`,
      pathParams: WebhookParams,
      query: z
        .object({
          limit: z.coerce.number().int().min(1).max(webhookLimits.deliveriesPageMax).optional(),
        })
        .strict(),
      responses: { 200: WebhookDeliveryList, ...errors },
    },
    resend: {
      method: 'POST',
      path: '/api/v1/partner/webhooks/:id/deliveries/:deliveryId/resend',
      ...partnerRoute('webhooks:manage'),
      summary: 'Send a delivery again, now, with the same webhook-id',
      description: `${SCOPE} The delivery is pending again and retried as a new one would be.`,
      pathParams: DeliveryParams,
      body: c.noBody(),
      responses: { 202: WebhookDelivery, ...errors },
    },
  },
  { strictStatusCodes: true },
);

const TeamParams = z.object({ teamId: z.string().uuid() });
const TeamWebhookParams = TeamParams.extend({ id: z.string().uuid() });
const TeamDeliveryParams = TeamWebhookParams.extend({ deliveryId: z.string().max(64) });

const TEAM_ACCESS =
  'The API page’s view of the same endpoints, for team admins (and admins) of the team and ' +
  'platform admins. Adding one needs the team active at the enterprise level (403 `forbidden`); ' +
  'a team the user is not on is 404.';

/** The API page (/admin/admin-api): a team admin manages the team's endpoints as its keys do. */
export const teamWebhooksContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/api/v1/teams/:teamId/webhooks',
      summary: "A team's webhook endpoints, oldest first, without their secrets",
      description: TEAM_ACCESS,
      pathParams: TeamParams,
      responses: { 200: z.object({ webhooks: z.array(Webhook) }), ...errors },
    },
    create: {
      method: 'POST',
      path: '/api/v1/teams/:teamId/webhooks',
      summary: 'Add an endpoint; its signing secret is in this answer only',
      description: `${TEAM_ACCESS} As \`POST /api/v1/partner/webhooks\`.`,
      pathParams: TeamParams,
      body: CreateWebhookInput,
      responses: { 201: CreatedWebhook, 409: ErrorBody, ...errors },
    },
    update: {
      method: 'PATCH',
      path: '/api/v1/teams/:teamId/webhooks/:id',
      summary: 'Change an endpoint, or turn it off and on',
      description: TEAM_ACCESS,
      pathParams: TeamWebhookParams,
      body: UpdateWebhookInput,
      responses: { 200: Webhook, ...errors },
    },
    remove: {
      method: 'DELETE',
      path: '/api/v1/teams/:teamId/webhooks/:id',
      summary: 'Delete an endpoint and its delivery log',
      description: TEAM_ACCESS,
      pathParams: TeamWebhookParams,
      body: c.noBody(),
      responses: { 204: c.noBody(), ...errors },
    },
    deliveries: {
      method: 'GET',
      path: '/api/v1/teams/:teamId/webhooks/:id/deliveries',
      summary: 'An endpoint’s newest deliveries, with every attempt',
      description: TEAM_ACCESS,
      pathParams: TeamWebhookParams,
      query: z
        .object({
          limit: z.coerce.number().int().min(1).max(webhookLimits.deliveriesPageMax).optional(),
        })
        .strict(),
      responses: { 200: WebhookDeliveryList, ...errors },
    },
    resend: {
      method: 'POST',
      path: '/api/v1/teams/:teamId/webhooks/:id/deliveries/:deliveryId/resend',
      summary: 'Send a delivery again, now, with the same webhook-id',
      description: TEAM_ACCESS,
      pathParams: TeamDeliveryParams,
      body: c.noBody(),
      responses: { 202: WebhookDelivery, ...errors },
    },
  },
  { strictStatusCodes: true },
);
