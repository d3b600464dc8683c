import { z } from 'zod';
import { ErrorBody } from './errors';
import { CallerFix, Location } from './location';

/**
 * The realtime protocol, typed once. Every frame is JSON `{ "event": name, "data": {...} }`.
 *
 * Sockets:
 * - dispatcher: `GET /api/v1/socket?token=<connection token>`, then send `join`.
 * - caller:     `GET /api/v1/caller/socket?token=<caller link token>`.
 *
 * Session events carry `seq`, a per-session sequence number. A dispatcher that reconnects
 * sends the last `seq` it saw in `join` and receives everything after it, exactly once and in
 * order, before live events.
 */
export const realtimePaths = {
  dispatcher: '/api/v1/socket',
  caller: '/api/v1/caller/socket',
} as const;

const seq = z.number().int().positive();
const callerId = z.string().uuid();
const sessionId = z.string().uuid();

/** Events the server sends that belong to a session's sequenced history. */
export const sessionEvents = {
  'new-location-available': Location.extend({ seq, sessionId, callerId }),
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
  'sms-received': z.object({ seq, sessionId, callerId, body: z.string().max(1600) }),
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
  error: ErrorBody,
} as const;

/** caller → server */
export const callerClientEvents = {
  fix: CallerFix,
  'tab-focus': z.object({ focused: z.boolean() }).strict(),
  sharing: z.object({ sharing: z.boolean() }).strict(),
  'sharing-error': z
    .object({ code: z.string().min(1).max(64), message: z.string().max(500) })
    .strict(),
} as const;

/** server → caller */
export const callerServerEvents = {
  /** A fix was accepted (or was a duplicate of one already accepted); the page may forget it. */
  ack: z.object({ capturedAt: z.number() }),
  'session-ended': z.object({}),
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

/** The outer frame, before its `data` is checked against the event's schema. */
export const Frame = z.object({ event: z.string().max(64), data: z.unknown() }).strict();

/** Hard limits the server enforces on every socket. */
export const realtimeLimits = {
  /** Largest frame a client may send; a larger one closes the socket with 1009. */
  maxFrameBytes: 16 * 1024,
  /** How far in the future a fix's capture time may be, to allow for phone clock skew. */
  maxClockSkewMs: 30_000,
} as const;
