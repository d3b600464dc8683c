import type { SessionPolicy } from '@locus/contract';

/** The deployment's idle settings (SESSION_IDLE_TIMEOUT_SECONDS, SESSION_IDLE_WARNING_SECONDS). */
export interface IdleDefaults {
  timeoutSeconds: number;
  warningSeconds: number;
}

/** The configuration's defaults, for callers that have no configuration at hand. */
export const idleDefaults: IdleDefaults = { timeoutSeconds: 30 * 60, warningSeconds: 60 };

/**
 * The idle timeout that applies to a user: each team's own setting (minutes), or the default for
 * a team without one; with several teams the strictest wins, so no team's policy is weakened by
 * another's. The warning is at most half the timeout, and the console pings at most every
 * quarter of it (and at least every minute), so a short test timeout still works.
 */
export function idlePolicy(
  defaults: IdleDefaults,
  teamTimeoutsMinutes: readonly (number | null)[],
): SessionPolicy {
  const limits = teamTimeoutsMinutes.map((minutes) =>
    minutes === null ? defaults.timeoutSeconds : minutes * 60,
  );
  const timeout = limits.length > 0 ? Math.min(...limits) : defaults.timeoutSeconds;
  return {
    idleTimeoutSeconds: timeout,
    idleWarningSeconds: Math.max(1, Math.min(defaults.warningSeconds, Math.floor(timeout / 2))),
    activityPingSeconds: Math.max(1, Math.min(60, Math.floor(timeout / 4))),
  };
}

/**
 * The API's backstop: the console signs out at the timeout after the last input, and its last
 * ping may be up to one ping interval older than that input, so the server allows that much more.
 */
export function serverIdleLimitSeconds(policy: SessionPolicy): number {
  return policy.idleTimeoutSeconds + policy.activityPingSeconds;
}
