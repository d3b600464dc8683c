/**
 * Plus Codes (Open Location Code): full codes (`87C4VXX7+39`, `87C4VXX7+39X`, padded
 * `87C40000+`), and short codes (`VXX7+39`, often followed by a locality we cannot look up),
 * recovered relative to the session's last known position.
 */
import * as pluscodesModule from 'pluscodes';
import { isAsciiAlnum, located } from '../scan';
import type { Candidate, Found, ParseContext } from '../types';

// pluscodes is CommonJS: Node's ESM sees only a default export (module.exports), a CommonJS
// loader (tsx outside a module package, a bundler) sees the named ones. Either works.
type PlusCodes = typeof pluscodesModule;
const pluscodes: PlusCodes =
  'decode' in pluscodesModule && typeof pluscodesModule.decode === 'function'
    ? pluscodesModule
    : (pluscodesModule as unknown as { default: PlusCodes }).default;
const { decode, encode } = pluscodes;

const alphabet = '23456789CFGHJMPQRVWX';
const separatorPosition = 8;
const metresPerDegree = 111_320;

/** The digit's value (0–19) for an upper- or lower-case code character, else -1. */
function digitValue(c: number): number {
  const upper = c >= 97 && c <= 122 ? c - 32 : c;
  return alphabet.indexOf(String.fromCharCode(upper));
}
const isCodeChar = (c: number): boolean => digitValue(c) >= 0;

/** Half the diagonal of a code's cell, in whole metres (rounded up). */
function halfDiagonalM(latitude: number, latitudeResolution: number, longitudeResolution: number) {
  const height = latitudeResolution * metresPerDegree;
  const width = longitudeResolution * metresPerDegree * Math.cos((latitude * Math.PI) / 180);
  return Math.ceil(Math.hypot(height, width) / 2);
}

const needsReference = 'A short Plus Code needs a nearby known position; ask for the full code.';

/** Whether `code` (upper case, 8 characters before '+') is well-formed, padding included. */
function isValidFullCode(code: string): boolean {
  const after = code.length - separatorPosition - 1;
  const padding = code.indexOf('0');
  if (padding >= 0 && padding < separatorPosition) {
    // Padding: an even number of zeros from an even position up to '+', nothing after.
    if (after > 0 || padding < 2 || padding % 2 !== 0) return false;
    for (let k = padding; k < separatorPosition; k++) if (code.charAt(k) !== '0') return false;
  }
  // The first two digits say 0–160° of latitude and 0–340° of longitude.
  return digitValue(code.charCodeAt(0)) <= 8 && digitValue(code.charCodeAt(1)) <= 17;
}

/** `code`, upper case, with '+' at `separator`: a location, an invalid result, or null. */
function readCode(code: string, context: ParseContext): Found | null {
  const separator = code.indexOf('+');
  const after = code.length - separator - 1;
  if (after === 1 || after > 7) return null;
  if (separator === separatorPosition) {
    if (!isValidFullCode(code))
      return {
        kind: 'invalid',
        format: 'plus-code',
        reason: `${code} is not a valid Plus Code.`,
        code: null,
      };
    const area = decode(code);
    if (!area)
      return {
        kind: 'invalid',
        format: 'plus-code',
        reason: `${code} is not a valid Plus Code.`,
        code: null,
      };
    return located(
      'plus-code',
      { value: area.latitude, text: code },
      { value: area.longitude, text: code },
      {
        accuracyM: halfDiagonalM(area.latitude, area.latitudeResolution, area.longitudeResolution),
      },
    );
  }
  // Short codes drop 2, 4 or 6 digits; we read those dropping 2 or 4 (4 or 6 digits before '+'),
  // never zeros, and not digits only ("2345+67" is arithmetic more often than a place).
  if (separator !== 4 && separator !== 6) return null;
  if (after < 2 || code.includes('0') || !/[C-X]/.test(code)) return null;
  const reference = context.reference;
  if (
    !reference ||
    !Number.isFinite(reference.latitude) ||
    !Number.isFinite(reference.longitude) ||
    Math.abs(reference.latitude) > 90 ||
    Math.abs(reference.longitude) > 180
  )
    return { kind: 'invalid', format: 'plus-code', reason: needsReference, code: null };
  return recoverNearest(code, separator, reference);
}

/** The Open Location Code "recover nearest" algorithm: the cell nearest the reference. */
function recoverNearest(
  code: string,
  separator: number,
  reference: { latitude: number; longitude: number },
): Found {
  const paddingLength = separatorPosition - separator;
  const resolution = 20 ** (2 - paddingLength / 2);
  const half = resolution / 2;
  const refLatitude = Math.min(89.999_999, Math.max(-90, reference.latitude));
  let refLongitude = reference.longitude >= 180 ? reference.longitude - 360 : reference.longitude;
  if (refLongitude < -180) refLongitude += 360;
  const prefix = encode({ latitude: refLatitude, longitude: refLongitude }, 10);
  const area = prefix ? decode(prefix.slice(0, paddingLength) + code) : null;
  if (!area)
    return {
      kind: 'invalid',
      format: 'plus-code',
      reason: `${code} is not a valid Plus Code.`,
      code: null,
    };
  let latitude = area.latitude;
  let longitude = area.longitude;
  if (refLatitude + half < latitude && latitude - resolution >= -90) latitude -= resolution;
  else if (refLatitude - half > latitude && latitude + resolution <= 90) latitude += resolution;
  if (refLongitude + half < longitude) longitude -= resolution;
  else if (refLongitude - half > longitude) longitude += resolution;
  if (longitude >= 180) longitude -= 360;
  else if (longitude < -180) longitude += 360;
  return located(
    'plus-code',
    { value: latitude, text: code },
    { value: longitude, text: code },
    { accuracyM: halfDiagonalM(latitude, area.latitudeResolution, area.longitudeResolution) },
  );
}

/** Every Plus Code outside `skip`, up to the first readable one. */
export function scanPlusCodes(
  s: string,
  context: ParseContext,
  skip: (i: number) => number,
): Candidate[] {
  const found: Candidate[] = [];
  for (let p = s.indexOf('+'); p >= 0; p = s.indexOf('+', p + 1)) {
    const next = skip(p);
    if (next > p) {
      p = next - 1;
      continue;
    }
    let start = p;
    while (
      start > 0 &&
      p - start <= separatorPosition &&
      (isCodeChar(s.charCodeAt(start - 1)) || s.charCodeAt(start - 1) === 48)
    )
      start--;
    if (start === p || isAsciiAlnum(s.charCodeAt(start - 1))) continue;
    let end = p + 1;
    while (end - p - 1 <= 7 && isCodeChar(s.charCodeAt(end))) end++;
    if (isAsciiAlnum(s.charCodeAt(end)) || s.charCodeAt(end) === 43) continue;
    const result = readCode(s.slice(start, end).toUpperCase(), context);
    if (!result) continue;
    found.push({ start, end, result });
    if (result.kind === 'location') break;
  }
  return found;
}

/** A Plus Code at the very start of a (link parameter) value, or null. */
export function plusCodeAtStart(value: string, context: ParseContext): Found | null {
  const first = scanPlusCodes(value, context, (i) => i)[0];
  return first && first.start === 0 ? first.result : null;
}
