import type { SessionEventName } from '@locus/contract';
import type { Redis } from 'ioredis';
import { framePieces, stampAccepted } from './frames';

/**
 * Assigns the next sequence number of a session, appends the frame to the session's capped
 * replay stream and publishes it, atomically in one round trip. With a dedupe key (a caller id)
 * and a capture time (the phone's own stamp, which a resend repeats exactly), a fix is dropped
 * (returns 0) when that stamp is one of the key's recently accepted stamps (KEYS[5], the last
 * `RECENT_STAMPS_PER_KEY`, by when they were accepted), or is not newer than the key's latest
 * (SPEC.md §4 dedupes locations by capture time). Both checks hold whatever the fix's mode, so a
 * resend is a duplicate even when its mode differs from the first send's (the mode depends on
 * the network delay and the `queuedMs` the page reports). The mode only decides whether the fix
 * moves the latest: a fix stamped ahead of its time (a phone clock running fast; `exact`) does
 * not, so it cannot make the correctly stamped fixes after it look old. With `TextMarks`, a fix
 * of a caller and capture second the page or a text already delivered is a duplicate too
 * (returns 0). Returns -1 when the session's counter is not in Redis (expired, or Redis lost its
 * data): the caller must seed it from Postgres and retry, so a sequence number is never handed
 * out twice. With a stamp (ARGV[13], a fix's), the published copy is the stamp and the frame;
 * every instance's fan-out cuts the stamp off before a dispatcher gets the frame. With a journal
 * entry (ARGV[14], write-journal.ts), the row is kept under its seq in the session's unwritten
 * hash (KEYS[6]) in the same step, so that no instance can die between numbering a fix and
 * keeping it somewhere that outlives the instance.
 */
const PUBLISH_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if ARGV[8] ~= '' and redis.call('HEXISTS', KEYS[4], ARGV[8]) == 1 then return 0 end
if ARGV[10] ~= '' and redis.call('HEXISTS', KEYS[4], ARGV[10]) == 1 then return 0 end
if ARGV[4] ~= '' then
  if redis.call('ZSCORE', KEYS[5], ARGV[5]) then return 0 end
  local latest = redis.call('HGET', KEYS[3], ARGV[4])
  if latest and tonumber(latest) >= tonumber(ARGV[5]) then return 0 end
  if ARGV[11] ~= 'exact' then
    redis.call('HSET', KEYS[3], ARGV[4], ARGV[5])
    redis.call('EXPIRE', KEYS[3], ARGV[7])
  end
end
if ARGV[9] ~= '' then
  redis.call('HSET', KEYS[4], ARGV[9], '1')
  redis.call('EXPIRE', KEYS[4], ARGV[7])
end
local seq = redis.call('INCR', KEYS[1])
if ARGV[4] ~= '' then
  redis.call('ZADD', KEYS[5], seq, ARGV[5])
  redis.call('ZREMRANGEBYRANK', KEYS[5], 0, -1 - tonumber(ARGV[12]))
  redis.call('EXPIRE', KEYS[5], ARGV[7])
end
if ARGV[14] ~= '' then
  redis.call('HSET', KEYS[6], seq, ARGV[14])
  redis.call('EXPIRE', KEYS[6], ARGV[7])
end
local frame = ARGV[2] .. seq .. ARGV[3]
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[6], seq .. '-0', 'f', frame)
if ARGV[13] ~= '' then redis.call('PUBLISH', ARGV[1], ARGV[13] .. frame)
else redis.call('PUBLISH', ARGV[1], frame) end
redis.call('EXPIRE', KEYS[1], ARGV[7])
redis.call('EXPIRE', KEYS[2], ARGV[7])
return seq
`;

/**
 * Seeds the counter with the highest seq known to Postgres, still in the stream, or still in the
 * write journal (a row numbered and not yet written, whose counter was evicted).
 */
const SEED_SCRIPT = `
local last = tonumber(ARGV[1])
local tail = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)
if tail[1] then
  local fromStream = tonumber(string.match(tail[1][1], '^(%d+)'))
  if fromStream > last then last = fromStream end
end
for _, field in ipairs(redis.call('HKEYS', KEYS[3])) do
  local journalled = tonumber(field)
  if journalled and journalled > last then last = journalled end
end
redis.call('SET', KEYS[1], last, 'EX', ARGV[2], 'NX')
return redis.call('GET', KEYS[1])
`;

/**
 * Lists a socket under its token (a sorted set by Redis's own clock, so instances' clocks do not
 * matter) and, beyond the cap, takes the oldest off the list and tells every instance to close
 * them. A member left behind by an instance that died is the oldest, so it is the first to go:
 * it never locks anyone out.
 */
const CLAIM_SOCKET_SCRIPT = `
local now = redis.call('TIME')
redis.call('ZADD', KEYS[1], tonumber(now[1]) * 1000000 + tonumber(now[2]), ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
local over = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[2])
if over <= 0 then return {} end
local oldest = redis.call('ZRANGE', KEYS[1], 0, over - 1)
redis.call('ZREM', KEYS[1], unpack(oldest))
redis.call('PUBLISH', ARGV[4], cjson.encode(oldest))
return oldest
`;

type SequencedRedis = Redis & {
  locusPublish(
    seqKey: string,
    streamKey: string,
    lastCaptureKey: string,
    textedKey: string,
    stampsKey: string,
    unwrittenKey: string,
    channel: string,
    prefix: string,
    suffix: string,
    dedupeKey: string,
    capturedAt: string,
    maxLen: number,
    ttl: number,
    textedCheck: string,
    textedMark: string,
    textedCheckAlso: string,
    dedupeMode: '' | 'exact',
    recentStamps: number,
    acceptedStamp: string,
    journalEntry: string,
  ): Promise<number>;
  locusSeed(
    seqKey: string,
    streamKey: string,
    unwrittenKey: string,
    last: number,
    ttl: number,
  ): Promise<string>;
  locusClaimSocket(
    key: string,
    member: string,
    cap: number,
    ttl: number,
    channel: string,
  ): Promise<string[]>;
};

/**
 * How a fix is deduped: by `key` (a caller, or a caller and source) and capture time; see
 * `PUBLISH_SCRIPT`. `exact` for a fix whose capture time is ahead of when it can have been
 * taken: deduped the same way, but it does not move the key's latest capture time.
 */
export interface Dedupe {
  key: string;
  capturedAt: number;
  exact?: boolean;
}

/**
 * Dedupe between the page and text messages, by caller and capture second (a text carries its
 * fix's time to the second), atomic inside the publish script: the fix is dropped when any
 * `check` field is set, and `mark` is set when it is published. A page fix checks the texted
 * field of its second and marks the page's; a texted fix checks both and marks the texted one,
 * so whichever arrives second is the duplicate, on any instance.
 */
export interface TextMarks {
  check?: [string] | [string, string];
  mark?: string;
}

const second = (capturedAt: number) => Math.floor(capturedAt / 1000);

/** The marks of a fix from the caller's page. */
export const pageFixMarks = (callerId: string, capturedAt: number): TextMarks => ({
  check: [`t:${callerId}:${second(capturedAt)}`],
  mark: `p:${callerId}:${second(capturedAt)}`,
});

/** The marks of a fix the caller texted back, with the capture time the text gave. */
export const textedFixMarks = (callerId: string, capturedAt: number): TextMarks => ({
  check: [`t:${callerId}:${second(capturedAt)}`, `p:${callerId}:${second(capturedAt)}`],
  mark: `t:${callerId}:${second(capturedAt)}`,
});

export class SessionKeys {
  constructor(private readonly prefix: string) {}
  // The {sessionId} hash tag keeps a session's keys in one Redis Cluster slot.
  seq = (sessionId: string) => `${this.prefix}session:{${sessionId}}:seq`;
  stream = (sessionId: string) => `${this.prefix}session:{${sessionId}}:events`;
  lastCapture = (sessionId: string) => `${this.prefix}session:{${sessionId}}:last-capture`;
  /** The capture stamps recently accepted for one dedupe key (see `PUBLISH_SCRIPT`). */
  captureStamps = (sessionId: string, dedupeKey: string) =>
    `${this.prefix}session:{${sessionId}}:stamps:${dedupeKey}`;
  /** Which capture seconds the page and texts delivered, per caller (see `TextMarks`). */
  texted = (sessionId: string) => `${this.prefix}session:{${sessionId}}:texted`;
  /** Rows numbered but not yet known to be in Postgres, by seq (write-journal.ts). */
  unwritten = (sessionId: string) => `${this.prefix}session:{${sessionId}}:unwritten`;
  channel = (sessionId: string) => `${this.prefix}session:{${sessionId}}`;
  /** Every instance listens here to close the sockets of a session that has ended. */
  sessionEnded = () => `${this.prefix}control:session-ended`;
  /** Every instance listens here to close the sockets of callers whose links were revoked. */
  callersRevoked = () => `${this.prefix}control:callers-revoked`;
  /** Every instance listens here to close the dispatcher sockets of a user who signed out. */
  usersRevoked = () => `${this.prefix}control:users-revoked`;
  /** Every instance listens here to close sockets that newer ones with their token replaced. */
  socketsSuperseded = () => `${this.prefix}control:sockets-superseded`;
  /** The sockets open with one token, on every instance (by the token's SHA-256, in hex). */
  tokenSockets = (tokenHashHex: string) => `${this.prefix}token-sockets:{${tokenHashHex}}`;
}

/**
 * How many accepted capture stamps are kept per dedupe key. A page has at most 4 frames of 25
 * fixes unacknowledged per socket, and a link at most 3 sockets: what a page can send again is far
 * fewer, and the latest capture time still catches an older stamp dropped from the set.
 */
export const RECENT_STAMPS_PER_KEY = 1024;

/** How long a token's list of sockets outlives its last socket opening (the longest token life). */
const TOKEN_SOCKETS_TTL_SECONDS = 24 * 3600;

export class Sequencer {
  private readonly redis: SequencedRedis;

  constructor(
    redis: Redis,
    readonly keys: SessionKeys,
    private readonly options: {
      streamMaxLen: number;
      ttlSeconds: number;
      /** Stamp published fixes with their accept time (`DELIVERY_LATENCY_STAMP`); default on. */
      stampDeliveries?: boolean;
    },
  ) {
    redis.defineCommand('locusPublish', { numberOfKeys: 6, lua: PUBLISH_SCRIPT });
    redis.defineCommand('locusSeed', { numberOfKeys: 3, lua: SEED_SCRIPT });
    redis.defineCommand('locusClaimSocket', { numberOfKeys: 1, lua: CLAIM_SOCKET_SCRIPT });
    this.redis = redis as SequencedRedis;
  }

  /** Tells every instance that a session has ended, so that each closes its sockets. */
  async announceEnded(sessionId: string): Promise<void> {
    await this.redis.publish(this.keys.sessionEnded(), sessionId);
  }

  /** Tells every instance that these callers' links were revoked (they texted STOP). */
  async announceCallersRevoked(callerIds: string[]): Promise<void> {
    if (callerIds.length > 0)
      await this.redis.publish(this.keys.callersRevoked(), JSON.stringify(callerIds));
  }

  /**
   * Lists a socket under its token; returns the members beyond `cap` (the oldest), which every
   * instance has been told to close.
   */
  claimSocket(tokenHashHex: string, member: string, cap: number): Promise<string[]> {
    return this.redis.locusClaimSocket(
      this.keys.tokenSockets(tokenHashHex),
      member,
      cap,
      TOKEN_SOCKETS_TTL_SECONDS,
      this.keys.socketsSuperseded(),
    );
  }

  async releaseSocket(tokenHashHex: string, member: string): Promise<void> {
    await this.redis.zrem(this.keys.tokenSockets(tokenHashHex), member);
  }

  /**
   * Returns the seq given to the event, 0 for a duplicate fix, -1 when the counter needs seeding.
   * A `journalEntry` is kept under the seq until the row is written (write-journal.ts).
   */
  publish(
    sessionId: string,
    event: SessionEventName,
    bodyJson: string,
    dedupe?: Dedupe,
    textMarks?: TextMarks,
    journalEntry?: string,
  ): Promise<number> {
    const [prefix, suffix] = framePieces(event, bodyJson);
    return this.redis.locusPublish(
      this.keys.seq(sessionId),
      this.keys.stream(sessionId),
      this.keys.lastCapture(sessionId),
      this.keys.texted(sessionId),
      // Never read without a dedupe key; named anyway so the script declares every key it may use.
      this.keys.captureStamps(sessionId, dedupe?.key ?? ''),
      this.keys.unwritten(sessionId),
      this.keys.channel(sessionId),
      prefix,
      suffix,
      dedupe?.key ?? '',
      dedupe ? String(dedupe.capturedAt) : '',
      this.options.streamMaxLen,
      this.options.ttlSeconds,
      textMarks?.check?.[0] ?? '',
      textMarks?.mark ?? '',
      textMarks?.check?.[1] ?? '',
      dedupe?.exact ? 'exact' : '',
      RECENT_STAMPS_PER_KEY,
      // A fix's published copy is stamped with when it was accepted, for the delivery latency
      // (`stampAccepted` in frames.ts); the stream's copy, which replays read, is not.
      event === 'new-location-available' && this.options.stampDeliveries !== false
        ? stampAccepted(Date.now())
        : '',
      journalEntry ?? '',
    );
  }

  async seed(sessionId: string, lastPersistedSeq: number): Promise<number> {
    const value = await this.redis.locusSeed(
      this.keys.seq(sessionId),
      this.keys.stream(sessionId),
      this.keys.unwritten(sessionId),
      lastPersistedSeq,
      this.options.ttlSeconds,
    );
    return Number(value);
  }

  /**
   * The last seq handed out in the session, or null when Redis does not hold the counter (then
   * Postgres's highest is the best anyone knows).
   */
  async lastSeq(sessionId: string): Promise<number | null> {
    const value = await this.redis.get(this.keys.seq(sessionId));
    return value === null ? null : Number(value);
  }

  async isSeeded(sessionId: string): Promise<boolean> {
    return (await this.redis.exists(this.keys.seq(sessionId))) === 1;
  }

  /** Frames with seq in [fromSeq, …] still in the replay stream, oldest first. */
  async streamFrom(
    sessionId: string,
    fromSeq: number,
    count: number,
  ): Promise<{ seq: number; frame: Buffer }[]> {
    const entries = await this.redis.xrangeBuffer(
      this.keys.stream(sessionId),
      `${fromSeq}-0`,
      '+',
      'COUNT',
      count,
    );
    return entries.map(([id, fields]) => ({
      seq: Number(id.toString().split('-')[0]),
      frame: fields[1]!,
    }));
  }

  /** The lowest seq still in the replay stream, or undefined when the stream is empty. */
  async streamHead(sessionId: string): Promise<number | undefined> {
    const [first] = await this.redis.xrange(this.keys.stream(sessionId), '-', '+', 'COUNT', 1);
    return first ? Number(first[0].split('-')[0]) : undefined;
  }
}
