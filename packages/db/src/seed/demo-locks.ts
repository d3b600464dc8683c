import { createHash } from 'node:crypto';
import { demoLockedUsers } from './demo-data';

/** What `lockDemoAccounts` needs of a Redis client (ioredis' `set` fits). */
export interface RedisSetter {
  set(key: string, value: string, expiry: 'EX', seconds: number, mode: 'NX'): Promise<unknown>;
}

/**
 * How long a demo lock lasts: a real lock lasts ten minutes, which would be over before anyone
 * opened the users screen after `npm start`; a day leaves time to find it and lift it.
 */
export const demoLockSeconds = 24 * 60 * 60;

/**
 * The sign-in lock of `demoLockedUsers`. The lockout lives in Redis (the API's
 * `SignInLockout`, services/api/src/modules/auth/lockout.ts), so the database seed cannot hold
 * it: `npm start` and `npm run seed` call this with their Redis after seeding. The key is the
 * lockout's own (`<prefix>sign-in:{sha256(address)}:locked`; tests/db/schema-and-seed.test.ts
 * checks the API sees it). Set only when absent, so running it again never extends a lock; a
 * lock lifted by an admin comes back at the next start, like the rest of the demo's state.
 */
export async function lockDemoAccounts(redis: RedisSetter, prefix: string): Promise<number> {
  let locked = 0;
  for (const email of demoLockedUsers) {
    const id = createHash('sha256').update(email.toLowerCase()).digest('hex');
    const set = await redis.set(
      `${prefix}sign-in:{${id}}:locked`,
      '1',
      'EX',
      demoLockSeconds,
      'NX',
    );
    if (set === 'OK') locked += 1;
  }
  return locked;
}
