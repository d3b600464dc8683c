import { mfaChallengeLimits, type MfaChallenge, type MfaMethod } from '@locus/contract';
import type { Redis } from 'ioredis';
import { hashToken, newToken } from '../sessions/tokens';

// One round trip, atomically: an existing challenge's attempt is counted before its code is
// looked at, so parallel requests cannot evaluate more than `maxAttempts` codes between them.
// Returns nil for an unknown or expired challenge, else the attempt's number and the fields.
const RESERVE_ATTEMPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return nil end
local attempt = redis.call('HINCRBY', KEYS[1], 'attempts', 1)
local fields = redis.call('HMGET', KEYS[1], 'userId', 'email', 'staySignedIn')
return {attempt, fields[1], fields[2], fields[3]}
`;

/** Whom a challenge signs in, once a code is right. */
export interface PendingSignIn {
  userId: string;
  email: string;
  staySignedIn: boolean;
}

/**
 * Sign-in challenges between the password and the code, in Redis so that every API instance
 * sees them: 256 random bits handed to the browser, only their hash used as the key, expiring
 * after `mfaChallengeLimits.ttlSeconds` and after `maxAttempts` attempts (each counted before
 * its code is checked).
 */
export class MfaChallenges {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(challenge: string): string {
    return `${this.prefix}mfa-challenge:${hashToken(challenge).toString('hex')}`;
  }

  async issue(pending: PendingSignIn, methods: MfaMethod[]): Promise<MfaChallenge> {
    const { token } = newToken();
    await this.redis
      .multi()
      .hset(this.key(token), {
        userId: pending.userId,
        email: pending.email,
        staySignedIn: pending.staySignedIn ? '1' : '0',
        attempts: '0',
      })
      .expire(this.key(token), mfaChallengeLimits.ttlSeconds)
      .exec();
    return {
      mfaRequired: true,
      challenge: token,
      methods,
      expiresAt: new Date(Date.now() + mfaChallengeLimits.ttlSeconds * 1000).toISOString(),
    };
  }

  async find(challenge: string): Promise<PendingSignIn | undefined> {
    const fields = await this.redis.hgetall(this.key(challenge));
    if (!fields.userId || !fields.email) return undefined;
    return {
      userId: fields.userId,
      email: fields.email,
      staySignedIn: fields.staySignedIn === '1',
    };
  }

  /**
   * Claims one of the challenge's `maxAttempts` before a code is checked: the pending sign-in
   * and the attempt's number, or 'exhausted' past the limit (the challenge is ended), or
   * undefined when it is unknown or expired.
   */
  async reserveAttempt(
    challenge: string,
  ): Promise<{ pending: PendingSignIn; attempt: number } | 'exhausted' | undefined> {
    const reply = (await this.redis.eval(RESERVE_ATTEMPT, 1, this.key(challenge))) as
      [number, string | null, string | null, string | null] | null;
    if (!reply) return undefined;
    const [attempt, userId, email, staySignedIn] = reply;
    if (attempt > mfaChallengeLimits.maxAttempts) {
      await this.redis.del(this.key(challenge));
      return 'exhausted';
    }
    if (!userId || !email) return undefined;
    return { pending: { userId, email, staySignedIn: staySignedIn === '1' }, attempt };
  }

  /** Ends the challenge; false when another request already did (it signs in only once). */
  async consume(challenge: string): Promise<boolean> {
    return (await this.redis.del(this.key(challenge))) === 1;
  }
}
