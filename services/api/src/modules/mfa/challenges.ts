import { mfaChallengeLimits, type MfaChallenge, type MfaMethod } from '@locus/contract';
import {
  SignInFlow,
  signInFlowPolicyFrom,
  type PersistedSignInFlow,
} from '@locus/machines/authentication';
import type { Redis } from 'ioredis';
import { ApiError } from '../../http/errors';
import { hashToken, newToken } from '../sessions/tokens';

// One round trip, atomically: an existing challenge's attempt is counted before its code is
// looked at, so parallel requests cannot evaluate more than `maxAttempts` codes between them.
// Returns nil for an unknown or expired challenge, else the attempt's number and the fields.
const RESERVE_ATTEMPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return nil end
local attempt = redis.call('HINCRBY', KEYS[1], 'attempts', 1)
local fields = redis.call('HMGET', KEYS[1], 'userId', 'email', 'staySignedIn', 'flow')
return {attempt, fields[1], fields[2], fields[3], fields[4]}
`;

// Stores the sign-in flow's next snapshot only if the stored one is still the one the request
// started from: of two requests that both moved the same challenge on, exactly one wins.
const ADVANCE_FLOW = `
if redis.call('HGET', KEYS[1], 'flow') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'flow', ARGV[2])
return 1
`;

/** The answer to a code or passkey for a challenge that takes none (any more). */
export const challengeExpired = () =>
  new ApiError(
    401,
    'mfa-challenge-expired',
    'This sign-in has expired. Enter your email and password again.',
  );

/** Whom a challenge signs in, once a code is right. */
export interface PendingSignIn {
  userId: string;
  email: string;
  staySignedIn: boolean;
}

/** A challenge's sign-in flow as stored: the machine, and the exact text it was read as. */
export interface StoredFlow {
  flow: SignInFlow;
  stored: string;
}

function restore(stored: string | null | undefined): StoredFlow | undefined {
  if (!stored) return undefined;
  return { flow: SignInFlow.resume(JSON.parse(stored) as PersistedSignInFlow), stored };
}

/**
 * Sign-in challenges between the password and the code, in Redis so that every API instance
 * sees them: 256 random bits handed to the browser, only their hash used as the key, expiring
 * after `mfaChallengeLimits.ttlSeconds`. Each holds the sign-in flow machine's snapshot
 * (`packages/machines/src/authentication/sign-in-flow.ts`), so whether a challenge still takes a
 * code (not signed in, locked, out of time or of its `maxAttempts` attempts, each counted before
 * its code is checked) is the machine's decision; the key stays until it expires, so a replayed
 * challenge is refused by the machine, not merely missed.
 */
export class MfaChallenges {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(challenge: string): string {
    return `${this.prefix}mfa-challenge:${hashToken(challenge).toString('hex')}`;
  }

  /** Stores a challenge with its flow, which the machine has just moved to `secondFactor`. */
  async issue(
    pending: PendingSignIn,
    methods: MfaMethod[],
    flow: SignInFlow,
  ): Promise<MfaChallenge> {
    const { token } = newToken();
    await this.redis
      .multi()
      .hset(this.key(token), {
        userId: pending.userId,
        email: pending.email,
        staySignedIn: pending.staySignedIn ? '1' : '0',
        attempts: '0',
        flow: JSON.stringify(flow.persisted()),
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

  async find(challenge: string): Promise<(PendingSignIn & StoredFlow) | undefined> {
    const fields = await this.redis.hgetall(this.key(challenge));
    const flow = restore(fields.flow);
    if (!fields.userId || !fields.email || !flow) return undefined;
    return {
      userId: fields.userId,
      email: fields.email,
      staySignedIn: fields.staySignedIn === '1',
      ...flow,
    };
  }

  /**
   * Claims one attempt before a code is checked: the pending sign-in, the attempt's number and
   * the flow as stored, or undefined when the challenge is unknown or expired. Whether the
   * attempt may be made at all is the flow's decision (`CODE_SUBMITTED`).
   */
  async reserveAttempt(
    challenge: string,
  ): Promise<({ pending: PendingSignIn; attempt: number } & StoredFlow) | undefined> {
    const reply = (await this.redis.eval(RESERVE_ATTEMPT, 1, this.key(challenge))) as
      [number, string | null, string | null, string | null, string | null] | null;
    if (!reply) return undefined;
    const [attempt, userId, email, staySignedIn, stored] = reply;
    const flow = restore(stored);
    if (!userId || !email || !flow) return undefined;
    return { pending: { userId, email, staySignedIn: staySignedIn === '1' }, attempt, ...flow };
  }

  /**
   * An attempt at the challenge's code or passkey, claimed and then put to its sign-in flow
   * (`CODE_SUBMITTED`): the attempt when the flow takes it, else `challengeExpired` (unknown,
   * expired, signed in, locked, out of time or of attempts; the flow's decision is stored).
   */
  async openAttempt(
    challenge: string,
  ): Promise<{ pending: PendingSignIn; attempt: number } & StoredFlow> {
    const reserved = await this.reserveAttempt(challenge);
    if (!reserved) throw challengeExpired();
    reserved.flow.send({ type: 'CODE_SUBMITTED', attempt: reserved.attempt, at: Date.now() });
    if (reserved.flow.state() !== 'checkingCode') {
      await this.advance(challenge, reserved);
      throw challengeExpired();
    }
    return reserved;
  }

  /**
   * Stores where the flow went, if nobody moved the challenge on meanwhile: false when another
   * request did (then this one must not act: a challenge signs in only once).
   */
  async advance(challenge: string, from: StoredFlow): Promise<boolean> {
    const next = JSON.stringify(from.flow.persisted());
    if (next === from.stored) return true;
    const written = await this.redis.eval(ADVANCE_FLOW, 1, this.key(challenge), from.stored, next);
    return written === 1;
  }
}

/** The sign-in flow's policy, from the contract's limits. */
export const signInFlowPolicy = signInFlowPolicyFrom(mfaChallengeLimits);
