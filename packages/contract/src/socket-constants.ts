// No zod here: the caller's page imports these, and its whole script must stay a few kilobytes.

/** The socket paths (see realtime.ts for what travels on them). */
export const realtimePaths = {
  dispatcher: '/api/v1/socket',
  caller: '/api/v1/caller/socket',
  /** Every signed-in console's own socket (maintenance broadcasts), opened with `?ticket=`. */
  console: '/api/v1/console/socket',
} as const;

/** WebSocket close codes (4000–4999 is the range RFC 6455 leaves to applications). */
export const closeCodes = {
  /** RFC 6455: the frame exceeded the size limit. */
  messageTooBig: 1009,
  goingAway: 1001,
  /** RFC 6455: the server turned a frame away (rate limit, storage down); reconnect and resend. */
  tryAgainLater: 1013,
  /**
   * RFC 6455: the socket kept sending after `rate-limited` answers
   * (`realtimeLimits.rateLimitedFramesBeforeClose`), or sent nothing but frames it had no right to.
   */
  policyViolation: 1008,
  /**
   * The token is unknown, expired or revoked. Also sent to an open dispatcher socket, with the
   * reason `revoked`, when its user signs out, changes their password or is removed: every
   * socket token the user held stops working at once, on every instance.
   */
  invalidToken: 4401,
  /**
   * A newer socket opened with the same token took this one's place: a token holds at most
   * `realtimeLimits.maxSocketsPerToken` sockets, and the oldest gives way (a page that
   * reconnects must never be locked out by its own half-dead earlier socket).
   */
  superseded: 4409,
  notFound: 4404,
  sessionEnded: 4410,
  /** The case was transferred to a colleague (see case-transfer.ts): this dispatcher's view is read-only. */
  transferred: 4412,
  protocolError: 4400,
} as const;

/** Hard limits the server enforces on every socket. */
export const realtimeLimits = {
  /** Largest frame a client may send; a larger one closes the socket with 1009. */
  maxFrameBytes: 16 * 1024,
  /** Most fixes in one `fixes` frame. */
  maxFixesPerFrame: 50,
  /**
   * How far in the future the capture time of a position texted back (SMS) may be. A socket fix
   * stamped ahead is never refused: it is clamped (see `futureFixToleranceMs`).
   */
  maxClockSkewMs: 30_000,
  /**
   * A fix stamped later than this after the moment the server estimates it was taken (its
   * arrival, less the `queuedMs` the phone reports) is from a phone whose clock runs ahead: its
   * time is clamped to that estimate and the event carries `clockSkewMs`. Such a fix is a
   * duplicate if its exact stamp was accepted before, and it never moves the caller's latest
   * capture time, so it never makes later, correctly stamped fixes look old.
   */
  futureFixToleranceMs: 1_000,
  /** Sockets one token (a caller link, a dispatcher token) may hold at once, on all instances. */
  maxSocketsPerToken: 3,
  /**
   * `rate-limited` answers a socket may get without backing off (its allowance never filling up
   * again in between); one more frame closes it with `closeCodes.policyViolation`.
   */
  rateLimitedFramesBeforeClose: 20,
  /** Frames a dispatcher socket may send that are refused (it sends one `join`) before 1008. */
  dispatcherRefusedFramesBeforeClose: 20,
  /**
   * A fix that waited on the phone longer than this (its `queuedMs`, measured on the phone, so a
   * wrong phone clock does not matter) is refused: no request stays open that long.
   */
  maxFixAgeMs: 24 * 3_600_000,
  /** A fix that waited on the phone this long before it was sent is marked delayed. */
  delayedFixAfterMs: 10_000,
} as const;
