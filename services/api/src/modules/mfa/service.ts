import {
  type AuthToken,
  type MfaChallenge,
  type MfaMethod,
  type MfaSignInBody,
  type MfaStatus,
  type RecoveryCodes,
  type TotpEnrolment,
} from '@locus/contract';
import type { Database } from '@locus/db';
import type { SignInFlow } from '@locus/machines/authentication';
import { ApiError } from '../../http/errors';
import type { AppDeps } from '../../platform/deps';
import { recordAudit } from '../audit/repo';
import { startAuthSession, type SessionClient } from '../auth-sessions/start';
import type { Principal } from '../auth/guard';
import type { SignInLockout } from '../auth/lockout';
import { revokeOtherSessions } from '../auth-sessions/repo';
import { markSessionMfaVerified } from '../auth/repo';
import { checkPassword } from '../auth/passwords';
import { hasPasskey } from '../passkeys/service';
import {
  accountLocked,
  recordLockedSignIn,
  recordReauthFailure,
  recordSignInFailure,
  RetryLaterError,
} from '../auth/sign-in-guard';
import { challengeExpired, MfaChallenges, type PendingSignIn } from './challenges';
import { hashRecoveryCode, newRecoveryCodes, recoveryCodeKey } from './recovery-codes';
import {
  claimTimeStep,
  countUnusedRecoveryCodes,
  deleteTotp,
  findTotp,
  replaceRecoveryCodes,
  savePendingTotp,
  useRecoveryCode,
} from './repo';
import { SecretBox } from './secret-box';
import { checkTotpCode, newTotpSecret } from './totp';

const invalidMfaCode = () =>
  new ApiError(401, 'invalid-mfa-code', 'That code is not right, or it has been used already.');
const wrongCode = () =>
  new ApiError(400, 'invalid-mfa-code', 'That code is not right. Enter the current code.');

/** The second factors a user can answer a challenge with (none: the password alone signs in). */
export async function secondFactorMethods(deps: AppDeps, userId: string): Promise<MfaMethod[]> {
  const totp = await findTotp(deps.db, userId);
  const methods: MfaMethod[] = totp?.confirmed ? ['totp', 'recovery'] : [];
  if (await hasPasskey(deps.db, userId)) methods.push('webauthn');
  return methods;
}

/** Stores a challenge with the sign-in flow that issued it (now at `secondFactor`). */
export function issueMfaChallenge(
  deps: AppDeps,
  pending: PendingSignIn,
  methods: MfaMethod[],
  flow: SignInFlow,
): Promise<MfaChallenge> {
  return new MfaChallenges(deps.redis, deps.config.REDIS_KEY_PREFIX).issue(pending, methods, flow);
}

/** Authenticator-app enrolment and sign-in's second step (CJIS advanced authentication). */
export class MfaService {
  private readonly db: Database;
  private readonly box: SecretBox;
  private readonly challenges: MfaChallenges;
  private readonly recoveryKey: Buffer;

  constructor(
    deps: AppDeps,
    private readonly lockout: SignInLockout,
  ) {
    this.db = deps.db;
    this.box = new SecretBox(deps.config.MFA_ENCRYPTION_KEY);
    this.recoveryKey = recoveryCodeKey(deps.config.MFA_ENCRYPTION_KEY);
    this.challenges = new MfaChallenges(deps.redis, deps.config.REDIS_KEY_PREFIX);
  }

  /**
   * The second step. A wrong code counts toward the account's lockout and the address's
   * throttle exactly like a wrong password; the right one ends the challenge and starts a
   * session. The challenge's sign-in flow, stored with it, decides whether a code is looked at
   * at all: a challenge that signed in, locked or ran out of time or attempts takes none.
   */
  async signIn(body: MfaSignInBody, client: SessionClient & { ip: string }): Promise<AuthToken> {
    // The attempt is counted before anything else is looked at, so requests sent in parallel
    // cannot try more than the challenge's few codes between them.
    const reserved = await this.challenges.openAttempt(body.challenge);
    const { pending, flow } = reserved;
    const retryAfter = await this.lockout.addresses.retryAfterSeconds(client.ip, pending.email);
    if (retryAfter > 0) throw new RetryLaterError(retryAfter);
    if (await this.lockout.isLocked(pending.email)) {
      flow.send({ type: 'ACCOUNT_LOCKED' });
      // Locked since the password step: the code is not looked at, yet the attempt is a failed
      // sign-in. Audited, not counted (the lock lifts when it would have).
      await recordLockedSignIn(this.db, {
        email: pending.email,
        ip: client.ip,
        userId: pending.userId,
      });
    } else {
      const accepted =
        body.method === 'recovery'
          ? await useRecoveryCode(
              this.db,
              pending.userId,
              hashRecoveryCode(this.recoveryKey, body.code),
            )
          : await this.acceptTotp(pending.userId, body.code, { confirm: false });
      flow.send({ type: 'CODE_CHECKED', accepted });
    }
    if (flow.state() === 'countingFailure') {
      await recordAudit(this.db, {
        actorUserId: null,
        action: 'sign-in.mfa-failed',
        subject: pending.userId,
        detail: { method: body.method, ip: client.ip },
      });
      const outcome = await recordSignInFailure(
        { lockout: this.lockout, db: this.db },
        { email: pending.email, ip: client.ip, userId: pending.userId },
      );
      flow.send({ type: 'LOCK_DECIDED', locked: outcome === 'locked' });
    }
    // Only the request that moved the stored flow on acts on a sign-in.
    const won = await this.challenges.advance(body.challenge, reserved);
    switch (flow.state()) {
      case 'locked':
        throw accountLocked();
      case 'secondFactor':
      case 'expired':
        throw invalidMfaCode();
      case 'signedIn':
        if (!won) throw challengeExpired();
        break;
      default:
        throw new Error(`the sign-in flow stopped at ${flow.state()}`);
    }
    await this.lockout.clear(pending.email);
    if (body.method === 'recovery') {
      await recordAudit(this.db, {
        actorUserId: pending.userId,
        action: 'mfa.recovery-used',
        subject: pending.userId,
        detail: { left: await countUnusedRecoveryCodes(this.db, pending.userId) },
      });
    }
    return startAuthSession(this.db, {
      userId: pending.userId,
      staySignedIn: pending.staySignedIn,
      client,
      mfaVerified: true,
    });
  }

  async status(principal: Principal): Promise<MfaStatus> {
    const totp = await findTotp(this.db, principal.userId);
    return {
      totp: totp?.confirmed ?? false,
      recoveryCodesLeft: totp?.confirmed
        ? await countUnusedRecoveryCodes(this.db, principal.userId)
        : 0,
      requiredByTeam: principal.mfaRequiredByTeam,
    };
  }

  /**
   * A new secret, shown now and never again; not in force until a code confirms it. Needs the
   * current password, so a borrowed session cannot put its own app on the account; a wrong one
   * counts toward the account lockout like a failed sign-in.
   */
  async startTotp(principal: Principal, password: string, ip: string): Promise<TotpEnrolment> {
    if (await this.lockout.isLocked(principal.email)) throw accountLocked();
    const user = await this.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', principal.userId)
      .executeTakeFirst();
    if (!(await checkPassword(user?.password_hash, password))) {
      await this.countFailure(principal, ip, 'totp-enrol');
      throw new ApiError(401, 'invalid-credentials', 'That password is not right.');
    }
    const enrolment = newTotpSecret(principal.email);
    if (!(await savePendingTotp(this.db, principal.userId, this.box.seal(enrolment.secret)))) {
      throw new ApiError(
        409,
        'conflict',
        'An authenticator app is already set up. Remove it first to set up another.',
      );
    }
    return enrolment;
  }

  /**
   * The first right code puts the app in force; the recovery codes are shown once. The user's
   * other sessions end (they were started with the password alone), and this one counts as
   * having passed a second step, unless the user already had a factor this session never proved.
   */
  async confirmTotp(principal: Principal, code: string): Promise<RecoveryCodes> {
    const totp = await findTotp(this.db, principal.userId);
    if (!totp || totp.confirmed)
      throw new ApiError(409, 'conflict', 'Start setting up an authenticator app first.');
    if (!(await this.acceptTotp(principal.userId, code, { confirm: true }))) throw wrongCode();
    const recoveryCodes = newRecoveryCodes();
    await this.db.transaction().execute(async (trx) => {
      await replaceRecoveryCodes(
        trx,
        principal.userId,
        recoveryCodes.map((recoveryCode) => hashRecoveryCode(this.recoveryKey, recoveryCode)),
      );
      if (principal.mfaVerified || !principal.mfaEnabled)
        await markSessionMfaVerified(trx, principal.tokenHash);
      const revoked = await revokeOtherSessions(trx, principal.userId, principal.tokenHash);
      await recordAudit(trx, {
        actorUserId: principal.userId,
        action: 'mfa.enrolled',
        subject: principal.userId,
        detail: { method: 'totp' },
      });
      if (revoked.length > 0) {
        await recordAudit(trx, {
          actorUserId: principal.userId,
          action: 'session.revoked',
          subject: principal.userId,
          detail: {
            reason: 'mfa-enrolled',
            sessionIds: revoked,
            keptSessionId: principal.sessionId,
          },
        });
      }
    });
    return { recoveryCodes };
  }

  /**
   * Removing the second factor needs a current code, so a borrowed session cannot do it; a
   * wrong code counts toward the account lockout like a failed sign-in, and a locked account
   * cannot try.
   */
  async disableTotp(principal: Principal, code: string, ip: string): Promise<MfaStatus> {
    const totp = await findTotp(this.db, principal.userId);
    if (!totp?.confirmed) throw new ApiError(409, 'conflict', 'No authenticator app is set up.');
    if (await this.lockout.isLocked(principal.email)) throw accountLocked();
    if (!(await this.acceptTotp(principal.userId, code, { confirm: false }))) {
      if ((await this.countFailure(principal, ip, 'totp-disable')) === 'locked')
        throw accountLocked();
      throw wrongCode();
    }
    await this.db.transaction().execute(async (trx) => {
      await deleteTotp(trx, principal.userId);
      await recordAudit(trx, {
        actorUserId: principal.userId,
        action: 'mfa.disabled',
        subject: principal.userId,
        detail: { method: 'totp' },
      });
    });
    return this.status(principal);
  }

  /**
   * A wrong password or code from a signed-in user changing their second factor: counted toward
   * the lockout like a failed sign-in, audited as what it is ('mfa-change.failed').
   */
  private countFailure(
    principal: Principal,
    ip: string,
    change: 'totp-enrol' | 'totp-disable',
  ): Promise<'locked' | 'counted'> {
    return recordReauthFailure(
      { lockout: this.lockout, db: this.db },
      { email: principal.email, ip, userId: principal.userId },
      { action: 'mfa-change.failed', change },
    );
  }

  /** Checks a code and claims its time step, so the same code never works twice. */
  private async acceptTotp(
    userId: string,
    code: string,
    options: { confirm: boolean },
  ): Promise<boolean> {
    const totp = await findTotp(this.db, userId);
    if (!totp || totp.confirmed === options.confirm) return false;
    const digits = code.replace(/\s+/g, '');
    const step = await checkTotpCode(
      this.box.open(totp.secret_ciphertext),
      digits,
      totp.last_time_step,
    );
    return step !== undefined && (await claimTimeStep(this.db, userId, step, options));
  }
}
