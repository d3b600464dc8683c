import {
  maxPasskeysPerUser,
  mfaChallengeLimits,
  type AddPasskeyBody,
  type AuthToken,
  type Passkey,
  type PasskeySignInBody,
  type WebAuthnOptions,
} from '@locus/contract';
import type { Database } from '@locus/db';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
  type WebAuthnCredential,
} from '@simplewebauthn/server';
import type { Redis } from 'ioredis';
import { webAuthnRelyingParty } from '../../config';
import { ApiError } from '../../http/errors';
import type { AppDeps } from '../../platform/deps';
import { recordAudit } from '../audit/repo';
import { revokeOtherSessions } from '../auth-sessions/repo';
import { startAuthSession, type SessionClient } from '../auth-sessions/start';
import type { Principal } from '../auth/guard';
import type { SignInLockout } from '../auth/lockout';
import { checkPassword } from '../auth/passwords';
import { markSessionMfaVerified } from '../auth/repo';
import {
  accountLocked,
  recordLockedSignIn,
  recordReauthFailure,
  recordSignInFailure,
  RetryLaterError,
} from '../auth/sign-in-guard';
import { challengeExpired, MfaChallenges } from '../mfa/challenges';
import { findTotp } from '../mfa/repo';
import { hashToken } from '../sessions/tokens';
import {
  claimCounter,
  countPasskeys,
  deletePasskey,
  insertPasskey,
  listPasskeys,
  type PasskeyRow,
} from './repo';

/** A WebAuthn challenge lasts as long as the sign-in challenge it belongs to (five minutes). */
const challengeTtlSeconds = mfaChallengeLimits.ttlSeconds;

const passkeyRefused = () =>
  new ApiError(
    401,
    'invalid-mfa-code',
    'That passkey was not accepted. Try again, or use another way to sign in.',
  );
const registrationRefused = () =>
  new ApiError(400, 'validation-failed', 'The passkey could not be added. Try again.');

function toPasskey(row: PasskeyRow): Passkey {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
  };
}

/** Reads and deletes a key in one round trip: a WebAuthn challenge is answered once. */
async function takeOnce(redis: Redis, key: string): Promise<string | null> {
  const results = await redis.multi().get(key).del(key).exec();
  const value = results?.[0]?.[1];
  return typeof value === 'string' ? value : null;
}

/**
 * WebAuthn passkeys as a second factor (CJIS advanced authentication): adding and removing them
 * from the profile, and sign-in's second step with one. The WebAuthn challenges live in Redis:
 * a registration's bound to the signed-in user, an assertion's bound to the sign-in challenge.
 */
export class PasskeyService {
  private readonly db: Database;
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly rp: { rpID: string; rpName: string; origin: string };
  private readonly challenges: MfaChallenges;

  constructor(
    deps: AppDeps,
    private readonly lockout: SignInLockout,
  ) {
    this.db = deps.db;
    this.redis = deps.redis;
    this.prefix = deps.config.REDIS_KEY_PREFIX;
    this.rp = webAuthnRelyingParty(deps.config);
    this.challenges = new MfaChallenges(deps.redis, deps.config.REDIS_KEY_PREFIX);
  }

  private registrationKey(userId: string): string {
    return `${this.prefix}passkey-registration:${userId}`;
  }

  private assertionKey(signInChallenge: string): string {
    return `${this.prefix}passkey-assertion:${hashToken(signInChallenge).toString('hex')}`;
  }

  async list(principal: Principal): Promise<Passkey[]> {
    return (await listPasskeys(this.db, principal.userId)).map(toPasskey);
  }

  /**
   * Creation options; the challenge is kept for this user only, replacing any earlier one. Needs
   * the current password, so a borrowed session cannot put its own key on the account; a wrong
   * one counts toward the account lockout like a failed sign-in (as starting an authenticator
   * app's enrolment does).
   */
  async registrationOptions(
    principal: Principal,
    password: string,
    ip: string,
  ): Promise<WebAuthnOptions> {
    if (await this.lockout.isLocked(principal.email)) throw accountLocked();
    const user = await this.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', principal.userId)
      .executeTakeFirst();
    if (!(await checkPassword(user?.password_hash, password))) {
      // Counted like a failed sign-in, audited as what it is (not a sign-in).
      await recordReauthFailure(
        { lockout: this.lockout, db: this.db },
        { email: principal.email, ip, userId: principal.userId },
        { action: 'mfa-change.failed', change: 'passkey-add' },
      );
      throw new ApiError(401, 'invalid-credentials', 'That password is not right.');
    }
    const existing = await listPasskeys(this.db, principal.userId);
    if (existing.length >= maxPasskeysPerUser) throw tooMany();
    const options = await generateRegistrationOptions({
      rpName: this.rp.rpName,
      rpID: this.rp.rpID,
      userName: principal.email,
      userDisplayName: principal.fullName,
      userID: Buffer.from(principal.userId.replace(/-/g, ''), 'hex'),
      attestationType: 'none',
      excludeCredentials: existing.map((passkey) => ({
        id: passkey.credential_id,
        transports: passkey.transports,
      })),
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    });
    await this.redis.set(
      this.registrationKey(principal.userId),
      options.challenge,
      'EX',
      challengeTtlSeconds,
    );
    return options as unknown as WebAuthnOptions;
  }

  /** Verifies the browser's answer to this user's own, unexpired challenge, and keeps the key. */
  async add(principal: Principal, body: AddPasskeyBody): Promise<Passkey> {
    // A session that never proved the user's second factor cannot add another one.
    if (principal.mfaEnabled && !principal.mfaVerified) throw secondStepFirst();
    const expectedChallenge = await takeOnce(this.redis, this.registrationKey(principal.userId));
    if (!expectedChallenge) throw registrationRefused();
    let verification;
    try {
      verification = await verifyRegistrationResponse({
        response: body.response as unknown as RegistrationResponseJSON,
        expectedChallenge,
        expectedOrigin: this.rp.origin,
        expectedRPID: this.rp.rpID,
        requireUserVerification: false,
      });
    } catch {
      throw registrationRefused();
    }
    if (!verification.verified) throw registrationRefused();
    const { credential } = verification.registrationInfo;
    if ((await countPasskeys(this.db, principal.userId)) >= maxPasskeysPerUser) throw tooMany();
    const row = await this.db.transaction().execute(async (trx) => {
      const inserted = await insertPasskey(trx, {
        userId: principal.userId,
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports ?? body.response.response.transports ?? [],
        name: body.name,
      });
      if (!inserted) return undefined;
      // The user's first factor, added on this session, meets a team's MFA requirement for it.
      if (principal.mfaVerified || !principal.mfaEnabled)
        await markSessionMfaVerified(trx, principal.tokenHash);
      await recordAudit(trx, {
        actorUserId: principal.userId,
        action: 'mfa.passkey-added',
        subject: principal.userId,
        detail: { passkeyId: inserted.id, name: inserted.name },
      });
      // The first second factor: the user's other sessions were started with the password
      // alone, so they end (as when an authenticator app is set up).
      if (!principal.mfaEnabled) {
        const revoked = await revokeOtherSessions(trx, principal.userId, principal.tokenHash);
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
      }
      return inserted;
    });
    if (!row) throw new ApiError(409, 'conflict', 'This passkey is already registered.');
    return toPasskey(row);
  }

  /**
   * Removes a passkey. Removing the last second factor turns two-step sign-in off, which a team
   * that requires it does not allow (the user adds another factor first).
   */
  async remove(principal: Principal, id: string): Promise<void> {
    if (principal.mfaEnabled && !principal.mfaVerified) throw secondStepFirst();
    const passkeys = await listPasskeys(this.db, principal.userId);
    const passkey = passkeys.find((candidate) => candidate.id === id);
    if (!passkey) throw new ApiError(404, 'not-found', 'No such passkey.');
    if (principal.mfaRequiredByTeam && passkeys.length === 1) {
      const totp = await findTotp(this.db, principal.userId);
      if (!totp?.confirmed) {
        throw new ApiError(
          409,
          'conflict',
          'Your team requires two-step sign-in. Add another passkey or an authenticator app before removing this one.',
        );
      }
    }
    await this.db.transaction().execute(async (trx) => {
      if (!(await deletePasskey(trx, principal.userId, id))) return;
      await recordAudit(trx, {
        actorUserId: principal.userId,
        action: 'mfa.passkey-removed',
        subject: principal.userId,
        detail: { passkeyId: id, name: passkey.name },
      });
    });
  }

  /** Request options for the sign-in challenge's user's passkeys. */
  async signInOptions(signInChallenge: string): Promise<WebAuthnOptions> {
    const pending = await this.challenges.find(signInChallenge);
    // Only while the sign-in flow still takes an answer (not signed in, locked or expired).
    if (!pending?.flow.takesCode(Date.now())) throw challengeExpired();
    const passkeys = await listPasskeys(this.db, pending.userId);
    if (passkeys.length === 0)
      throw new ApiError(409, 'conflict', 'You have no passkey. Use another way to sign in.');
    const options = await generateAuthenticationOptions({
      rpID: this.rp.rpID,
      allowCredentials: passkeys.map((passkey) => ({
        id: passkey.credential_id,
        transports: passkey.transports,
      })),
      userVerification: 'preferred',
    });
    await this.redis.set(
      this.assertionKey(signInChallenge),
      options.challenge,
      'EX',
      challengeTtlSeconds,
    );
    return options as unknown as WebAuthnOptions;
  }

  /**
   * The second step with a passkey, as the code's (MfaService.signIn): an assertion that does not
   * verify counts toward the account's lockout and the address's throttle like a wrong code; a
   * good one ends the challenge and starts the session.
   */
  async signIn(
    body: PasskeySignInBody,
    client: SessionClient & { ip: string },
  ): Promise<AuthToken> {
    // Counted before anything is looked at, as for codes: parallel requests share the limit.
    const reserved = await this.challenges.openAttempt(body.challenge);
    const { pending, flow } = reserved;
    // The address's delay for this account (the throttle is per address and account).
    const retryAfter = await this.lockout.addresses.retryAfterSeconds(client.ip, pending.email);
    if (retryAfter > 0) throw new RetryLaterError(retryAfter);
    let passkey: PasskeyRow | undefined;
    if (await this.lockout.isLocked(pending.email)) {
      flow.send({ type: 'ACCOUNT_LOCKED' });
      // As for a code: a failed sign-in, audited, not counted (the lock lifts when it would have).
      await recordLockedSignIn(this.db, {
        email: pending.email,
        ip: client.ip,
        userId: pending.userId,
      });
    } else {
      const expectedChallenge = await takeOnce(this.redis, this.assertionKey(body.challenge));
      passkey = (await listPasskeys(this.db, pending.userId)).find(
        (candidate) => candidate.credential_id === body.response.id,
      );
      const accepted =
        expectedChallenge !== null &&
        passkey !== undefined &&
        (await this.verifyAssertion(body, passkey, expectedChallenge));
      flow.send({ type: 'CODE_CHECKED', accepted });
    }
    if (flow.state() === 'countingFailure') {
      await recordAudit(this.db, {
        actorUserId: null,
        action: 'sign-in.mfa-failed',
        subject: pending.userId,
        detail: { method: 'webauthn', ip: client.ip },
      });
      const outcome = await recordSignInFailure(
        { lockout: this.lockout, db: this.db },
        { email: pending.email, ip: client.ip, userId: pending.userId },
      );
      flow.send({ type: 'LOCK_DECIDED', locked: outcome === 'locked' });
    }
    // Only the request that moved the stored flow on acts on a sign-in.
    const won = await this.challenges.advance(body.challenge, reserved);
    if (flow.state() === 'locked') throw accountLocked();
    if (flow.state() !== 'signedIn' || passkey === undefined) throw passkeyRefused();
    if (!won) throw challengeExpired();
    await this.lockout.clear(pending.email);
    await recordAudit(this.db, {
      actorUserId: pending.userId,
      action: 'sign-in.passkey',
      subject: pending.userId,
      detail: { passkeyId: passkey.id, ip: client.ip },
    });
    return startAuthSession(this.db, {
      userId: pending.userId,
      staySignedIn: pending.staySignedIn,
      client,
      mfaVerified: true,
    });
  }

  /** Checks the signature and moves the counter forward, so an assertion never works twice. */
  private async verifyAssertion(
    body: PasskeySignInBody,
    passkey: PasskeyRow,
    expectedChallenge: string,
  ): Promise<boolean> {
    let newCounter: number;
    try {
      const verification = await verifyAuthenticationResponse({
        response: body.response as unknown as AuthenticationResponseJSON,
        expectedChallenge,
        expectedOrigin: this.rp.origin,
        expectedRPID: this.rp.rpID,
        credential: {
          id: passkey.credential_id,
          publicKey: new Uint8Array(passkey.public_key),
          counter: passkey.counter,
          transports: passkey.transports as WebAuthnCredential['transports'],
        },
        requireUserVerification: false,
      });
      if (!verification.verified) return false;
      newCounter = verification.authenticationInfo.newCounter;
    } catch {
      return false;
    }
    return claimCounter(this.db, passkey.id, newCounter);
  }
}

const secondStepFirst = () =>
  new ApiError(
    403,
    'mfa-required',
    'Sign in again with your second step before changing your passkeys.',
  );

const tooMany = () =>
  new ApiError(409, 'conflict', `You can add at most ${maxPasskeysPerUser} passkeys.`);

/** Whether the user has a passkey (sign-in then offers `webauthn`). */
export async function hasPasskey(db: Database, userId: string): Promise<boolean> {
  return (await countPasskeys(db, userId)) > 0;
}
