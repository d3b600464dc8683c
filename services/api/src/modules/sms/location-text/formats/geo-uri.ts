/**
 * `geo:` URIs (RFC 5870): `geo:38.8977,-77.0365`, with an altitude (ignored), `;u=35` (the
 * uncertainty in metres), `;crs=wgs84`, and Android's `geo:0,0?q=38.8977,-77.0365(Label)`,
 * where the query is the pin: Android writes 0,0 when the link has no position of its own.
 */
import { normalizeText, percentDecode } from '../normalize';
import {
  isAsciiAlnum,
  isDigit,
  located,
  numberContinues,
  readNumber,
  skipSpace,
  splitParams,
  startsWithCI,
  tokenEnd,
} from '../scan';
import type { Candidate, Found } from '../types';
import { readPair } from './coordinates';

const unreadable = 'The geo: link has no readable coordinates.';

/** A whole non-negative decimal number, or null. */
function wholeNumber(text: string): number | null {
  const n = readNumber(text, 0, false);
  return n && n.end === text.length ? n.value : null;
}

function readGeo(uri: string, maxLength: number): Found {
  const fail = (reason: string): Found => ({
    kind: 'invalid',
    format: 'geo-uri',
    reason,
    code: null,
  });
  const latitude = readNumber(uri, 0);
  if (!latitude || uri.charCodeAt(latitude.end) !== 44) return fail(unreadable);
  const longitude = readNumber(uri, skipSpace(uri, latitude.end + 1));
  if (!longitude) return fail(unreadable);
  let k = longitude.end;
  if (numberContinues(uri, k)) return fail(unreadable);
  // An altitude; a comma not followed by one ends the URI ("geo:38.8977,-77.0365，请快来").
  const altitude = uri.charCodeAt(k) === 44 ? readNumber(uri, k + 1) : null;
  if (altitude) k = altitude.end;
  let params = new Map<string, string>();
  let query = new Map<string, string>();
  if (uri.charCodeAt(k) === 59) {
    const queryAt = uri.indexOf('?', k);
    params = splitParams(uri.slice(k + 1, queryAt < 0 ? uri.length : queryAt), ';');
    if (queryAt >= 0) query = splitParams(uri.slice(queryAt + 1));
  } else if (uri.charCodeAt(k) === 63) query = splitParams(uri.slice(k + 1));

  const crs = params.get('crs');
  if (crs !== undefined && crs.toLowerCase() !== 'wgs84')
    return fail('The geo: link uses a coordinate system other than WGS 84.');
  const u = params.get('u');
  const uncertainty = u === undefined ? null : wholeNumber(u);
  // Android's geo:0,0: the link carries no position of its own (the pin, if any, is in q=).
  const noOwnPosition = latitude.value === 0 && longitude.value === 0;

  const q = query.get('q');
  if (q !== undefined) {
    let value = normalizeText(percentDecode(q, true), maxLength);
    if (value.toLowerCase().startsWith('loc:')) value = value.slice(4);
    value = value.slice(skipSpace(value, 0));
    const pair = readPair(value, 0, 'query');
    if (pair) {
      if ('problem' in pair.result) return fail(pair.result.problem);
      const same =
        pair.result.latitude.value === latitude.value &&
        pair.result.longitude.value === longitude.value;
      return located('geo-uri', pair.result.latitude, pair.result.longitude, {
        accuracyM: same ? uncertainty : null,
      });
    }
    if (noOwnPosition)
      return fail(
        'The geo: link names a place, not coordinates; ask for the coordinates or a Plus Code.',
      );
  }
  if (noOwnPosition)
    return fail('The geo: link gives 0,0, which is a placeholder, not a position.');
  return located('geo-uri', latitude, longitude, { accuracyM: uncertainty });
}

/** Every geo: URI outside `skip` up to the first readable one. */
export function scanGeo(s: string, maxLength: number, skip: (i: number) => number): Candidate[] {
  const found: Candidate[] = [];
  for (let i = 0; i + 4 <= s.length; i++) {
    const next = skip(i);
    if (next > i) {
      i = next - 1;
      continue;
    }
    if (!startsWithCI(s, i, 'geo:') || isAsciiAlnum(s.charCodeAt(i - 1))) continue;
    // "geo: 38.8977,-77.0365" too; "geo: the study of…" is not a URI.
    const body = skipSpace(s, i + 4);
    const first = s.charCodeAt(body);
    if (!isDigit(first) && !((first === 45 || first === 43) && isDigit(s.charCodeAt(body + 1))))
      continue;
    let end = tokenEnd(s, body);
    // "geo:38.8977, -77.0365": a space after the first comma, as people type it.
    if (
      s.charCodeAt(end) === 32 &&
      s.charCodeAt(end - 1) === 44 &&
      !s.slice(body, end - 1).includes(',')
    )
      end = tokenEnd(s, end + 1);
    const result = readGeo(s.slice(body, end), maxLength);
    found.push({ start: i, end, result });
    if (result.kind === 'location') break;
    i = end - 1;
  }
  return found;
}
