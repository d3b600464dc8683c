import { signInLockout } from '@locus/contract';
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ApiConfig } from '../../config';
import { subnetOf } from './subnet';

// One round trip, atomically, for a failure from one client address on one account (keys share
// the address's hash tag): count it for the pair and for the address, each in a fixed window
// that later failures do not extend. Past the pair's free failures, hold the pair back for
// 2^(n - free) seconds, at most the cap, and one failure short of the account's lock until the
// pair's window ends (so one address alone never locks an account). An address that already
// failed against its quota of different accounts holds each further account it fails against
// until the address's window ends. Answers the hold in seconds.
const RECORD_FAILURE = `
local window = tonumber(ARGV[4])
if redis.call('INCR', KEYS[4]) == 1 then redis.call('EXPIRE', KEYS[4], window) end
local failures = redis.call('INCR', KEYS[1])
if failures == 1 then redis.call('EXPIRE', KEYS[1], window) end
local free = tonumber(ARGV[2])
local delay = 0
if failures >= free then
  delay = math.floor(math.min(2 ^ (failures - free), tonumber(ARGV[3])))
  if failures >= tonumber(ARGV[6]) then delay = math.max(delay, redis.call('TTL', KEYS[1])) end
end
if redis.call('SISMEMBER', KEYS[3], ARGV[1]) == 0 then
  if redis.call('SCARD', KEYS[3]) < tonumber(ARGV[5]) then
    redis.call('SADD', KEYS[3], ARGV[1])
    if redis.call('TTL', KEYS[3]) < 0 then redis.call('EXPIRE', KEYS[3], window) end
  else
    delay = math.max(delay, redis.call('TTL', KEYS[3]))
  end
end
if delay > 0 then redis.call('SET', KEYS[2], '1', 'EX', delay) end
return delay
`;

// A subnet's failures, in a fixed window: they only ask for the captcha, never turn anyone away.
const COUNT_SUBNET = `
local failures = redis.call('INCR', KEYS[1])
if failures == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return failures
`;

export interface ThrottlePolicy {
  /** Failures from one client address on one account before each further one is delayed. */
  freePerAddress: number;
  /** Different accounts one address may fail against in a window; further ones wait it out. */
  accountsPerAddress: number;
  /** Failures from a /24 or /64 after which sign-in from there needs the captcha (when configured). */
  freePerSubnet: number;
  /** The longest progressive delay, in seconds. */
  maxDelaySeconds: number;
  /** One address's failures on one account at which it waits for the window's end: one short of the lock. */
  holdAtFailures: number;
  /** Fixed windows: counted from the first failure, not extended by later ones. */
  windowSeconds: number;
}

/**
 * Per (client address, account): 3 free failures, then a 1 s wait, and after the 4th (one short
 * of CJIS's 5) the address waits out the ten-minute window for that account, so one address
 * alone locks nobody. Per address: failures against at most 5 different accounts a window; a
 * sixth account it fails against waits the window out too, so one address cannot spread
 * failures over a centre either. Nobody else behind that address (a colleague behind the
 * centre's NAT, signing in to their own account) is ever delayed by them. A subnet's ten
 * failures only ask for the captcha.
 */
export const signInThrottle: ThrottlePolicy = {
  freePerAddress: 3,
  accountsPerAddress: 5,
  freePerSubnet: 10,
  maxDelaySeconds: 30,
  holdAtFailures: signInLockout.maxFailures - 1,
  windowSeconds: signInLockout.lockSeconds,
};

export function signInThrottleFromConfig(config: ApiConfig): ThrottlePolicy {
  return {
    ...signInThrottle,
    freePerAddress: config.SIGN_IN_FAILURES_PER_ADDRESS,
    accountsPerAddress: config.SIGN_IN_ACCOUNTS_PER_ADDRESS,
    freePerSubnet: config.SIGN_IN_FAILURES_PER_SUBNET,
    maxDelaySeconds: config.SIGN_IN_MAX_DELAY_SECONDS,
  };
}

const hashOf = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 32);

/**
 * Progressive delays for failed sign-ins per (client address, account), a cap on the accounts
 * one address fails against, and a count per subnet, in Redis so that every instance counts
 * together. A delayed request is answered at once (429 with Retry-After) rather than held
 * open: holding thousands of requests would be a denial of service of its own.
 */
export class AddressThrottle {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly policy: ThrottlePolicy = signInThrottle,
  ) {}

  /** The hash tag keeps an address's keys in one cluster slot, as the script needs. */
  private addressBase(ip: string): string {
    return `${this.prefix}sign-in-address:{${hashOf(ip)}}`;
  }

  private pairKeys(ip: string, email: string): [string, string] {
    const base = `${this.addressBase(ip)}:${hashOf(email.toLowerCase())}`;
    return [`${base}:failures`, `${base}:delayed`];
  }

  private subnetKey(ip: string): string {
    return `${this.prefix}sign-in-subnet:{${hashOf(subnetOf(ip))}}:failures`;
  }

  /**
   * Seconds until this address may try this account again; 0 when it may now. Without an
   * account there is nothing to wait for: no delay is ever per address alone.
   */
  async retryAfterSeconds(ip: string, email?: string): Promise<number> {
    if (email === undefined) return 0;
    const left = await this.redis.pttl(this.pairKeys(ip, email)[1]);
    return Math.ceil(Math.max(left, 0) / 1000);
  }

  /** Recent failures from this very address, on any account. */
  async failures(ip: string): Promise<number> {
    return Number((await this.redis.get(`${this.addressBase(ip)}:failures`)) ?? 0);
  }

  /** Whether the address's subnet failed often enough lately that sign-in needs the captcha. */
  async subnetIsSuspect(ip: string): Promise<boolean> {
    const failures = Number((await this.redis.get(this.subnetKey(ip))) ?? 0);
    return failures >= this.policy.freePerSubnet;
  }

  async recordFailure(ip: string, email: string): Promise<void> {
    const base = this.addressBase(ip);
    await Promise.all([
      this.redis.eval(
        RECORD_FAILURE,
        4,
        ...this.pairKeys(ip, email),
        `${base}:accounts`,
        `${base}:failures`,
        hashOf(email.toLowerCase()),
        this.policy.freePerAddress,
        this.policy.maxDelaySeconds,
        this.policy.windowSeconds,
        this.policy.accountsPerAddress,
        this.policy.holdAtFailures,
      ),
      this.redis.eval(COUNT_SUBNET, 1, this.subnetKey(ip), this.policy.windowSeconds),
    ]);
  }
}
