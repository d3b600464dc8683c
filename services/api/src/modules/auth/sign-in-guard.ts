import { signInLockout } from '@locus/contract';
import type { Database } from '@locus/db';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../../http/errors';
import type { CaptchaVerifier } from '../../platform/captcha/captcha';
import { primaryTeamOf, recordAudit } from '../audit/repo';
import type { SignInLockout } from './lockout';

/**
 * With a captcha configured, it is asked for after this many failures (per account or address),
 * and from a subnet past its SIGN_IN_FAILURES_PER_SUBNET.
 */
export const captchaAfterFailures = 3;

export const accountLocked = () =>
  new ApiError(
    401,
    'account-locked',
    `Too many failed sign-ins. Try again in ${signInLockout.lockSeconds / 60} minutes.`,
  );

const captchaRequired = () =>
  new ApiError(401, 'captcha-required', 'Solve the captcha, then sign in again.');

/** A 429 whose Retry-After header `withRetryAfter` sets. */
export class RetryLaterError extends ApiError {
  constructor(readonly retryAfterSeconds: number) {
    super(
      429,
      'rate-limited',
      `Too many failed sign-ins to this account from your network. Try again in ${retryAfterSeconds} seconds.`,
    );
  }
}

/** Runs a handler's work, adding Retry-After to the answer when it was told to wait. */
export async function withRetryAfter<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof RetryLaterError)
      void reply.header('retry-after', String(error.retryAfterSeconds));
    throw error;
  }
}

export interface SignInAttempt {
  email: string;
  /** The client's address (as trusted proxies report it). */
  ip: string;
  captchaToken?: string | undefined;
}

/**
 * Before the password is checked: an address still in its delay for this account waits (429,
 * and the attempt does not count against the account, so an attacker is slowed before they can
 * lock anyone); a delay is only ever for one (address, account) pair, so nobody else behind the
 * address waits. A locked account stays locked; past three failures for the account or from the
 * address, or from a subnet past its count, a configured captcha must be solved. 'locked' when
 * the account is locked (the sign-in flow's `ACCOUNT_LOCKED`: the caller answers for it).
 */
export async function admitSignIn(
  deps: { lockout: SignInLockout; captcha: CaptchaVerifier },
  attempt: SignInAttempt,
): Promise<'admitted' | 'locked'> {
  const { lockout, captcha } = deps;
  const retryAfter = await lockout.addresses.retryAfterSeconds(attempt.ip, attempt.email);
  if (retryAfter > 0) throw new RetryLaterError(retryAfter);
  if (await lockout.isLocked(attempt.email)) return 'locked';
  if (captcha.provider === 'off') return 'admitted';
  const [forAccount, fromAddress, fromSubnet] = await Promise.all([
    lockout.failures(attempt.email),
    lockout.addresses.failures(attempt.ip),
    lockout.addresses.subnetIsSuspect(attempt.ip),
  ]);
  if (Math.max(forAccount, fromAddress) < captchaAfterFailures && !fromSubnet) return 'admitted';
  if (!(await captcha.verify(attempt.captchaToken, attempt.ip))) throw captchaRequired();
  return 'admitted';
}

/**
 * A wrong password (or an unknown address, counted alike): audited as a failed sign-in
 * ('sign-in.failed', which the login metrics count), counted for the (address, account) pair,
 * the address, its subnet and the account. 'locked' when this failure locked the account.
 */
export async function recordSignInFailure(
  deps: { lockout: SignInLockout; db: Database },
  attempt: SignInAttempt & { userId: string | null },
): Promise<'locked' | 'counted'> {
  const teamId = await auditSignInFailure(deps.db, attempt, {});
  return countFailure(deps, attempt, teamId);
}

/**
 * A sign-in step refused because the account is already locked: a failed sign-in all the same,
 * so it writes its 'sign-in.failed' (detail.refused: 'account-locked'), but nothing is counted:
 * the lock lifts when it was set to, and the address throttle does not hold back the owner
 * retrying the right password meanwhile.
 */
export async function recordLockedSignIn(
  db: Database,
  attempt: SignInAttempt & { userId: string | null },
): Promise<void> {
  await auditSignInFailure(db, attempt, { refused: 'account-locked' });
}

/** What a signed-in user re-entered a secret for, and the action its failure is audited as. */
export type ReauthFailure =
  | { action: 'password-change.failed' }
  | { action: 'mfa-change.failed'; change: 'totp-enrol' | 'totp-disable' | 'passkey-add' };

/**
 * A signed-in user's wrong current password (or code) when changing their password or second
 * factor. It counts toward the lockout and the address throttle exactly like a failed sign-in (a
 * borrowed session must not get unlimited guesses), but it is no sign-in: it is audited under
 * its own action, so the login metrics do not count it. The user is signed in, so they are the
 * actor. 'locked' when this failure locked the account.
 */
export async function recordReauthFailure(
  deps: { lockout: SignInLockout; db: Database },
  attempt: { email: string; ip: string; userId: string },
  failure: ReauthFailure,
): Promise<'locked' | 'counted'> {
  const { db } = deps;
  const teamId = await primaryTeamOf(db, attempt.userId);
  const { action, ...detail } = failure;
  await recordAudit(db, {
    actorUserId: attempt.userId,
    action,
    subject: attempt.userId,
    detail: { ...detail, ip: attempt.ip },
    teamId,
    ip: attempt.ip,
  });
  return countFailure(deps, attempt, teamId);
}

/**
 * The one 'sign-in.failed' row of a refused sign-in attempt (actor null, subject the address
 * typed, detail.userId its account or null), which the login metrics count. On the trail of the
 * account's team when the address has an account (its admins see who is being locked out); an
 * unknown address belongs to no team. Answers that team, for the lock's row.
 */
async function auditSignInFailure(
  db: Database,
  attempt: SignInAttempt & { userId: string | null },
  why: { refused?: 'account-locked' },
): Promise<string | null> {
  const teamId = attempt.userId === null ? null : await primaryTeamOf(db, attempt.userId);
  await recordAudit(db, {
    actorUserId: null,
    action: 'sign-in.failed',
    subject: attempt.email,
    detail: { ip: attempt.ip, userId: attempt.userId, ...why },
    teamId,
    ip: attempt.ip,
  });
  return teamId;
}

/**
 * Counts an audited failure for the (address, account) pair, the address, its subnet and the
 * account; audits the lock ('sign-in.locked') when this failure is the one that locks.
 */
async function countFailure(
  deps: { lockout: SignInLockout; db: Database },
  attempt: { email: string; ip: string; userId: string | null },
  teamId: string | null,
): Promise<'locked' | 'counted'> {
  const { lockout, db } = deps;
  await lockout.addresses.recordFailure(attempt.ip, attempt.email);
  if (!(await lockout.recordFailure(attempt.email))) return 'counted';
  await recordAudit(db, {
    actorUserId: null,
    action: 'sign-in.locked',
    subject: attempt.email,
    detail: {
      failures: signInLockout.maxFailures,
      lockSeconds: signInLockout.lockSeconds,
      userId: attempt.userId,
      ip: attempt.ip,
    },
    teamId,
    ip: attempt.ip,
  });
  return 'locked';
}
