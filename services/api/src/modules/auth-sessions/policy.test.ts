import { describe, expect, it } from 'vitest';
import { idlePolicy, serverIdleLimitSeconds } from './policy';

const defaults = { timeoutSeconds: 1800, warningSeconds: 60 };

describe('the idle policy', () => {
  it('is the default for a user without teams or whose teams set nothing', () => {
    expect(idlePolicy(defaults, [])).toEqual({
      idleTimeoutSeconds: 1800,
      idleWarningSeconds: 60,
      activityPingSeconds: 60,
    });
    expect(idlePolicy(defaults, [null, null]).idleTimeoutSeconds).toBe(1800);
  });

  it("takes the strictest of the user's teams, a team without a setting counting as the default", () => {
    expect(idlePolicy(defaults, [10, 45]).idleTimeoutSeconds).toBe(600);
    expect(idlePolicy(defaults, [45, null]).idleTimeoutSeconds).toBe(1800);
    expect(idlePolicy(defaults, [45]).idleTimeoutSeconds).toBe(2700);
  });

  it('keeps the warning and the pings in proportion to a short timeout', () => {
    const policy = idlePolicy({ timeoutSeconds: 8, warningSeconds: 60 }, []);
    expect(policy).toEqual({
      idleTimeoutSeconds: 8,
      idleWarningSeconds: 4,
      activityPingSeconds: 2,
    });
    expect(serverIdleLimitSeconds(policy)).toBe(10);
  });
});
