import type { RealtimeContext } from '../realtime/context';
import { publishSessionEvent } from '../realtime/session-publisher';

/**
 * A session ended (every instance hears it, hub.ts): the callers whose video ran get a
 * `video-state` stopped by `session-ended`, published once (one instance takes the running
 * set). The callers' pages are sent `video-stop` by their own sockets as they close.
 */
export async function stopVideoOfEndedSession(
  context: RealtimeContext,
  sessionId: string,
): Promise<void> {
  if (!context.media) return;
  try {
    const callerIds = await context.media.takeRunningVideo(sessionId);
    for (const callerId of callerIds)
      await publishSessionEvent(context, { sessionId, callerId }, 'video-state', {
        state: 'stopped',
        by: 'session-ended',
      });
  } catch (error) {
    context.log.warn(
      { err: error, sessionId },
      'could not record the video stopped at session end',
    );
  }
}
