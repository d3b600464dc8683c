/**
 * Reads a caller's location out of an inbound text message: the caller page's own `LOC …` text,
 * `geo:` URIs, Google / Apple / OpenStreetMap links, Plus Codes and coordinates as people write
 * them, anywhere among other words (English, Spanish, French, Chinese).
 *
 * A wrong pin is worse than no pin: whatever is out of range, malformed or ambiguous comes back
 * `invalid` (with a reason for the dispatcher's log) or `none`, never clamped or guessed. Pure:
 * no clock (the message's time of day is read against `context.now`), no network, never throws,
 * linear in the (capped) length of the text.
 */
import { scanCoordinates } from './formats/coordinates';
import { scanGeo } from './formats/geo-uri';
import { scanLoc } from './formats/loc';
import { findLinks, scanLinks, type Span } from './formats/map-links';
import { scanPlusCodes } from './formats/plus-code';
import { normalizeText } from './normalize';
import type { Candidate, Found, ParseContext, ParsedTextLocation } from './types';

export type { ParsedTextLocation, TextLocationFormat } from './types';

/** Only this many characters of a message are read (Twilio bodies are at most 1600). */
export const maxParsedLength = 2000;

const none: ParsedTextLocation = { kind: 'none' };

/** `(i) => where to go on from i`: the end of the claimed span holding i, or i itself. */
function skipper(...groups: ReadonlyArray<ReadonlyArray<Span>>): (i: number) => number {
  const spans = groups
    .flat()
    .map(({ start, end }) => ({ start, end }))
    .sort((a, b) => a.start - b.start);
  // Merged, so that one search finds the whole run of overlapping spans.
  const merged: Span[] = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push(span);
  }
  return (i) => {
    let lo = 0;
    let hi = merged.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const span = merged[mid] as Span;
      if (i < span.start) hi = mid - 1;
      else if (i >= span.end) lo = mid + 1;
      else return span.end;
    }
    return i;
  };
}

const validReference = (reference: ParseContext['reference']): ParseContext['reference'] =>
  reference &&
  Number.isFinite(reference.latitude) &&
  Number.isFinite(reference.longitude) &&
  Math.abs(reference.latitude) <= 90 &&
  Math.abs(reference.longitude) <= 180
    ? { latitude: reference.latitude, longitude: reference.longitude }
    : null;

/** The last line of defence for the promise in the types: never a location that is not one. */
function checked(found: Found): ParsedTextLocation {
  if (found.kind === 'invalid') return found;
  const ok =
    Number.isFinite(found.latitude) &&
    Math.abs(found.latitude) <= 90 &&
    Number.isFinite(found.longitude) &&
    Math.abs(found.longitude) <= 180 &&
    (found.accuracyM === null || (Number.isFinite(found.accuracyM) && found.accuracyM >= 0)) &&
    (found.capturedAt === null || Number.isFinite(found.capturedAt));
  return ok
    ? found
    : {
        kind: 'invalid',
        format: found.format,
        reason: 'The location could not be read.',
        code: found.code,
      };
}

/**
 * The location in an SMS body. When it holds several, the first in reading order of the first
 * kind that has one readable, kinds in this order: LOC (ours), geo:, map links, Plus Codes,
 * plain coordinates. Only when none is readable is the first `invalid` one returned.
 */
export function parseTextLocation(
  body: string,
  context: { now: number; reference: { latitude: number; longitude: number } | null },
): ParsedTextLocation {
  try {
    if (typeof body !== 'string' || body.length === 0) return none;
    const ctx: ParseContext = {
      now: typeof context?.now === 'number' ? context.now : Number.NaN,
      reference: validReference(context?.reference ?? null),
    };
    const s = normalizeText(body, maxParsedLength);
    const links = findLinks(s);
    const loc = scanLoc(s, ctx.now, skipper(links));
    const geo = scanGeo(s, maxParsedLength, skipper(links, loc));
    const mapLinks = scanLinks(s, links, ctx, maxParsedLength);
    const plusCodes = scanPlusCodes(s, ctx, skipper(loc, geo));
    const families: Candidate[][] = [loc, geo, mapLinks, plusCodes];
    if (!families.some((family) => family.some((c) => c.result.kind === 'location')))
      families.push(scanCoordinates(s, skipper(links, loc, geo, plusCodes)));
    for (const family of families)
      for (const candidate of family)
        if (candidate.result.kind === 'location') return checked(candidate.result);
    for (const family of families) {
      const first = family[0];
      if (first) return checked(first.result);
    }
    return none;
  } catch {
    return none;
  }
}
