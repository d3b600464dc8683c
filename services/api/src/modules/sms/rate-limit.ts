import type { FastifyReply } from 'fastify';
import type { Redis } from 'ioredis';
import { ApiError } from '../../http/errors';

// One round trip, atomically: take `count` texts from a fixed window's allowance, or take
// nothing and answer how many milliseconds remain until the window starts over.
const RESERVE = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local count = tonumber(ARGV[1])
if used + count > tonumber(ARGV[2]) then
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl < 0 then ttl = tonumber(ARGV[3]) end
  return ttl
end
if redis.call('INCRBY', KEYS[1], count) == count then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 0
`;

// Gives back what a reservation took when the other counter refused the texts, or when they
// were never sent.
const RELEASE = `
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('DECRBY', KEYS[1], ARGV[1]) end
return 0
`;

export interface SmsRatePolicy {
  perUser: number;
  perTeam: number;
  windowSeconds: number;
}

/** 429 `rate-limited`; the route answers `retryAfterSeconds` as the Retry-After header. */
export class SmsRateLimited extends ApiError {
  constructor(
    readonly retryAfterSeconds: number,
    who: 'user' | 'team',
  ) {
    const wait =
      retryAfterSeconds < 120
        ? `${retryAfterSeconds} seconds`
        : `${Math.ceil(retryAfterSeconds / 60)} minutes`;
    super(
      429,
      'rate-limited',
      who === 'user'
        ? `You have sent too many text messages for now. Try again in ${wait}.`
        : `Your team has sent too many text messages for now. Try again in ${wait}.`,
    );
  }
}

/**
 * Texts per user and per team in fixed windows, counted in Redis so that every API instance
 * shares them. A request for many numbers takes all of its texts at once or none: a refused
 * request sends nothing. (A fixed window lets a burst reach twice the limit across a window's
 * edge; that is still bounded, and it keeps the check one counter per key.)
 *
 * The two counters are separate keys, each with its own hash tag, reserved one after the
 * other (the user's is given back when the team's refuses), so the scripts stay valid on a
 * Redis cluster.
 */
export class SmsRateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly policy: SmsRatePolicy,
  ) {}

  private key(kind: 'user' | 'team', id: string): string {
    return `${this.prefix}sms-limit:${kind}:{${id}}`;
  }

  private async reserveOne(key: string, count: number, limit: number): Promise<number> {
    const waitMs = await this.redis.eval(
      RESERVE,
      1,
      key,
      count,
      limit,
      this.policy.windowSeconds * 1000,
    );
    return Number(waitMs);
  }

  /** Takes `count` texts from the user's and the team's allowance, or throws SmsRateLimited. */
  async reserve(who: { userId: string; teamId: string }, count: number): Promise<void> {
    if (count <= 0) return;
    const userKey = this.key('user', who.userId);
    const userWait = await this.reserveOne(userKey, count, this.policy.perUser);
    if (userWait > 0) throw new SmsRateLimited(Math.ceil(userWait / 1000), 'user');
    const teamWait = await this.reserveOne(
      this.key('team', who.teamId),
      count,
      this.policy.perTeam,
    );
    if (teamWait > 0) {
      await this.redis.eval(RELEASE, 1, userKey, count);
      throw new SmsRateLimited(Math.ceil(teamWait / 1000), 'team');
    }
  }

  /** Gives back texts a reservation took that were never sent (an opted-out number, a refusal). */
  async release(who: { userId: string; teamId: string }, count: number): Promise<void> {
    if (count <= 0) return;
    await this.redis.eval(RELEASE, 1, this.key('user', who.userId), count);
    await this.redis.eval(RELEASE, 1, this.key('team', who.teamId), count);
  }
}

/** Runs a texting request; a SmsRateLimited answer carries its Retry-After header (seconds). */
export async function withRetryAfter<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SmsRateLimited)
      reply.header('retry-after', String(error.retryAfterSeconds));
    throw error;
  }
}
