import type { SessionPolicy } from '@locus/contract';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { api, expect } from '../api';
import { paths } from '../guard';
import { isKeptAlive, lastActivityAt, markActivity } from './activity';
import { IdleWarning } from './IdleWarning';
import { describeTimeout, leaveSignedOutNotice } from './signed-out-notice';

/** What counts as the user working: keys, pointer, wheel and touch. Reads by the page do not. */
const inputEvents = ['keydown', 'pointerdown', 'pointermove', 'wheel', 'touchstart'] as const;

export const sessionPolicyQueryKey = ['session-policy'] as const;

function useSessionPolicy(): SessionPolicy | undefined {
  return useQuery({
    queryKey: sessionPolicyQueryKey,
    queryFn: async () => expect(await api.authSessions.policy(), 200),
    staleTime: Infinity,
  }).data;
}

/** Tells the API the user is working, at most once per `activityPingSeconds`. */
function useActivityPing(policy: SessionPolicy | undefined) {
  const lastPing = useRef(0);
  return useCallback(
    (force = false) => {
      if (!policy) return;
      const now = Date.now();
      if (!force && now - lastPing.current < policy.activityPingSeconds * 1000) return;
      lastPing.current = now;
      // A refusal (the session ended elsewhere) reaches the app's 401 handler by itself.
      void api.authSessions.activity().catch(() => undefined);
    },
    [policy],
  );
}

/**
 * The console's idle timeout (CJIS 5.5.5): a warning `idleWarningSeconds` before the limit, then
 * sign-out to the sign-in page with the reason. Input in any tab of the console, or a caller
 * being tracked (`useKeepSessionAlive`), counts as activity and is reported to the API, which
 * enforces the same limit as a backstop.
 */
export function IdleGuard() {
  const policy = useSessionPolicy();
  const ping = useActivityPing(policy);
  const navigate = useNavigate();
  const [secondsLeft, setSecondsLeft] = useState<number | null>(null);
  const warning = secondsLeft !== null;
  const warningRef = useRef(warning);
  warningRef.current = warning;

  const signOutForIdle = useCallback(() => {
    if (!policy) return;
    leaveSignedOutNotice(
      `You were signed out after ${describeTimeout(policy.idleTimeoutSeconds)} without activity.`,
    );
    void navigate(paths.signOut, { replace: true });
  }, [navigate, policy]);

  // Loading the console is the user's doing.
  useEffect(() => markActivity(), []);

  useEffect(() => {
    const onInput = () => {
      // Once the warning is up, only its button (or Escape) keeps the session.
      if (warningRef.current) return;
      markActivity();
      ping();
    };
    for (const type of inputEvents) window.addEventListener(type, onInput, { passive: true });
    return () => {
      for (const type of inputEvents) window.removeEventListener(type, onInput);
    };
  }, [ping]);

  useEffect(() => {
    if (!policy) return;
    const timeoutMs = policy.idleTimeoutSeconds * 1000;
    const warnAtMs = timeoutMs - policy.idleWarningSeconds * 1000;
    const tick = () => {
      if (isKeptAlive()) {
        markActivity();
        ping();
      }
      const idleMs = Date.now() - lastActivityAt();
      if (idleMs >= timeoutMs) signOutForIdle();
      else if (idleMs >= warnAtMs) setSecondsLeft(Math.ceil((timeoutMs - idleMs) / 1000));
      else setSecondsLeft(null);
    };
    tick();
    const timer = window.setInterval(tick, 1000);
    return () => window.clearInterval(timer);
  }, [policy, ping, signOutForIdle]);

  if (secondsLeft === null) return null;
  return (
    <IdleWarning
      secondsLeft={secondsLeft}
      onStay={() => {
        markActivity();
        ping(true);
        setSecondsLeft(null);
      }}
      onSignOut={() => void navigate(paths.signOut, { replace: true })}
    />
  );
}
