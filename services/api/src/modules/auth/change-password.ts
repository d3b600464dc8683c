import type { ChangePasswordBody } from '@locus/contract';
import { ApiError } from '../../http/errors';
import type { AppDeps } from '../../platform/deps';
import { recordAudit } from '../audit/repo';
import { revokeOtherSessions } from '../auth-sessions/repo';
import { revokeUserRealtimeAccess } from '../sessions/revocation';
import type { Principal } from './guard';
import type { SignInLockout } from './lockout';
import { assertAcceptablePassword } from './password-policy';
import { checkPassword, hashPassword } from './passwords';
import { findPasswordHash, replacePassword, retireCodes } from './repo';
import { accountLocked, recordReauthFailure, RetryLaterError } from './sign-in-guard';

const samePasswordMessage = 'Choose a password different from your current one.';

/** The field the profile shows a wrong current password beside. */
const wrongCurrentPassword = () =>
  new ApiError(401, 'invalid-credentials', 'Your current password is not right.');

/**
 * The profile's "Change password". The current password is required, so a session left open on
 * a shared console cannot be used to take the account over; a wrong one counts toward the
 * lockout and the address throttle like a failed sign-in, but is audited as its own
 * 'password-change.failed' (it is no sign-in), a locked account cannot try, and an address
 * held back for the account waits as it would to sign in. The new one
 * passes the registration rules. Then every other session of the user ends, with the dispatcher
 * sockets opened by them (someone who knew the old password may hold one); this console stays
 * signed in. An unused reset link dies too: it was asked for with the old password's account.
 */
export async function changePassword(
  deps: AppDeps,
  lockout: SignInLockout,
  principal: Principal,
  body: ChangePasswordBody,
  ip: string,
): Promise<{ message: string }> {
  // Sign-in's own order (admitSignIn): an address held back for this account waits (429, not
  // counted), so a borrowed session cannot lock the owner out from one address either.
  const retryAfter = await lockout.addresses.retryAfterSeconds(ip, principal.email);
  if (retryAfter > 0) throw new RetryLaterError(retryAfter);
  if (await lockout.isLocked(principal.email)) throw accountLocked();
  // What a schema cannot check comes first: a request refused for its new password counts
  // nothing against the account.
  await assertAcceptablePassword(body.newPassword, 'newPassword');
  const currentHash = await findPasswordHash(deps.db, principal.userId);
  if (currentHash === undefined || !(await checkPassword(currentHash, body.currentPassword))) {
    const outcome = await recordReauthFailure(
      { lockout, db: deps.db },
      { email: principal.email, ip, userId: principal.userId },
      { action: 'password-change.failed' },
    );
    throw outcome === 'locked' ? accountLocked() : wrongCurrentPassword();
  }
  if (await checkPassword(currentHash, body.newPassword)) {
    throw new ApiError(400, 'validation-failed', samePasswordMessage, [
      { path: 'newPassword', message: samePasswordMessage },
    ]);
  }
  const newHash = await hashPassword(body.newPassword);
  const sessionsEnded = await deps.db.transaction().execute(async (trx) => {
    if (!(await replacePassword(trx, principal.userId, currentHash, newHash))) return undefined;
    await retireCodes(trx, principal.userId, 'reset-password');
    const ended = await revokeOtherSessions(trx, principal.userId, principal.tokenHash);
    await recordAudit(trx, {
      actorUserId: principal.userId,
      action: 'password.changed',
      subject: principal.userId,
      detail: { sessionsEnded: ended.length, keptSessionId: principal.sessionId },
      // The user's own team sees it in its trail (the first, as everywhere SPEC says "team").
      teamId: principal.teamIds[0] ?? null,
      ip,
    });
    return ended.length;
  });
  if (sessionsEnded === undefined) {
    throw new ApiError(
      409,
      'conflict',
      'Your password was changed meanwhile. Sign in again with the new one.',
    );
  }
  // After the commit: a socket opening meanwhile re-checks its token and must see it revoked.
  await revokeUserRealtimeAccess(
    deps,
    principal.userId,
    { exceptAuthSessionId: principal.sessionId },
    'password-changed',
  );
  await lockout.clear(principal.email);
  return {
    message:
      sessionsEnded === 0
        ? 'Your password has been changed.'
        : 'Your password has been changed, and your other sessions have been signed out.',
  };
}
