import { mfaChallengeLimits, type MfaChallenge, type MfaMethod } from '@locus/contract';
import type { Redis } from 'ioredis';
import { hashToken, newToken } from '../sessions/tokens';

/** Whom a challenge signs in, once a code is right. */
export interface PendingSignIn {
  userId: string;
  email: string;
  staySignedIn: boolean;
}

/**
 * Sign-in challenges between the password and the code, in Redis so that every API instance
 * sees them: 256 random bits handed to the browser, only their hash used as the key, expiring
 * after `mfaChallengeLimits.ttlSeconds` and after `maxAttempts` wrong codes.
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
        misses: '0',
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

  /** Counts a wrong code; the challenge ends at the limit. */
  async recordMiss(challenge: string): Promise<void> {
    const misses = await this.redis.hincrby(this.key(challenge), 'misses', 1);
    if (misses >= mfaChallengeLimits.maxAttempts) await this.redis.del(this.key(challenge));
  }

  /** Ends the challenge; false when another request already did (it signs in only once). */
  async consume(challenge: string): Promise<boolean> {
    return (await this.redis.del(this.key(challenge))) === 1;
  }
}
