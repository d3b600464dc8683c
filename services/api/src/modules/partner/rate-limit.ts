import type { Redis } from 'ioredis';

// One round trip: count this request in the key's current window and say how long the window
// has left.
const COUNT = `
local used = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
-- The first request of a window, or a counter that lost its expiry: (re)start the clock.
if used == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { used, ttl }
`;

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window starts over. */
  resetSeconds: number;
  allowed: boolean;
}

/**
 * Requests per partner key in fixed windows, counted in Redis so that every API instance shares
 * them. Requests made with an OAuth token count against the key it was issued for.
 */
export async function countPartnerRequest(
  redis: Redis,
  prefix: string,
  keyId: string,
  policy: { limit: number; windowSeconds: number },
): Promise<RateLimitState> {
  const [used, ttl] = (await redis.eval(
    COUNT,
    1,
    `${prefix}partner-rate:{${keyId}}`,
    String(policy.windowSeconds * 1000),
  )) as [number, number];
  return {
    limit: policy.limit,
    remaining: Math.max(0, policy.limit - used),
    resetSeconds: Math.max(1, Math.ceil(ttl / 1000)),
    allowed: used <= policy.limit,
  };
}
