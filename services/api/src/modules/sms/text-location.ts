import { realtimeLimits, type Location } from '@locus/contract';
import { markCaller } from '../realtime/repo';
import { publishTextedFix } from '../realtime/session-publisher';
import type { TrackingDeps } from '../location/service';
import type { ParsedTextLocation } from './location-text/parse';
import { unknownAccuracyM } from './location-text/scan';
import { pageFixInSecond, type TextedCaller } from './repo';

/** The radius drawn for a texted position that says nothing of its accuracy: see the parser. */
export const unknownTextAccuracyM = unknownAccuracyM;

/** What a text became as a location, for the dispatcher's log (`sms-received.location`). */
export type TextLocationOutcome =
  | { outcome: 'mapped' | 'duplicate'; reason?: undefined }
  | { outcome: 'not-mapped'; reason: string };

/**
 * The caller a text answers: the one Locus texted most recently at the sender's number, if its
 * session is still active (as for any reply). A text code names another active caller of that
 * number instead; a code none of them has maps nothing (the text still reaches the most recent
 * caller's log, if active). Codes are random and only matched among the sender's own callers, so
 * guessing one tells nobody anything.
 */
export function pickCaller(
  callers: TextedCaller[],
  parsed: ParsedTextLocation,
): { caller: TextedCaller | undefined; unknownCode: boolean } {
  const latest = callers[0]?.active ? callers[0] : undefined;
  const code = parsed.kind === 'none' ? null : parsed.code;
  if (!code) return { caller: latest, unknownCode: false };
  const match = callers.find((caller) => caller.active && caller.textCode === code);
  return match ? { caller: match, unknownCode: false } : { caller: latest, unknownCode: true };
}

/**
 * Maps a parsed text to a fix of `caller`: checked, deduplicated against the page's fixes
 * (a text the page prefilled carries its fix's capture second), then published and stored like
 * any other with `deliveredBy: sms`. Returns what became of it, or null when the text held no
 * location.
 */
export async function locateFromText(
  deps: TrackingDeps,
  caller: TextedCaller,
  parsed: ParsedTextLocation,
  context: { now: number; unknownCode: boolean },
): Promise<TextLocationOutcome | null> {
  if (parsed.kind === 'none') return null;
  if (parsed.kind === 'invalid') return { outcome: 'not-mapped', reason: parsed.reason };
  if (context.unknownCode)
    return {
      outcome: 'not-mapped',
      reason: `The code #${parsed.code} is not this caller's; the position was not mapped.`,
    };
  const target = { sessionId: caller.sessionId, callerId: caller.callerId };
  // A time in the future is a phone clock running fast: the text's arrival is the best time
  // there is, and it cannot name a fix of the page's (whose clock was as wrong).
  const timed =
    parsed.capturedAt !== null && parsed.capturedAt <= context.now + realtimeLimits.maxClockSkewMs;
  const capturedAt = timed && parsed.capturedAt !== null ? parsed.capturedAt : context.now;
  // Redis dedupes against the page (`TextMarks`); Postgres too, in case Redis lost its data.
  if (timed && (await pageFixInSecond(deps.db, target, capturedAt)))
    return { outcome: 'duplicate' };
  const location: Location = {
    latitude: parsed.latitude,
    longitude: parsed.longitude,
    uncertaintyRadiusInMeters: parsed.accuracyM ?? unknownTextAccuracyM,
    altitude: null,
    address: null,
    capturedFromSource: 'TEXT_MESSAGE',
    dateTimeCaptured: new Date(capturedAt).toISOString(),
  };
  const seq = await publishTextedFix(deps.realtime, target, location, timed);
  // The link funnel's "shared" (issue 13), as the page's first position sets it. Logged, never
  // fatal: the fix is out, and the text must still reach the dispatcher's log.
  if (seq !== 0)
    await markCaller(deps.db, target, 'shared_at', new Date(context.now)).catch((error: unknown) =>
      deps.log.warn({ err: error }, 'recording a caller metric failed'),
    );
  return { outcome: seq === 0 ? 'duplicate' : 'mapped' };
}

/** The inbound log's line for a text: what it became, or why it was not mapped. */
export function inboundNote(
  located: TextLocationOutcome | null,
  hasCaller: boolean,
  parsed: ParsedTextLocation,
): string {
  if (!hasCaller)
    return parsed.kind === 'none'
      ? 'No active session texted this number.'
      : 'Location not mapped: no active session texted this number.';
  if (!located) return 'Shown to the dispatcher.';
  if (located.outcome === 'mapped') return 'Location mapped.';
  if (located.outcome === 'duplicate')
    return 'Location already received from the caller’s page (not stored twice).';
  return `Location not mapped: ${located.reason}`;
}
