import { signInLockout } from '@locus/contract';
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { stepSignInLockout, type SignInLockoutPolicy } from '@locus/machines/authentication';
import { AddressThrottle, signInThrottle, type ThrottlePolicy } from './address-throttle';

// What is stored for an account, read in one round trip: the failures counted and how long the
// count and the lock have left (ms; negative when absent).
const READ_STATE = `
return { redis.call('GET', KEYS[1]) or '0', redis.call('PTTL', KEYS[1]), redis.call('PTTL', KEYS[2]) }
`;

// Writes the machine's decision, atomically and only if nothing changed since it was read (an
// attempt on another instance meanwhile): -1 then, and the caller reads and decides again.
// ARGV: the failures read, 'lock' | 'count' | 'clear', the new count, the key's life (ms).
const WRITE_STATE = `
if (redis.call('GET', KEYS[1]) or '0') ~= ARGV[1] or redis.call('EXISTS', KEYS[2]) == 1 then
  return -1
end
if ARGV[2] == 'lock' then
  redis.call('SET', KEYS[2], '1', 'PX', ARGV[4])
  redis.call('DEL', KEYS[1])
  return 1
end
if ARGV[2] == 'clear' then
  redis.call('DEL', KEYS[1])
  return 0
end
redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[4])
return 0
`;

/**
 * Failed sign-ins per address, in Redis so that every API instance counts together. Unknown
 * addresses are counted and locked exactly like known ones, so a lock reveals nothing. Keys
 * hold a hash of the address, not the address. Whether a failure locks, whether an account is
 * locked and when it opens again is the sign-in lockout machine's decision
 * (`packages/machines/src/authentication/lockout.ts`), run on the state stored here.
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

  private get machinePolicy(): SignInLockoutPolicy {
    return { maxFailures: this.policy.maxFailures, lockMs: this.policy.lockSeconds * 1000 };
  }

  /** The account's lockout as stored, in the machine's terms, as of `now`. */
  private async stored(email: string, now: number) {
    const [failures, countTtl, lockTtl] = (await this.redis.eval(
      READ_STATE,
      2,
      ...this.keys(email),
    )) as [string, number, number];
    const lockMs = this.machinePolicy.lockMs;
    return {
      raw: failures,
      state: {
        failures: Number(failures),
        // The count's key lives `lockMs` from its first failure.
        countingSince: countTtl > 0 ? now - (lockMs - countTtl) : null,
        lockedUntil: lockTtl > 0 ? now + lockTtl : null,
      },
    };
  }

  async isLocked(email: string): Promise<boolean> {
    const now = Date.now();
    const { state } = await this.stored(email, now);
    return (
      stepSignInLockout(this.machinePolicy, state, { type: 'TICK', at: now }).state === 'locked'
    );
  }

  /** Failures counted towards the lock so far (0 once it locked or was cleared). */
  async failures(email: string): Promise<number> {
    const now = Date.now();
    const { state } = await this.stored(email, now);
    return stepSignInLockout(this.machinePolicy, state, { type: 'TICK', at: now }).context.failures;
  }

  /** Counts a failure; true when it locked the address (the machine decides). */
  async recordFailure(email: string): Promise<boolean> {
    for (let attempt = 0; ; attempt += 1) {
      const now = Date.now();
      const { raw, state } = await this.stored(email, now);
      const step = stepSignInLockout(this.machinePolicy, state, { type: 'FAIL', at: now });
      // Refused: already locked (an attempt let in just before the lock); nothing more to count.
      if (!step.taken) return false;
      const { context } = step;
      const locks = step.state === 'locked';
      const until = locks ? context.lockedUntil! : context.countingSince! + context.lockMs;
      const written = await this.redis.eval(
        WRITE_STATE,
        2,
        ...this.keys(email),
        raw,
        locks ? 'lock' : 'count',
        context.failures,
        Math.max(1, until - now),
      );
      if (written !== -1) return written === 1;
      // Another instance counted meanwhile: read and decide again (bounded: each retry means
      // someone else's failure was written, and a lock ends the counting).
      if (attempt >= 20) return false;
    }
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
