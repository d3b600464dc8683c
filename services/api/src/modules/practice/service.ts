import { randomUUID } from 'node:crypto';
import { ApiError } from '../../http/errors';
import { advanceSession } from '../location/lifecycle';
import { findFirstCaller, type SessionRow } from '../location/repo';
import type { TrackingDeps } from '../location/service';
import { newToken } from '../sessions/tokens';
import { issuePracticeLink } from './repo';
import { walkingCaller } from './scripts';

/**
 * Practice mode (issue 14) on the tracking routes: a practice session (`start-stream` with
 * `practice: true`) goes through the dashboard's whole flow, but the provider is never asked,
 * nobody is texted, and the caller is a script played by this instance (simulator.ts).
 */

/**
 * The automatic lookup of a practice session: the provider is not asked (the number is no real
 * caller), and the answer is the provider's "no location", so the dashboard offers the text as
 * after a real failure. The session-lifecycle machine has already heard LOOKUP_STARTED.
 */
export async function failPracticeLookup(deps: TrackingDeps, sessionId: string): Promise<never> {
  const code = 'lookup-no-location';
  await advanceSession(deps.db, sessionId, { type: 'LOOKUP_FAILED', code, at: Date.now() });
  throw new ApiError(422, code, 'Practice mode: the location provider is not asked.');
}

/**
 * The "text" of a practice session: the caller gets a link token as a texted caller would, but
 * no text is written or sent (no `sms_messages` row, no outbox, no Twilio, no SMS allowance
 * taken); the scripted caller opens its socket with it instead. Answers a fresh id, as the
 * contract's `token` names a text and there is none.
 */
export async function textPracticeCaller(
  deps: TrackingDeps,
  session: SessionRow,
): Promise<{ token: string }> {
  const caller = await findFirstCaller(deps.db, session.id);
  if (!caller) throw new ApiError(404, 'not-found', 'There is no such tracking session.');
  const script = walkingCaller;
  const link = newToken();
  const issued = await issuePracticeLink(deps.db, {
    sessionId: session.id,
    callerId: caller.id,
    language: script.language,
    tokenHash: link.hash,
    openWithinSeconds: deps.config.CALLER_LINK_OPEN_WITHIN_SECONDS,
    hardCapSeconds: deps.config.CALLER_TOKEN_TTL_SECONDS,
  });
  if (!issued) throw new ApiError(409, 'conflict', 'This tracking session has ended.');
  // "Sent": the session waits for its caller, as after a real text.
  await advanceSession(deps.db, session.id, { type: 'TEXT_SENT', at: Date.now() });
  if (!deps.practice) throw new Error('practice callers are not available on this route');
  deps.practice.start({
    sessionId: session.id,
    callerId: caller.id,
    linkToken: link.token,
    script,
  });
  return { token: randomUUID() };
}

/** The routes that text more numbers or ask by text: a practice session texts nobody. */
export function refuseInPractice(session: SessionRow): void {
  if (session.practice)
    throw new ApiError(
      409,
      'conflict',
      'This is a practice session: it texts nobody, so more numbers cannot be added to it.',
    );
}
