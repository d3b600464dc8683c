import { z } from 'zod';
import { CurrentBroadcasts } from './broadcasts';
import { CaseTransfer } from './case-transfer';
import {
  CallerChatFrame,
  CallerChatJoinFrame,
  ChatAck,
  ChatTranslation,
  ChatTranslationStatus,
  chatMessageFields,
  DispatcherChatFrame,
} from './chat';
import { ErrorBody } from './errors';
import { CallerFix, Location } from './location';
import {
  mediaCallerClientEvents,
  mediaCallerServerEvents,
  mediaDispatcherClientEvents,
  mediaDispatcherServerEvents,
  mediaSessionEvents,
} from './media';
import { realtimeLimits } from './socket-constants';
import { consentScreens } from './i18n/consent';
import { smsLanguages } from './languages';

/**
 * The realtime protocol, typed once. Every frame is JSON `{ "event": name, "data": {...} }`.
 *
 * Sockets:
 * - dispatcher: `GET /api/v1/socket?token=<connection token>`, then send `join`.
 * - caller:     `GET /api/v1/caller/socket?token=<caller link token>`.
 * - console:    `GET /api/v1/console/socket?ticket=<one-use ticket from POST /api/v1/console/ticket>`;
 *               every signed-in console keeps one open; the server only sends (`consoleServerEvents`).
 *
 * Session events carry `seq`, a per-session sequence number. A dispatcher that reconnects
 * sends the last `seq` it saw in `join` and receives everything after it, exactly once and in
 * order, before live events.
 */
export { realtimeLimits, realtimePaths } from './socket-constants';

const seq = z.number().int().positive();

/** `navigator.getBattery()`, where the browser has it (Chromium; not Safari or Firefox). */
const BatteryStatus = z.object({ level: z.number().min(0).max(1), charging: z.boolean() }).strict();
/** `navigator.connection`, where the browser has it (Chromium on Android). */
const NetworkStatus = z
  .object({
    /** wifi, cellular, none, … */
    type: z.string().max(32).nullable(),
    /** slow-2g, 2g, 3g or 4g: the browser's estimate of the link's quality. */
    effectiveType: z.string().max(16).nullable(),
  })
  .strict();
/** The Permissions API's answer for geolocation. */
const LocationPermission = z.enum(['granted', 'denied', 'prompt']);
const callerId = z.string().uuid();
const sessionId = z.string().uuid();

/** Events the server sends that belong to a session's sequenced history. */
export const sessionEvents = {
  'new-location-available': Location.extend({
    seq,
    sessionId,
    callerId,
    /**
     * Present only on a fix that reached the server late (it waited on the phone for at least
     * `realtimeLimits.delayedFixAfterMs`, e.g. while the network was down): how late, in ms.
     * The console draws it in its place in time and marks it delayed.
     */
    delayMs: z.number().int().min(0).optional(),
    /**
     * Present only on a fix from a phone whose clock runs ahead: the phone stamped it this many
     * ms later than the server estimates it was taken (see
     * `realtimeLimits.futureFixToleranceMs`). `dateTimeCaptured` is then the server's estimate.
     */
    clockSkewMs: z.number().int().min(0).optional(),
    /**
     * `sms`: the caller texted this fix back (their page's prefilled "LOC …" text, a map link,
     * coordinates or a Plus Code) because the internet did not get it through. Absent on fixes
     * from the caller's page and from the emergency-data provider.
     */
    deliveredBy: z.enum(['sms']).optional(),
  }),
  'caller-connected': z.object({ seq, sessionId, callerId, connected: z.boolean() }),
  'is-tab-focused': z.object({ seq, sessionId, callerId, focused: z.boolean() }),
  'is-sharing-location': z.object({ seq, sessionId, callerId, sharing: z.boolean() }),
  'location-sharing-error': z.object({
    seq,
    sessionId,
    callerId,
    code: z.string().max(64),
    message: z.string().max(500),
  }),
  /** What the SMS provider reported about the link text (sent, then delivered or failed). */
  'sms-status': z.object({
    seq,
    sessionId,
    callerId,
    status: z.enum(['sent', 'delivered', 'failed', 'undelivered']),
  }),
  /** The caller texted back (STOP and HELP included). The body is shown to the dispatcher. */
  'sms-received': z.object({
    seq,
    sessionId,
    callerId,
    body: z.string().max(1600),
    /**
     * What the text became as a location: `mapped` (a fix, sent as its own
     * `new-location-available`), `duplicate` (the page had already sent that fix), or
     * `not-mapped` with the reason (out of range, an unknown code, …). Absent when the text held
     * no location at all.
     */
    location: z
      .object({
        outcome: z.enum(['mapped', 'duplicate', 'not-mapped']),
        reason: z.string().max(200).optional(),
      })
      .optional(),
  }),
  /** A dispatcher asked the caller, by text, to reply with their position ("Ask for location by text"). */
  'text-location-requested': z.object({ seq, sessionId, callerId }),
  /**
   * What the caller's phone says about itself, so the dispatcher knows why fixes stop: battery,
   * network, whether the page is in the background (screen locked, another app) and since when,
   * and the location permission. Sent on sharing and whenever one of them changes.
   */
  'caller-device': z.object({
    seq,
    sessionId,
    callerId,
    battery: BatteryStatus.nullable(),
    network: NetworkStatus.nullable(),
    visibility: z.enum(['visible', 'hidden']),
    /** ISO 8601, by the server's clock: when the page went to the background. */
    hiddenSince: z.string().datetime().nullable(),
    permission: LocationPermission.nullable(),
    /** ISO 8601, by the server's clock. */
    reportedAt: z.string().datetime(),
  }),
  /**
   * The case moved, or was offered to move, to another dispatcher (see case-transfer.ts).
   * `callerId` is the session's first caller. On `accepted`, the first dispatcher's sockets
   * close with `closeCodes.transferred` right after this event; the colleague's replay holds it.
   */
  'case-transfer': CaseTransfer.extend({ seq, sessionId, callerId }),
  /** The dispatcher opened the chat (`chat-initiated`): every caller's page shows it. Sent once. */
  'chat-opened': z.object({ seq, sessionId, callerId }),
  /** A chat message between the dispatcher and the caller `callerId` (see chat.ts). */
  'chat-message': z.object({ seq, sessionId, callerId, ...chatMessageFields }),
  /** The translation of a message announced `pending`: translated, or `not-translated`. */
  'chat-translation': z.object({
    seq,
    sessionId,
    callerId,
    messageId: z.string().uuid(),
    translation: ChatTranslation.nullable(),
    translationStatus: ChatTranslationStatus,
  }),
  /** Video and photos (issue 19, media.ts). */
  ...mediaSessionEvents,
} as const;
export type SessionEventName = keyof typeof sessionEvents;
export type SessionEventData<E extends SessionEventName> = z.infer<(typeof sessionEvents)[E]>;
export const sessionEventNames = Object.keys(sessionEvents) as SessionEventName[];

/** dispatcher → server */
export const dispatcherClientEvents = {
  join: z
    .object({
      sessionId,
      /** The last `seq` this client has seen; omit on first join to get the whole history. */
      lastSeq: z.number().int().min(0).optional(),
    })
    .strict(),
  /** A chat message to one caller of the joined session (after `chat-initiated`); answered `chat-ack`. */
  chat: DispatcherChatFrame,
  ...mediaDispatcherClientEvents,
} as const;

/** server → dispatcher */
export const dispatcherServerEvents = {
  ...sessionEvents,
  /** The session was ended (by its dispatcher, elsewhere); the socket closes with 4410. */
  'session-ended': z.object({ sessionId }),
  joined: z.object({
    sessionId,
    /** How many missed events were replayed before going live. */
    replayed: z.number().int().min(0),
  }),
  'chat-ack': ChatAck,
  ...mediaDispatcherServerEvents,
  error: ErrorBody,
} as const;

/** caller → server */
export const callerClientEvents = {
  fix: CallerFix,
  /**
   * Several fixes, oldest first: how a page catches up on what it took while the network was
   * down. Each fix is checked, stored and acked on its own, as if sent alone; one bad fix does
   * not cost the others.
   */
  fixes: z
    .object({ fixes: z.array(CallerFix).min(1).max(realtimeLimits.maxFixesPerFrame) })
    .strict(),
  'tab-focus': z.object({ focused: z.boolean() }).strict(),
  sharing: z.object({ sharing: z.boolean() }).strict(),
  /**
   * The page is asking the browser for the position (it called geolocation, which shows the
   * permission prompt unless the caller already answered it): recorded for the metrics, once
   * per caller (`session_callers.prompt_shown_at`), and never shown to the dispatcher.
   */
  'prompt-shown': z.object({}).strict(),
  /**
   * The caller tapped a button that starts sharing (issue 15, consent receipts): which screen,
   * in which language, from which version of the texts, and when by the phone's clock. The
   * server renders what that screen said and keeps it with the browser it came from.
   */
  consent: z
    .object({
      screen: z.enum(consentScreens),
      language: z.enum(smsLanguages),
      textsVersion: z.string().min(1).max(32),
      /** The phone's clock at the tap (ms since the epoch). */
      tappedAt: z.number().int().min(0).max(8.64e15),
    })
    .strict(),
  'sharing-error': z
    .object({ code: z.string().min(1).max(64), message: z.string().max(500) })
    .strict(),
  /** What the phone says about itself; see the session event `caller-device`. */
  device: z
    .object({
      battery: BatteryStatus.nullable(),
      network: NetworkStatus.nullable(),
      visibility: z.enum(['visible', 'hidden']),
      /** How long the page has been hidden, by the phone's monotonic clock; null when visible. */
      hiddenForMs: z
        .number()
        .int()
        .min(0)
        .max(7 * 24 * 3_600_000)
        .nullable(),
      permission: LocationPermission.nullable(),
    })
    .strict(),
  /** A chat message to the dispatcher; answered `chat-ack`. Works whether or not the caller shares. */
  chat: CallerChatFrame,
  /** Replay this caller's chat events after `lastSeq`, then send them live. */
  'chat-join': CallerChatJoinFrame,
  ...mediaCallerClientEvents,
} as const;

/** server → caller */
export const callerServerEvents = {
  /**
   * The page may forget this fix, and (frames are handled in order) every fix it sent before:
   * `stored`, a `duplicate` of one already stored (a resend), or `refused` for good (out of
   * range, too old, in the future: see `reason`), which is never worth sending again. Names the
   * fix by the page's `n` when it had one, and by its capture time.
   */
  ack: z.object({
    capturedAt: z.number().optional(),
    n: z.number().int().positive().optional(),
    outcome: z.enum(['stored', 'duplicate', 'refused']),
    reason: z.string().max(200).optional(),
  }),
  'session-ended': z.object({}),
  /**
   * Chat events of this caller only (never another caller's of the same session), with the
   * session's `seq`: after `chat-join`, the ones after its `lastSeq`, then live, exactly once.
   */
  'chat-opened': sessionEvents['chat-opened'],
  'chat-message': sessionEvents['chat-message'],
  'chat-translation': sessionEvents['chat-translation'],
  'chat-ack': ChatAck,
  ...mediaCallerServerEvents,
  error: ErrorBody,
} as const;

/**
 * server → console. The console socket carries no session: on connect, and whenever a
 * maintenance broadcast is posted, withdrawn or replaced, the server sends `broadcasts` with every
 * broadcast showing now (the whole list, so a missed frame is repaired by the next). A ticket
 * that is unknown, expired or used gets `error` (`invalid-token`) and close 4401, as does a socket
 * whose sign-in is signed out. The client sends nothing; anything it sends is ignored.
 */
export const consoleServerEvents = {
  broadcasts: CurrentBroadcasts,
  /**
   * A case transfer offered to this user, or one they offered or were offered that changed
   * (accepted, denied, cancelled, expired): the prompt appears and goes within a second,
   * wherever the user is in the app.
   */
  'case-transfer': CaseTransfer,
  error: ErrorBody,
} as const;

export type EventMap = Record<string, z.ZodTypeAny>;
export type FrameOf<M extends EventMap> = {
  [E in keyof M & string]: { event: E; data: z.infer<M[E]> };
}[keyof M & string];

export type DispatcherServerFrame = FrameOf<typeof dispatcherServerEvents>;
export type DispatcherClientFrame = FrameOf<typeof dispatcherClientEvents>;
export type CallerServerFrame = FrameOf<typeof callerServerEvents>;
export type CallerClientFrame = FrameOf<typeof callerClientEvents>;
export type ConsoleServerFrame = FrameOf<typeof consoleServerEvents>;

/** The outer frame, before its `data` is checked against the event's schema. */
export const Frame = z.object({ event: z.string().max(64), data: z.unknown() }).strict();
