import { signInLockout } from '@locus/contract';
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { AddressThrottle, signInThrottle, type ThrottlePolicy } from './address-throttle';

// One round trip, atomically: count the failure; at the limit, lock the address and start over.
const RECORD_FAILURE = `
local failures = redis.call('INCR', KEYS[1])
if failures == 1 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
if failures >= tonumber(ARGV[1]) then
  redis.call('SET', KEYS[2], '1', 'EX', ARGV[2])
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
`;

/**
 * Failed sign-ins per address, in Redis so that every API instance counts together. Unknown
 * addresses are counted and locked exactly like known ones, so a lock reveals nothing. Keys
 * hold a hash of the address, not the address.
 */
export class SignInLockout {
  /** The per (address, account) delays and per-address caps that keep the lock from being abused. */
  readonly addresses: AddressThrottle;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly policy: { maxFailures: number; lockSeconds: number } = signInLockout,
    addressPolicy: ThrottlePolicy = signInThrottle,
  ) {
    this.addresses = new AddressThrottle(redis, prefix, addressPolicy);
  }

  private keys(email: string): [string, string] {
    const id = createHash('sha256').update(email.toLowerCase()).digest('hex');
    // The hash tag keeps both keys in one cluster slot, as the script needs.
    return [`${this.prefix}sign-in:{${id}}:failures`, `${this.prefix}sign-in:{${id}}:locked`];
  }

  async isLocked(email: string): Promise<boolean> {
    return (await this.redis.exists(this.keys(email)[1])) === 1;
  }

  /** Failures counted towards the lock so far (0 once it locked or was cleared). */
  async failures(email: string): Promise<number> {
    return Number((await this.redis.get(this.keys(email)[0])) ?? 0);
  }

  /** Counts a failure; true when it locked the address. */
  async recordFailure(email: string): Promise<boolean> {
    const locked = await this.redis.eval(
      RECORD_FAILURE,
      2,
      ...this.keys(email),
      this.policy.maxFailures,
      this.policy.lockSeconds,
    );
    return locked === 1;
  }

  /** After a successful sign-in or a password reset. */
  async clear(email: string): Promise<void> {
    await this.redis.del(...this.keys(email));
  }

  /** An admin lifts a lock at once (and forgets the failures counted towards one). */
  async unlockAccount(email: string): Promise<boolean> {
    const removed = await this.redis.del(...this.keys(email));
    return removed > 0;
  }
}
