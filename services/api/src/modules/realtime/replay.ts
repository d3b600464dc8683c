import { locationBody, sequencedFrame } from './frames';
import { persistedEvents } from './repo';
import type { RealtimeContext } from './context';

const PAGE = 1000;
const NO_UPPER_BOUND = 2 ** 31 - 1;

/**
 * Sends every event of the session with seq > afterSeq, oldest first: from Postgres for what
 * the capped Redis stream no longer holds, then from the stream. Returns the last seq sent.
 */
export async function replaySince(
  context: Pick<RealtimeContext, 'db' | 'sequencer'>,
  sessionId: string,
  afterSeq: number,
  send: (frame: Buffer | string, seq: number) => Promise<void>,
): Promise<number> {
  let cursor = afterSeq;
  const head = await context.sequencer.streamHead(sessionId);
  if (head === undefined || head > cursor + 1) {
    const upper = head ?? NO_UPPER_BOUND;
    for (;;) {
      const rows = await persistedEvents(context.db, sessionId, cursor, upper, PAGE);
      for (const row of rows) {
        const frame =
          row.kind === 'fix'
            ? sequencedFrame(
                'new-location-available',
                row.seq,
                JSON.stringify(
                  locationBody(
                    sessionId,
                    row.fix.callerId,
                    {
                      latitude: row.fix.latitude,
                      longitude: row.fix.longitude,
                      uncertaintyRadiusInMeters: row.fix.uncertaintyRadiusM,
                      altitude: row.fix.altitude,
                      address: row.fix.address,
                      capturedFromSource: row.fix.source,
                      dateTimeCaptured: row.fix.capturedAt.toISOString(),
                    },
                    row.fix.delayMs,
                    row.fix.deliveredBy,
                    row.fix.clockSkewMs,
                  ),
                ),
              )
            : sequencedFrame(row.event, row.seq, row.payload);
        await send(frame, row.seq);
        cursor = row.seq;
      }
      if (rows.length < PAGE) break;
    }
  }
  if (head !== undefined) {
    for (;;) {
      const entries = await context.sequencer.streamFrom(sessionId, cursor + 1, PAGE);
      for (const entry of entries) {
        await send(entry.frame, entry.seq);
        cursor = entry.seq;
      }
      if (entries.length < PAGE) break;
    }
  }
  return cursor;
}
