import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ColorScheme, CurrentUser, DemoRequestBody, Team } from './auth';
import { IntegerId, IntegerIdParam } from './database-ids';
import { ErrorBody } from './errors';
import { PhoneNumber } from './tracking';
import { publicRoute } from './route-security';

const c = initContract();
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody };

/** SPEC.md §3 "Agency (PSAP)". */
export const Psap = z.object({ id: z.number().int(), name: z.string(), state: z.string() });
export type Psap = z.infer<typeof Psap>;

export const psapContract = c.router(
  {
    search: {
      method: 'POST',
      path: '/api/v1/psap/search',
      ...publicRoute,
      summary: 'Agencies whose name contains the search term (at most 20)',
      description:
        "For sign-up's agency picker: a case-insensitive search of the agencies Locus knows. No sign-in.",
      body: z.object({ searchTerm: z.string().trim().min(1).max(100) }),
      responses: { 200: z.array(Psap), ...errors },
    },
    byId: {
      method: 'GET',
      path: '/api/v1/psap/:id',
      ...publicRoute,
      summary: 'One agency',
      description:
        "An agency's name and state, by id. No sign-in (sign-up shows the chosen agency).",
      pathParams: z.object({ id: IntegerIdParam }),
      responses: { 200: Psap, ...errors },
    },
  },
  { strictStatusCodes: true },
);

/**
 * What a user may change about themselves. Admins of the platform may also change the
 * fields of {@link AdminUserPatch} on anyone.
 */
export const SelfUserPatch = z
  .object({
    firstName: z.string().trim().min(1).max(100),
    lastName: z.string().trim().min(1).max(100),
    phoneNumber: z.string().trim().max(32).nullable(),
    hasSeenWalkthrough: z.boolean(),
    colorScheme: ColorScheme,
  })
  .partial()
  .strict();
export const AdminUserPatch = SelfUserPatch.extend({
  isAdmin: z.boolean(),
  psapId: IntegerId.nullable(),
  emailConfirmed: z.literal(true),
})
  .partial()
  .strict();
export type AdminUserPatch = z.infer<typeof AdminUserPatch>;

export const usersContract = c.router(
  {
    patch: {
      method: 'PATCH',
      path: '/api/v1/users/:id',
      summary:
        'Change a user (yourself: profile, hasSeenWalkthrough and colorScheme; platform admins: more)',
      description:
        "A user may change their own profile fields; platform admins may also change another user's flags. Answers the updated user; anyone else is 403 `forbidden`.",
      pathParams: z.object({ id: z.string().uuid() }),
      body: AdminUserPatch,
      /** 409 `conflict`: confirming an address that another account has already confirmed. */
      responses: { 200: CurrentUser, ...errors, 409: ErrorBody },
    },
    teams: {
      method: 'GET',
      path: '/api/v1/users/:id/teams',
      summary: "A user's teams (yourself, or anyone for platform admins)",
      description: "Each team with the user's role in it and whether it is active.",
      pathParams: z.object({ id: z.string().uuid() }),
      responses: { 200: z.array(Team), ...errors },
    },
  },
  { strictStatusCodes: true },
);

export const PendingUscgUser = z.object({
  id: z.string().uuid(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  unitName: z.string(),
  requestedAt: z.string().datetime(),
});
export type PendingUscgUser = z.infer<typeof PendingUscgUser>;

export const uscgContract = c.router(
  {
    pending: {
      method: 'GET',
      path: '/api/v1/uscg/pending',
      summary: 'Coast-guard team admins: coast-guard users waiting for approval',
      description:
        'Users who completed the coast-guard registration and wait for an admin of a coast-guard team.',
      responses: { 200: z.array(PendingUscgUser), ...errors },
    },
    decide: {
      method: 'POST',
      path: '/api/v1/uscg/:userId/:decision',
      summary: 'Approve (joins your coast-guard team) or reject a pending coast-guard user',
      description:
        "`decision` is `approve` or `reject`. Approval adds the user to the admin's coast-guard team; both are written to the audit log.",
      pathParams: z.object({
        userId: z.string().uuid(),
        decision: z.enum(['approve', 'reject']),
      }),
      body: c.noBody(),
      responses: { 204: c.noBody(), ...errors },
    },
  },
  { strictStatusCodes: true },
);

export const DemoRequest = DemoRequestBody.omit({ captchaToken: true }).extend({
  id: z.string().uuid(),
  comment: z.string().nullable(),
  createdAt: z.string().datetime(),
});
export type DemoRequest = z.infer<typeof DemoRequest>;

export const demoRequestsContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/api/v1/admin/demo-requests',
      summary: 'Platform admins: demo requests, newest first',
      description: 'Every demo request from the public site, with its contact details and comment.',
      responses: { 200: z.array(DemoRequest), ...errors },
    },
  },
  { strictStatusCodes: true },
);

export const OutboxEmail = z.object({
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  createdAt: z.string().datetime(),
});
export const OutboxSms = z.object({ to: z.string(), body: z.string(), createdAt: z.string() });

/** Exists only while the outbox providers are in use and NODE_ENV is not production. */
export const devOutboxContract = c.router(
  {
    email: {
      method: 'GET',
      path: '/api/v1/dev/outbox/email',
      ...publicRoute,
      summary: 'Development: e-mails Locus would have sent, newest first',
      description:
        'Only when `DEV_OUTBOX=on` (never in production, nor next to a real e-mail provider): what the e-mail outbox holds.',
      query: z.object({ to: z.string().trim().toLowerCase().optional() }),
      responses: { 200: z.array(OutboxEmail), 404: ErrorBody },
    },
    sms: {
      method: 'GET',
      path: '/api/v1/dev/outbox/sms',
      ...publicRoute,
      summary: 'Development: text messages Locus would have sent, newest first',
      description:
        'Only when `DEV_OUTBOX=on` (never in production, nor next to a real SMS provider): what the SMS outbox holds.',
      query: z.object({ to: z.string().trim().optional() }),
      responses: { 200: z.array(OutboxSms), 404: ErrorBody },
    },
    receiveSms: {
      method: 'POST',
      path: '/api/v1/dev/outbox/sms/inbound',
      ...publicRoute,
      summary: 'Development: a text message from a phone, as if the SMS provider had delivered it',
      description:
        'Handled exactly as an inbound text from the provider (STOP, HELP, START, a location texted ' +
        'back); answers the automatic reply, if any. Only with the outbox SMS provider outside ' +
        'production (404 otherwise).',
      body: z.object({ from: PhoneNumber, body: z.string().max(1600) }).strict(),
      responses: {
        200: z.object({ reply: z.string().nullable() }),
        400: ErrorBody,
        404: ErrorBody,
      },
    },
  },
  { strictStatusCodes: true },
);

/** What the web app needs to know before anyone signs in. Every value comes from configuration. */
export const PublicConfig = z.object({
  coastGuard: z.object({
    /** E-mail addresses ending in this domain are coast-guard users (default uscg.mil). */
    emailDomain: z.string(),
    /** An extra regular expression for coast-guard aliases, or null. */
    aliasPattern: z.string().nullable(),
  }),
  captcha: z.discriminatedUnion('provider', [
    z.object({ provider: z.literal('off') }),
    z.object({ provider: z.enum(['turnstile', 'hcaptcha']), siteKey: z.string() }),
  ]),
  /** The public demo video on the landing page, or null to hide it. */
  demoVideoUrl: z.string().url().nullable(),
  /** Third-party widgets; each loads only when its URL is set. */
  chatAssistantScriptUrl: z.string().url().nullable(),
  supportWidgetScriptUrl: z.string().url().nullable(),
  /**
   * The dispatcher map's tiles: a Leaflet URL template and its attribution (HTML), and a PMTiles
   * archive of vector tiles (a URL or a path on this server) that takes precedence when set.
   * Either way the web app falls back to outlines it ships when the tiles cannot be loaded.
   */
  map: z.object({
    tileUrl: z.string().min(1),
    attribution: z.string(),
    pmtilesUrl: z.string().min(1).nullable(),
  }),
  links: z.object({
    faq: z.string().url(),
    helpCentre: z.string().url(),
    trainingVideos: z.string().url().nullable(),
    support: z.string().url(),
    careers: z.string().url(),
    social: z.array(z.object({ name: z.string(), url: z.string().url() })),
  }),
});
export type PublicConfig = z.infer<typeof PublicConfig>;

export const publicConfigContract = c.router(
  {
    get: {
      method: 'GET',
      path: '/api/v1/config',
      ...publicRoute,
      summary: 'Public settings the web app needs before sign-in',
      description:
        "The coast guard's e-mail domain, the captcha provider and its site key, the demo video, and similar settings that are not secret. No sign-in.",
      responses: { 200: PublicConfig },
    },
  },
  { strictStatusCodes: true },
);

/** True when an address belongs to the coast guard (SPEC.md §4 Route guard). */
export function isCoastGuardEmail(email: string, config: PublicConfig['coastGuard']): boolean {
  const lower = email.trim().toLowerCase();
  const domain = config.emailDomain.toLowerCase();
  if (lower.endsWith(`@${domain}`) || lower.endsWith(`.${domain}`)) return true;
  return config.aliasPattern !== null && new RegExp(config.aliasPattern, 'i').test(lower);
}
