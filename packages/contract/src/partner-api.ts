import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { CallList } from './call-lists';
import { ErrorBody } from './errors';
import { LocationSource } from './location';
import { partnerRoute } from './route-security';
import { PhoneNumber, SmsLanguage } from './tracking';

/**
 * The partner API (issue 15), version 1: what a partner's system (a CAD, a call-handling
 * system, a search-and-rescue app) does with a key of its team: locate a number, follow the
 * session, read its fixes, end it, read the team's call lists. Every answer to a known key
 * carries the `RateLimit-*` headers; errors keep the API's `{ error, message }` shape.
 */
const c = initContract();
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody };

export const partnerLimits = {
  /** How long an `Idempotency-Key` and its answer are kept. */
  idempotencyHours: 24,
  idempotencyKeyMaxLength: 255,
  externalReferenceMaxLength: 128,
  fixesPageDefault: 100,
  fixesPageMax: 500,
} as const;

/** The partner's own name for the locate, e.g. its CAD incident number; shown back as is. */
const ExternalReference = z.string().trim().min(1).max(partnerLimits.externalReferenceMaxLength);

export const PartnerLocateInput = z
  .object({
    /** E.164 (`+12025550123`). */
    phoneNumber: PhoneNumber,
    /** The language of the text and the caller's page, should the caller be texted. */
    language: SmsLanguage.default('en'),
    externalReference: ExternalReference.nullable().default(null),
  })
  .strict();
export type PartnerLocateInput = z.input<typeof PartnerLocateInput>;

/**
 * Printable ASCII, as the IETF draft `Idempotency-Key` header asks: a UUID v4 is a good choice.
 */
export const IdempotencyKey = z
  .string()
  .min(1)
  .max(partnerLimits.idempotencyKeyMaxLength)
  .regex(/^[\x21-\x7e]+$/, 'Printable ASCII without spaces');

/** One position of a session's caller, in the order Locus received them (`seq`). */
export const PartnerFix = z.object({
  /** The order of arrival within the session (its events share the count: gaps are normal). */
  seq: z.number().int().positive(),
  callerId: z.string().uuid(),
  latitude: z.number(),
  longitude: z.number(),
  uncertaintyRadiusInMeters: z.number(),
  altitude: z.number().nullable(),
  address: z.string().nullable(),
  /** `RAPID_SOS`: the emergency-data provider; `TEXT_MESSAGE`: the caller's page (or a text). */
  source: LocationSource,
  capturedAt: z.string().datetime(),
  receivedAt: z.string().datetime(),
});
export type PartnerFix = z.infer<typeof PartnerFix>;

/**
 * How far the caller's link got, furthest first: `shared` (a position of theirs reached Locus,
 * from the page or texted back), `denied` (they or their phone refused), `opened`, `delivered`,
 * `texted`, `text-failed`, or `not-texted` (the provider found the phone, the number cannot
 * receive texts, or no text was needed).
 */
export const LinkStage = z.enum([
  'not-texted',
  'text-failed',
  'texted',
  'delivered',
  'opened',
  'denied',
  'shared',
]);
export type LinkStage = z.infer<typeof LinkStage>;

export const PartnerCaller = z.object({
  id: z.string().uuid(),
  phoneNumber: z.string(),
  language: SmsLanguage,
  link: z.object({
    stage: LinkStage,
    textedAt: z.string().datetime().nullable(),
    deliveredAt: z.string().datetime().nullable(),
    openedAt: z.string().datetime().nullable(),
    sharedAt: z.string().datetime().nullable(),
    deniedAt: z.string().datetime().nullable(),
  }),
  latestFix: PartnerFix.nullable(),
});
export type PartnerCaller = z.infer<typeof PartnerCaller>;

export const PartnerSession = z.object({
  id: z.string().uuid(),
  status: z.enum(['active', 'ended']),
  /** Who started it: this team's partner system (any of its keys) or one of its dispatchers. */
  startedBy: z.enum(['partner', 'dispatcher']),
  externalReference: z.string().nullable(),
  startedAt: z.string().datetime(),
  endedAt: z.string().datetime().nullable(),
  callers: z.array(PartnerCaller),
  /** The newest fix of any caller. */
  latestFix: PartnerFix.nullable(),
});
export type PartnerSession = z.infer<typeof PartnerSession>;

export const PartnerFixPage = z.object({
  fixes: z.array(PartnerFix),
  /**
   * Pass as `cursor` for the fixes after this page: the next page now, or, once `hasMore` is
   * false, the fixes that arrive later.
   */
  nextCursor: z.string(),
  /** True when more fixes were already there than this page held. */
  hasMore: z.boolean(),
});
export type PartnerFixPage = z.infer<typeof PartnerFixPage>;

export const PartnerCallLists = z.object({
  callLists: z.array(CallList.extend({ numbers: z.array(z.string()) })),
});
export type PartnerCallLists = z.infer<typeof PartnerCallLists>;

const SessionParams = z.object({ sessionId: z.string().uuid() });

const NOT_FOUND =
  "A session of another team, or none, is 404 `not-found`: a key sees its own team's only.";

export const partnerContract = c.router(
  {
    locate: {
      method: 'POST',
      path: '/api/v1/partner/locates',
      ...partnerRoute('locate:write'),
      summary: 'Locate a phone number: the provider first, then a text with a sharing link',
      description:
        'Scope `locate:write`. Opens a session on the key’s team and asks the emergency-data ' +
        'provider for the phone’s location when the team has it; if that finds nothing, texts ' +
        'the caller a link (in `language`) to share their phone’s live location. Answers once ' +
        'both steps are done (a few seconds), with the session as `GET /partner/sessions/{id}` ' +
        'shows it; follow it there or with webhooks.\n\n' +
        '**Idempotency.** Send an `Idempotency-Key` header (a UUID is ideal) and retry freely: ' +
        `for ${partnerLimits.idempotencyHours} h the same key answers the first request’s ` +
        'status and body again, with `Idempotent-Replayed: true`, and starts nothing. The same ' +
        'key with another body is 422 `idempotency-key-reused`; while the first request is ' +
        'still being answered, 409 `idempotency-in-progress` with `Retry-After`.\n\n' +
        'A number that cannot receive texts is 422 `untextable-number` when the team has no ' +
        'provider lookup; texts count against the team’s SMS allowance (429 `rate-limited`). ' +
        'A team no longer active is 403 `no-active-team`.',
      headers: z.object({ 'idempotency-key': IdempotencyKey.optional() }),
      body: PartnerLocateInput,
      responses: { 201: PartnerSession, 409: ErrorBody, 422: ErrorBody, ...errors },
    },
    session: {
      method: 'GET',
      path: '/api/v1/partner/sessions/:sessionId',
      ...partnerRoute('sessions:read'),
      summary: 'A session: its status, callers, how far each link got, and the latest fix',
      description: `Scope \`sessions:read\`. Sessions a dispatcher started are readable too. ${NOT_FOUND}`,
      pathParams: SessionParams,
      responses: { 200: PartnerSession, ...errors },
    },
    fixes: {
      method: 'GET',
      path: '/api/v1/partner/sessions/:sessionId/fixes',
      ...partnerRoute('sessions:read'),
      summary: "A session's fixes, oldest first, a page at a time",
      description:
        `Scope \`sessions:read\`. At most \`limit\` fixes (default ${partnerLimits.fixesPageDefault}, ` +
        `at most ${partnerLimits.fixesPageMax}); pass the answer's \`nextCursor\` as \`cursor\` ` +
        'for the next page while `hasMore` is true. A cursor stays valid: poll with the last ' +
        'one for the fixes stored since. The list stops before a fix still on its way to ' +
        'storage (several servers write in parallel), so a cursor never passes a fix it has ' +
        'not shown; one lost for over two minutes is passed. Fixes reach this list within a ' +
        'second of arriving; ' +
        `webhooks (\`location.created\`) announce each one. ${NOT_FOUND}`,
      pathParams: SessionParams,
      query: z
        .object({
          cursor: z
            .string()
            .regex(/^[A-Za-z0-9_-]{1,32}$/, 'A cursor from a previous page')
            .optional(),
          limit: z.coerce.number().int().min(1).max(partnerLimits.fixesPageMax).optional(),
        })
        .strict(),
      responses: { 200: PartnerFixPage, ...errors },
    },
    end: {
      method: 'POST',
      path: '/api/v1/partner/sessions/:sessionId/end',
      ...partnerRoute('locate:write'),
      summary: 'End a session: links stop working and the caller’s page says so',
      description:
        'Scope `locate:write`. Ending an ended session changes nothing and answers it as it is. ' +
        `Audited. ${NOT_FOUND}`,
      pathParams: SessionParams,
      body: c.noBody(),
      responses: { 200: PartnerSession, ...errors },
    },
    callLists: {
      method: 'GET',
      path: '/api/v1/partner/call-lists',
      ...partnerRoute('sessions:read'),
      summary: "The key's team's call lists, with their numbers",
      description:
        'Scope `sessions:read`. Only the team the key belongs to, lists by name; each list’s ' +
        'numbers in E.164, sorted.',
      responses: { 200: PartnerCallLists, ...errors },
    },
  },
  { strictStatusCodes: true },
);
