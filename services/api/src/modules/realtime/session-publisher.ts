import type { Location, SessionEventName } from '@locus/contract';
import type { RealtimeContext } from './context';
import { locationBody } from './frames';
import { lastPersistedSeq } from './repo';
import { textedFixMarks, type Dedupe, type TextMarks } from './sequencer';
import type { NewRow } from './write-journal';

type Context = Pick<RealtimeContext, 'db' | 'sequencer' | 'writer' | 'metrics' | 'journal'>;

/**
 * Publishes through the sequencer, seeding the session's counter from Postgres when Redis lacks
 * it (a new session, or Redis lost its data), so that a sequence number is never handed out twice.
 * With a `row`, the numbered row is journalled in the same step (write-journal.ts) and queued for
 * Postgres. Returns the seq, or 0 for a fix that is not newer than the caller's last one.
 */
export async function sequence(
  context: Context,
  sessionId: string,
  event: SessionEventName,
  bodyJson: string,
  dedupe?: Dedupe,
  textMarks?: TextMarks,
  row?: NewRow,
): Promise<number> {
  const entry = row ? await context.journal.entryFor(sessionId, row) : undefined;
  let seq = 0;
  try {
    const publish = () =>
      context.sequencer.publish(sessionId, event, bodyJson, dedupe, textMarks, entry);
    seq = await publish();
    if (seq === -1) {
      await context.writer.flush();
      await context.sequencer.seed(sessionId, await lastPersistedSeq(context.db, sessionId));
      seq = await publish();
    }
    if (seq > 0 && row) {
      if ('fix' in row) context.writer.addFix({ ...row.fix, seq });
      else context.writer.addEvent({ ...row.event, seq });
    }
    return seq;
  } finally {
    if (row) context.journal.settled(sessionId, seq);
  }
}

/**
 * A session just opened has no events yet: its counter starts at 0 now, so that its first event
 * does not wait on Postgres (a flush of pending rows, then a query) to learn that. Best effort and
 * not awaited: with Redis down, opening a session must not wait for it, and `sequence` still
 * seeds from Postgres whenever the counter is missing (the script only sets an absent counter).
 * One window remains: with this instance cut off from Redis, the seed waits in the client's queue;
 * if meanwhile other instances number the session's events and Redis then loses the counter and
 * the stream, the late seed would set 0 where Postgres knows better. It needs a Redis data loss
 * during a partition; a check of the open time in the script would close it.
 */
export function seedNewSession(
  context: Pick<RealtimeContext, 'sequencer' | 'log'>,
  sessionId: string,
): void {
  context.sequencer.seed(sessionId, 0).catch((error: unknown) => {
    context.log.warn({ err: error, sessionId }, 'could not seed a new session’s counter');
  });
}

/** A session event that is not a fix: published, then queued for `session_events`. */
export async function publishSessionEvent(
  context: Context,
  target: { sessionId: string; callerId: string },
  event: Exclude<SessionEventName, 'new-location-available'>,
  fields: Record<string, unknown>,
): Promise<number> {
  const payload = JSON.stringify({ ...target, ...fields });
  return sequence(context, target.sessionId, event, payload, undefined, undefined, {
    event: { ...target, event, payload, createdAt: new Date() },
  });
}

/**
 * A fix that did not come from the caller's socket (the emergency-data provider's): the same
 * dedupe, sequence, fan-out and persistence as a caller's fix.
 */
export async function publishServerFix(
  context: Context,
  target: { sessionId: string; callerId: string },
  location: Location,
): Promise<number> {
  const capturedAt = Date.parse(location.dateTimeCaptured);
  const body = JSON.stringify(locationBody(target.sessionId, target.callerId, location));
  const seq = await sequence(
    context,
    target.sessionId,
    'new-location-available',
    body,
    // Its own dedupe key: the provider's clock and the phone's must not drop each other's fixes.
    { key: `${target.callerId}:${location.capturedFromSource}`, capturedAt },
    undefined,
    serverFixRow(target, location),
  );
  if (seq !== 0) context.metrics.fixesAccepted.inc();
  return seq;
}

/** The row of a fix the server published (not one from the page's socket). */
function serverFixRow(
  target: { sessionId: string; callerId: string },
  location: Location,
  deliveredBy?: 'sms',
): NewRow {
  return {
    fix: {
      ...target,
      latitude: location.latitude,
      longitude: location.longitude,
      uncertaintyRadiusM: location.uncertaintyRadiusInMeters,
      altitude: location.altitude,
      heading: null,
      speed: null,
      address: location.address,
      source: location.capturedFromSource,
      capturedAt: new Date(location.dateTimeCaptured),
      receivedAt: new Date(),
      ...(deliveredBy ? { deliveredBy } : {}),
    },
  };
}

/**
 * A fix the caller texted back (their page's prefilled text, a map link, coordinates or a Plus
 * Code): published, delivered and stored like the page's, marked `deliveredBy: sms`. With a
 * capture time from the text (`timed`), it is a duplicate when the page (or an earlier text)
 * delivered that caller's capture second, and the page's copy arriving later is one too (see
 * `TextMarks`). Without one, it is stored as received. Returns the seq, or 0 for a duplicate.
 */
export async function publishTextedFix(
  context: Context,
  target: { sessionId: string; callerId: string },
  location: Location,
  timed: boolean,
): Promise<number> {
  const capturedAt = Date.parse(location.dateTimeCaptured);
  const body = JSON.stringify(
    locationBody(target.sessionId, target.callerId, location, null, 'sms'),
  );
  const seq = await sequence(
    context,
    target.sessionId,
    'new-location-available',
    body,
    undefined,
    timed ? textedFixMarks(target.callerId, capturedAt) : undefined,
    serverFixRow(target, location, 'sms'),
  );
  if (seq === 0) context.metrics.fixesDuplicate.inc();
  else context.metrics.fixesAccepted.inc();
  return seq;
}
