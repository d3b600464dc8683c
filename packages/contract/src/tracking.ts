import { initContract } from '@ts-rest/core';
import { isValidPhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js';
import { z } from 'zod';
import { ErrorBody } from './errors';
import { callerLinkPath } from './caller-link';
import { smsLanguages, type SmsLanguageCode } from './languages';
import { Location, LocationSource } from './location';
import { callerLinkRoute } from './route-security';

const c = initContract();
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody };

export { smsLanguages };
export const SmsLanguage = z.enum(smsLanguages);
export type SmsLanguage = SmsLanguageCode;

/**
 * SPEC.md §4 "Translation language mapping": English means translation off; the others are the
 * code itself. Kept beside the languages so the chat (a later issue) cannot disagree.
 */
export const translationLanguage = (language: SmsLanguage): Exclude<SmsLanguage, 'en'> | null =>
  language === 'en' ? null : language;

/** SPEC.md §9: the default country prefix for a number typed without a leading +. */
export const defaultPhonePrefix = '+1';

/** SPEC.md §4 step 1: prefix +1 when there is no leading +. */
export function normalisePhoneInput(input: string): string {
  const trimmed = input.trim();
  return trimmed.startsWith('+') ? trimmed : `${defaultPhonePrefix}${trimmed}`;
}

/** True when the (already normalised) number is a valid phone number (libphonenumber-js). */
export function isValidPhone(e164: string): boolean {
  return isValidPhoneNumber(e164);
}

/** A phone number in E.164 (`+12025550123`); spaces, dots and dashes are accepted and removed. */
export const PhoneNumber = z
  .string()
  .trim()
  .max(32)
  .refine((value) => value.startsWith('+') && isValidPhoneNumber(value), {
    message: 'Please use a valid Phone Number',
  })
  .transform((value) => parsePhoneNumberFromString(value)!.number);

/**
 * SPEC.md §3 "Connection request": `uuid` is the tracking session, `token` opens the dispatcher
 * socket for it (`join { sessionId: uuid }`), `id` is the caller: the phone being located.
 */
export const ConnectionRequest = z.object({
  uuid: z.string().uuid(),
  token: z.string(),
  id: z.string().uuid(),
});
export type ConnectionRequest = z.infer<typeof ConnectionRequest>;

const RequestBody = z
  .object({ connectionRequestUuid: z.string().uuid(), language: SmsLanguage.default('en') })
  .strict();

/** The most numbers one request may add or text (typed numbers, or the numbers of call lists). */
export const maxNumbersPerRequest = 50;

/** One phone of a session: its caller id is what every socket event names. */
export const SessionCaller = z.object({ id: z.string().uuid(), phoneNumber: z.string() });
export type SessionCaller = z.infer<typeof SessionCaller>;

/** What became of one number's text: `queued` while the provider is still being retried. */
export const TextedCaller = SessionCaller.extend({
  status: z.enum(['sent', 'queued', 'failed', 'opted-out']),
});
export type TextedCaller = z.infer<typeof TextedCaller>;

/**
 * A valid number that cannot receive texts (premium-rate, toll-free, shared-cost, UAN, pager,
 * voicemail, or a landline where the numbering plan tells them apart); it is not texted.
 * `reason` is for the dispatcher: "a premium-rate number".
 */
export const UntextableNumber = z.object({ phoneNumber: z.string(), reason: z.string() });
export type UntextableNumber = z.infer<typeof UntextableNumber>;

/** What a many-number request answers: what became of each text, and what was not texted. */
export const ManySentBody = z.object({
  callers: z.array(TextedCaller),
  /** What was typed that is not a phone number. */
  invalid: z.array(z.string()),
  untextable: z.array(UntextableNumber),
});

/**
 * Every locating route (start, lookup, texts, call-list deployment) is for members of an active
 * team who finished registering: 403 `no-active-team` / `registration-incomplete` otherwise.
 */
const whoMayLocate =
  ' 403 `no-active-team` unless the user is a member of an active team, `registration-incomplete` ' +
  'unless they finished registering.';

/**
 * Every route that texts: at most SMS_RATE_LIMIT_PER_USER texts per user and
 * SMS_RATE_LIMIT_PER_TEAM per team in each SMS_RATE_LIMIT_WINDOW_SECONDS.
 */
const textLimits =
  ' Texts are limited per user and per team: beyond either, 429 `rate-limited` with a ' +
  '`Retry-After` header (seconds), and nothing is sent.';

/** A session the signed-in dispatcher may resume after a reload (SPEC.md §9: the 60-second rule). */
export const ActiveSession = z.object({
  uuid: z.string().uuid(),
  /** A fresh dispatcher socket token; `join` without `lastSeq` replays the whole history. */
  token: z.string(),
  phoneNumber: z.string(),
  locationType: LocationSource.nullable(),
  language: SmsLanguage,
  startedAt: z.string().datetime(),
  /** Every phone of the session, first the one the dispatcher typed. */
  callers: z.array(SessionCaller),
  /**
   * True for a practice session (issue 14): the caller is simulated and nothing is texted, so
   * the console marks it as practice again after the reload. Absent for a real session.
   */
  practice: z.boolean().optional(),
});
export type ActiveSession = z.infer<typeof ActiveSession>;

/**
 * What the caller's page learns from its link before the caller agrees to anything. Reading it
 * never consumes the link. `active` says who asks; the others each have their own page.
 */
export const CallerLink = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('active'),
    language: SmsLanguage,
    /** The dispatcher's team: who is asking. */
    agencyName: z.string(),
    /**
     * Where the page offers to send its position by text message when the internet does not get
     * it through (see text-location.ts): the number that texted the link, the caller's text code,
     * and after how long without an acknowledged fix. Null when Locus cannot receive texts.
     */
    textBack: z
      .object({
        number: z.string(),
        code: z.string().regex(/^[2-9A-HJ-NP-Z]{4}$/),
        afterMs: z.number().int().positive(),
      })
      .nullable(),
  }),
  z.object({
    /** `ended`: the dispatcher ended tracking; `expired`: too old; `stopped`: the caller texted STOP. */
    status: z.enum(['ended', 'expired', 'stopped', 'invalid']),
    language: SmsLanguage.nullable(),
  }),
]);
export type CallerLink = z.infer<typeof CallerLink>;

export const trackingContract = c.router(
  {
    startStream: {
      method: 'POST',
      path: '/api/v1/location/start-stream',
      summary: 'Step 3 of SPEC.md §4: open a tracking session for one number',
      description:
        'Answers the session (`uuid`), the dispatcher socket token and the caller id. 403 `verify-email` when the ' +
        "user's address is not confirmed, 403 `unauthorized-domain` when its domain is not cleared." +
        whoMayLocate +
        ' With `practice: true` (practice mode) the session is a rehearsal: it belongs to no team and ' +
        'is never counted in metrics, the automatic lookup answers 422 `lookup-no-location` without ' +
        'asking the provider, and `request-text-message-location` texts nobody: a simulated caller ' +
        'joins instead and plays a script (refuses then allows sharing, walks a route, goes stale, ' +
        'stops sharing, answers the chat in Spanish). The texts to more numbers and "ask for ' +
        'location by text" are refused (409 `conflict`).',
      body: z
        .object({
          phoneNumber: PhoneNumber,
          /** Practice mode (issue 14): a simulated caller, no text sent, nothing counted. */
          practice: z.boolean().optional(),
        })
        .strict(),
      responses: { 200: ConnectionRequest, ...errors },
    },
    requestLocation: {
      method: 'POST',
      path: '/api/v1/location/request-location',
      summary: "Step 5: ask the emergency-data provider for the phone's location",
      description:
        'On success the fix is published to the session (source RAPID_SOS) and the lookup id is returned. ' +
        'Failures (stored as the request error): 409 `lookup-unavailable-no-team` / `lookup-unavailable-not-active`, ' +
        '502 `lookup-unavailable-invalid-keys` / `rapid-sos-unavailable`, 504 `lookup-timeout`, 422 `lookup-no-location`.' +
        whoMayLocate,
      body: RequestBody,
      responses: {
        200: z.object({ uuid: z.string().uuid() }),
        ...errors,
        409: ErrorBody,
        422: ErrorBody,
        502: ErrorBody,
        504: ErrorBody,
      },
    },
    requestTextMessage: {
      method: 'POST',
      path: '/api/v1/location/request-text-message-location',
      summary: 'Step 8: text the caller a link to share their location, in `language`',
      description:
        "`token` identifies the text message (never the caller's link, which only the phone receives). " +
        '409 `sms-opted-out` when the number texted STOP; 502 `sms-failed` when the provider refused it; ' +
        '422 `untextable-number` for a number that cannot receive texts (premium-rate, toll-free, a landline…).' +
        whoMayLocate +
        textLimits,
      body: RequestBody,
      responses: {
        200: z.object({ token: z.string().uuid() }),
        ...errors,
        409: ErrorBody,
        422: ErrorBody,
        502: ErrorBody,
      },
    },
    askLocationByText: {
      method: 'POST',
      path: '/api/v1/location/ask-location-by-text',
      summary: 'Text the caller how to reply with their position, in their language',
      description:
        'For a caller whose page cannot get positions through (mobile data fails while texts still do): ' +
        'Locus texts them how to reply with a map pin shared from their maps app or a Plus Code, and ' +
        'reads the reply as a location (`deliveredBy: sms`). `callerId` defaults to the number the ' +
        'session was opened for. The session log shows `text-location-requested`. 404 for a caller ' +
        'not of the session; 409 `sms-opted-out` when the number texted STOP, `conflict` when the ' +
        'session has ended; 502 `sms-failed` when the provider refused the text; 422 ' +
        '`untextable-number` for a number that cannot receive texts.' +
        whoMayLocate +
        textLimits,
      body: z
        .object({
          connectionRequestUuid: z.string().uuid(),
          callerId: z.string().uuid().optional(),
        })
        .strict(),
      responses: {
        200: z.object({ token: z.string().uuid() }),
        ...errors,
        409: ErrorBody,
        422: ErrorBody,
        502: ErrorBody,
      },
    },
    requestMultipleLocations: {
      method: 'POST',
      path: '/api/v1/location/request-text-message-multiple-locations',
      summary: "Text every number of the session team's call lists a link each, in `language`",
      description:
        `\`callList\` is a list of call-list ids of the session's team (another team's list is 404). ` +
        `Numbers on several lists are texted once. At most ${maxNumbersPerRequest} numbers in all ` +
        `(400 \`validation-failed\` beyond, and nobody is texted). Numbers that cannot receive texts ` +
        `come back in \`untextable\` and are not texted.` +
        whoMayLocate +
        textLimits,
      body: z
        .object({
          connectionRequestUuid: z.string().uuid(),
          callList: z.array(z.string().uuid()).min(1).max(20),
          language: SmsLanguage.default('en'),
        })
        .strict(),
      responses: {
        200: ManySentBody,
        ...errors,
        409: ErrorBody,
      },
    },
    requestAdditionalLocations: {
      method: 'POST',
      path: '/api/v1/location/request-text-message-additional-locations',
      summary: 'Text more numbers (typed by the dispatcher) a link each, in `language`',
      description:
        `Numbers without a leading + get +1. Invalid numbers come back in \`invalid\` and are not texted; ` +
        `duplicates are merged; numbers already in the session are texted a new link. At most ` +
        `${maxNumbersPerRequest} numbers per request (400 \`validation-failed\` beyond). Numbers that ` +
        `cannot receive texts come back in \`untextable\` and are not texted.` +
        whoMayLocate +
        textLimits,
      body: z
        .object({
          connectionRequestUuid: z.string().uuid(),
          newNumbers: z.array(z.string().max(40)).min(1).max(maxNumbersPerRequest),
          language: SmsLanguage.default('en'),
        })
        .strict(),
      responses: {
        200: ManySentBody,
        ...errors,
        409: ErrorBody,
      },
    },
    setDateTimeCompleted: {
      method: 'POST',
      path: '/api/v1/location/set-date-time-completed/:uuid',
      summary: "End tracking: the session ends, the caller's link stops working",
      description:
        "SPEC.md §4: every token of the session is revoked, the caller's page is told, and a team that exports gets its file written. Ending twice answers the first end time.",
      pathParams: z.object({ uuid: z.string().uuid() }),
      body: z.object({}).strict().optional(),
      responses: { 200: z.object({ endedAt: z.string().datetime() }), ...errors },
    },
    activeSession: {
      method: 'GET',
      path: '/api/v1/location/active-session',
      summary: "The signed-in dispatcher's session that may be rejoined, if any",
      description:
        "After a reload or a crash the console asks this to reopen the case it was working: the dispatcher's session that has not ended, or null.",
      responses: { 200: z.object({ session: ActiveSession.nullable() }), ...errors },
    },
    latestLocation: {
      method: 'GET',
      path: '/api/v1/location/get-latest-location/:id',
      summary: "A session's newest fix",
      description:
        'The newest position of a session the dispatcher may see, or null before the first fix. Live fixes arrive on the dispatcher socket; this is for a client that just joined or cannot hold a socket.',
      pathParams: z.object({ id: z.string().uuid() }),
      responses: { 200: z.object({ location: Location.nullable() }), ...errors },
    },
    callerLink: {
      method: 'GET',
      path: callerLinkPath,
      ...callerLinkRoute,
      summary: "The caller's page: who asks, in which language, or why the link no longer works",
      description:
        "Authenticated by the token in the caller's link. Answers `active` with the agency's name, the caller's language and where to text a position when the internet fails; or `ended`, `expired`, `stopped` or `invalid`, so that the page can say why in the caller's language.",
      query: z.object({ token: z.string().max(64) }),
      responses: { 200: CallerLink, 400: ErrorBody, 429: ErrorBody },
    },
  },
  { strictStatusCodes: true },
);

/** The export file of SPEC.md §3 "Export row", one per fix, oldest first. */
export const ExportRow = z.object({
  Dispatcher: z.string(),
  PhoneNumber: z.string(),
  Longitude: z.number(),
  Latitude: z.number(),
  /** 2 decimals. */
  UncertaintyRadiusInMeters: z.number(),
  /** 4 decimals. */
  Altitude: z.number().nullable(),
  Address: z.string().nullable(),
  CapturedFromSource: LocationSource,
  /** `Date.prototype.toUTCString()`, e.g. "Mon, 23 Nov 2026 10:00:00 GMT". */
  CapturedAt: z.string(),
});
export type ExportRow = z.infer<typeof ExportRow>;
