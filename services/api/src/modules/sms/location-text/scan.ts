/**
 * Character-level helpers shared by the format readers. Everything here reads a bounded number
 * of characters from a given position, so a scan that tries each position stays linear.
 */
import type { Found, TextLocationFormat } from './types';

export const isDigit = (c: number): boolean => c >= 48 && c <= 57;

export const isAsciiLetter = (c: number): boolean => {
  const lower = c | 0x20;
  return lower >= 97 && lower <= 122;
};

export const isAsciiAlnum = (c: number): boolean => isDigit(c) || isAsciiLetter(c);

const letterOrMark = /[\p{L}\p{M}]/u;
/** Scripts written without spaces: a letter of theirs next to an N or a W is not one word. */
const unspaced = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/**
 * True when the character at `i` is part of a word written with spaces (é, ñ, a combining accent
 * included): "près", "Ségur" must never lend an S to a coordinate, while "我在38.8977 N" may.
 */
export const isWordCharAt = (s: string, i: number): boolean => {
  if (i < 0 || i >= s.length) return false;
  if (isAsciiLetter(s.charCodeAt(i))) return true;
  const char = s.charAt(i);
  return letterOrMark.test(char) && !unspaced.test(char);
};

/** Whether `s` has `lower` (ASCII, lower case) at `i`, ignoring ASCII case. */
export function startsWithCI(s: string, i: number, lower: string): boolean {
  if (i < 0 || i + lower.length > s.length) return false;
  for (let k = 0; k < lower.length; k++) {
    let c = s.charCodeAt(i + k);
    if (c >= 65 && c <= 90) c |= 0x20;
    if (c !== lower.charCodeAt(k)) return false;
  }
  return true;
}

/** The normalised text has single spaces only (see normalize.ts): skips at most one. */
export const skipSpace = (s: string, i: number): number => (s.charCodeAt(i) === 32 ? i + 1 : i);

/** Digits read at most, before and after the decimal point: more is not a coordinate. */
const maxIntegerDigits = 12;
const maxFractionDigits = 20;

export interface NumberToken {
  start: number;
  end: number;
  value: number;
  /** As written (without a leading '+'), for messages. */
  text: string;
  /** Has an explicit + or - sign. */
  signed: boolean;
  fractionDigits: number;
}

/**
 * A decimal number at `i`: optional sign, 1–12 digits, optionally '.' and 1–20 digits. A '.'
 * not followed by a digit is not part of it. Null when there is none (or it is too long).
 */
export function readNumber(s: string, i: number, allowSign = true): NumberToken | null {
  let j = i;
  let signed = false;
  const first = s.charCodeAt(j);
  if (allowSign && (first === 43 || first === 45)) {
    signed = true;
    j++;
  }
  const intStart = j;
  while (isDigit(s.charCodeAt(j)) && j - intStart <= maxIntegerDigits) j++;
  const intDigits = j - intStart;
  if (intDigits === 0 || intDigits > maxIntegerDigits) return null;
  let fractionDigits = 0;
  if (s.charCodeAt(j) === 46 && isDigit(s.charCodeAt(j + 1))) {
    j++;
    const fracStart = j;
    while (isDigit(s.charCodeAt(j)) && j - fracStart <= maxFractionDigits) j++;
    fractionDigits = j - fracStart;
    if (fractionDigits > maxFractionDigits) return null;
  }
  const written = s.slice(i, j);
  const value = Number(written);
  if (!Number.isFinite(value)) return null;
  return {
    start: i,
    end: j,
    value,
    text: written.startsWith('+') ? written.slice(1) : written,
    signed,
    fractionDigits,
  };
}

/** Whether a number seems to go on at `j` (a digit, or '.' and a digit): "1.2.3", "12.05.2024". */
export const numberContinues = (s: string, j: number): boolean =>
  isDigit(s.charCodeAt(j)) || (s.charCodeAt(j) === 46 && isDigit(s.charCodeAt(j + 1)));

/** A value and how it was written, for range messages. */
export interface Written {
  value: number;
  text: string;
}

const shortText = (text: string): string => (text.length > 40 ? `${text.slice(0, 40)}…` : text);

/** The reason a latitude/longitude pair is out of range, or null when both are usable. */
export function rangeProblem(latitude: Written, longitude: Written): string | null {
  if (!Number.isFinite(latitude.value) || Math.abs(latitude.value) > 90)
    return `Latitude ${shortText(latitude.text)} is out of range.`;
  if (!Number.isFinite(longitude.value) || Math.abs(longitude.value) > 180)
    return `Longitude ${shortText(longitude.text)} is out of range.`;
  return null;
}

export const invalid = (
  format: TextLocationFormat,
  reason: string,
  code: string | null = null,
): Found => ({ kind: 'invalid', format, reason, code });

/** -0 reads as 0 everywhere. */
const plain = (n: number): number => (n === 0 ? 0 : n);

/**
 * The radius the server draws for a position that states no accuracy (a map link, plain
 * coordinates): wide on purpose, so that nobody searches a 5-metre circle around a shared pin.
 */
export const unknownAccuracyM = 100;

const metresPerDegree = 111_320;
const decimalText = /^[+-]?\d+(?:\.(\d+))?$/;

/**
 * Half the last written digit's step, in metres (the larger of the two coordinates): 0.5 m for
 * 5 decimals, 55 km for whole degrees. 0 for a coordinate not written as a plain decimal
 * (degrees, minutes and seconds are read as precise).
 */
function impliedPrecisionM(latitude: Written, longitude: Written): number {
  const step = (written: Written): number | null => {
    const match = decimalText.exec(written.text.trim());
    return match ? 0.5 * 10 ** -(match[1]?.length ?? 0) : null;
  };
  const lat = step(latitude);
  const lon = step(longitude);
  const cos = Math.max(0.01, Math.cos((latitude.value * Math.PI) / 180));
  return Math.max(
    lat === null ? 0 : lat * metresPerDegree,
    lon === null ? 0 : lon * metresPerDegree * cos,
  );
}

/**
 * A location when the pair is in range, or the invalid result naming what is not. The one
 * place results with coordinates are made.
 */
export function located(
  format: TextLocationFormat,
  latitude: Written,
  longitude: Written,
  extra: { accuracyM?: number | null; capturedAt?: number | null; code?: string | null } = {},
): Found {
  const code = extra.code ?? null;
  const problem = rangeProblem(latitude, longitude);
  if (problem) return invalid(format, problem, code);
  const stated = extra.accuracyM ?? null;
  // Never more precise than written: "geo:38,-77" is a 100-km square, whatever it says.
  // (Under a metre, as the page's own 5 decimals, it changes nothing worth saying.)
  const implied = impliedPrecisionM(latitude, longitude);
  const accuracyM =
    stated !== null
      ? implied >= 1
        ? Math.max(stated, implied)
        : stated
      : implied > unknownAccuracyM
        ? implied
        : null;
  return {
    kind: 'location',
    format,
    latitude: plain(latitude.value),
    longitude: plain(longitude.value),
    accuracyM:
      accuracyM !== null && Number.isFinite(accuracyM) && accuracyM >= 0 ? accuracyM : null,
    capturedAt: extra.capturedAt ?? null,
    code,
  };
}

/**
 * Where a link or URI starting at `i` ends: at a space, or where Chinese (or other wide) text
 * follows it without one ("…?q=38.8977,-77.0365请快来"). Degree signs and primes stay in.
 */
export function tokenEnd(s: string, i: number): number {
  let j = i;
  while (j < s.length) {
    const c = s.charCodeAt(j);
    if (c === 32 || c >= 0x2e80) break;
    j++;
  }
  return j;
}

/** Splits `a=1&b=2` into its first value per lower-cased name (values as written). */
export function splitParams(query: string, separator = '&'): Map<string, string> {
  const params = new Map<string, string>();
  for (const part of query.split(separator)) {
    const eq = part.indexOf('=');
    const name = (eq < 0 ? part : part.slice(0, eq)).toLowerCase();
    if (name && !params.has(name)) params.set(name, eq < 0 ? '' : part.slice(eq + 1));
  }
  return params;
}
