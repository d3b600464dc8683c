import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ApiConfig } from '../../config';
import { subnetOf } from './subnet';

// One round trip, atomically: count a failure; past the free ones, hold the address back for
// 2^(n - free) seconds, at most the cap. The count outlives each pause by the window.
const RECORD_FAILURE = `
local failures = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
local free = tonumber(ARGV[1])
if failures >= free then
  local delay = math.floor(math.min(2 ^ (failures - free), tonumber(ARGV[2])))
  redis.call('SET', KEYS[2], '1', 'EX', delay)
  return delay
end
return 0
`;

export interface ThrottlePolicy {
  /** Failures from one client address before each further one is delayed. */
  freePerAddress: number;
  /** The same for its whole /24 or /64: more, since a centre or campus shares one. */
  freePerSubnet: number;
  /** The longest delay, in seconds. */
  maxDelaySeconds: number;
  /** Failures are forgotten this long after the last one. */
  windowSeconds: number;
}

/**
 * 3 free failures per address, then 1, 2, 4, 8, 16, 30, 30 … seconds: one address gets about
 * nine failures a minute, under two accounts' worth of CJIS's five, so it cannot lock a
 * centre's dispatchers one after another. A subnet gets ten before its delays start.
 */
export const signInThrottle: ThrottlePolicy = {
  freePerAddress: 3,
  freePerSubnet: 10,
  maxDelaySeconds: 30,
  windowSeconds: 15 * 60,
};

export function signInThrottleFromConfig(config: ApiConfig): ThrottlePolicy {
  return {
    ...signInThrottle,
    freePerAddress: config.SIGN_IN_FAILURES_PER_ADDRESS,
    freePerSubnet: config.SIGN_IN_FAILURES_PER_SUBNET,
    maxDelaySeconds: config.SIGN_IN_MAX_DELAY_SECONDS,
  };
}

type Scope = 'address' | 'subnet';

/**
 * Progressive delays for failed sign-ins per client address and per subnet, in Redis so that
 * every instance counts together. A delayed request is answered at once (429 with
 * Retry-After) rather than held open: holding thousands of requests would be a denial of
 * service of its own.
 */
export class AddressThrottle {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly policy: ThrottlePolicy = signInThrottle,
  ) {}

  private keys(scope: Scope, ip: string): [string, string] {
    const network = scope === 'address' ? ip : subnetOf(ip);
    const id = createHash('sha256').update(network).digest('hex').slice(0, 32);
    // The hash tag keeps both keys in one cluster slot, as the script needs.
    const base = `${this.prefix}sign-in-${scope}:{${id}}`;
    return [`${base}:failures`, `${base}:delayed`];
  }

  /** Seconds until this address may try again; 0 when it may now. */
  async retryAfterSeconds(ip: string): Promise<number> {
    const [own, subnet] = await Promise.all([
      this.redis.pttl(this.keys('address', ip)[1]),
      this.redis.pttl(this.keys('subnet', ip)[1]),
    ]);
    return Math.ceil(Math.max(own, subnet, 0) / 1000);
  }

  /** Recent failures from this very address. */
  async failures(ip: string): Promise<number> {
    return Number((await this.redis.get(this.keys('address', ip)[0])) ?? 0);
  }

  async recordFailure(ip: string): Promise<void> {
    await Promise.all(
      (['address', 'subnet'] as const).map((scope) =>
        this.redis.eval(
          RECORD_FAILURE,
          2,
          ...this.keys(scope, ip),
          scope === 'address' ? this.policy.freePerAddress : this.policy.freePerSubnet,
          this.policy.maxDelaySeconds,
          this.policy.windowSeconds,
        ),
      ),
    );
  }
}
