// No zod here: the caller's page imports these, and its whole script must stay a few kilobytes.

/** The two socket paths (see realtime.ts for what travels on them). */
export const realtimePaths = {
  dispatcher: '/api/v1/socket',
  caller: '/api/v1/caller/socket',
} as const;

/** WebSocket close codes (4000–4999 is the range RFC 6455 leaves to applications). */
export const closeCodes = {
  /** RFC 6455: the frame exceeded the size limit. */
  messageTooBig: 1009,
  goingAway: 1001,
  /** RFC 6455: the server turned a frame away (rate limit, storage down); reconnect and resend. */
  tryAgainLater: 1013,
  invalidToken: 4401,
  notFound: 4404,
  sessionEnded: 4410,
  protocolError: 4400,
} as const;

/** Hard limits the server enforces on every socket. */
export const realtimeLimits = {
  /** Largest frame a client may send; a larger one closes the socket with 1009. */
  maxFrameBytes: 16 * 1024,
  /** Most fixes in one `fixes` frame. */
  maxFixesPerFrame: 50,
  /** How far in the future a fix's capture time may be, to allow for phone clock skew. */
  maxClockSkewMs: 30_000,
  /**
   * A fix that waited on the phone longer than this (its `queuedMs`, measured on the phone, so a
   * wrong phone clock does not matter) is refused: no request stays open that long.
   */
  maxFixAgeMs: 24 * 3_600_000,
  /** A fix that waited on the phone this long before it was sent is marked delayed. */
  delayedFixAfterMs: 10_000,
} as const;
