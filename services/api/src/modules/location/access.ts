import { ApiError } from '../../http/errors';
import type { AppDeps } from '../../platform/deps';
import type { Principal } from '../auth/guard';
import { findDispatcherProfile, isClearedDomain, type DispatcherProfile } from './repo';

/** A dispatcher allowed to locate: always on an active team. */
export type LocatingProfile = DispatcherProfile & { team: NonNullable<DispatcherProfile['team']> };

/**
 * Who may locate a phone, text a caller or deploy a call list: confirmed staff (`verify-email`)
 * of an agency whose domain is cleared or whom the platform owner approved (verification;
 * else `unauthorized-domain`, SPEC.md §8), who
 * are members of an active team (`no-active-team`) and finished registering
 * (`registration-incomplete`).
 * A confirmed address on a cleared domain alone is anyone who can read that domain's mail: the
 * team is the agency vouching for them, and the one that texts the caller in its name.
 */
export async function requireLocatingAllowed(
  { db }: Pick<AppDeps, 'db'>,
  principal: Principal,
): Promise<LocatingProfile> {
  const profile = await findDispatcherProfile(db, principal.userId);
  if (!profile) throw new ApiError(401, 'unauthorized', 'Sign in again.');
  if (!profile.emailConfirmed)
    throw new ApiError(
      403,
      'verify-email',
      'Confirm your email address before you locate a caller.',
    );
  const domain = profile.email.split('@').pop() ?? '';
  // Read on every request, never cached: an approval (verification) counts at once.
  if (!profile.verificationApproved && !(await isClearedDomain(db, domain)))
    throw new ApiError(
      403,
      'unauthorized-domain',
      `Locating callers is not enabled for ${domain} addresses.`,
    );
  const { team } = profile;
  if (!team)
    throw new ApiError(
      403,
      'no-active-team',
      'Your account is not part of an active agency team yet. Ask your agency administrator to add you.',
    );
  if (!profile.registrationCompleted)
    throw new ApiError(
      403,
      'registration-incomplete',
      'Finish your registration before you locate a caller.',
    );
  return { ...profile, team };
}
