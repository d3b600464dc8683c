/**
 * Coordinates as people write them: decimal pairs (`38.8977, -77.0365`), with hemispheres
 * (`38.8977 N, 77.0365 W`, `N38.8977 W77.0365`, `北纬38.8977 西经77.0365`) and in degrees,
 * minutes and seconds as Google Maps copies them (`38°53'51.7"N 77°02'11.4"W`). The pair reader
 * is shared with the map links, which call it on their decoded parameters ("link" mode: any
 * number of decimals, no checks on the words around).
 */
import {
  isAsciiAlnum,
  isAsciiLetter,
  isDigit,
  isWordCharAt,
  located,
  numberContinues,
  readNumber,
  skipSpace,
  startsWithCI,
  type Written,
} from '../scan';
import type { Candidate, Found } from '../types';

type Axis = 'lat' | 'lon';
interface Hemisphere {
  axis: Axis;
  sign: 1 | -1;
}
const north: Hemisphere = { axis: 'lat', sign: 1 };
const south: Hemisphere = { axis: 'lat', sign: -1 };
const east: Hemisphere = { axis: 'lon', sign: 1 };
const west: Hemisphere = { axis: 'lon', sign: -1 };

/** Single letters; 'O' (oeste, ouest) only in capitals, as "o" is a word in Spanish. */
function hemisphereLetter(c: number): Hemisphere | null {
  switch (c) {
    case 78: // N
    case 110:
      return north;
    case 83: // S
    case 115:
      return south;
    case 69: // E
    case 101:
      return east;
    case 87: // W
    case 119:
    case 79: // O
      return west;
    default:
      return null;
  }
}

/** Chinese: 北纬 / 南纬 latitude, 东经 / 西经 longitude (simplified and traditional). */
const chinesePrefixes: ReadonlyArray<readonly [string, Hemisphere]> = [
  ['北纬', north],
  ['北緯', north],
  ['南纬', south],
  ['南緯', south],
  ['东经', east],
  ['東經', east],
  ['东經', east],
  ['東经', east],
  ['西经', west],
  ['西經', west],
];
const chinesePrefixStarts = new Set(['北', '南', '东', '東', '西']);

function readHemispherePrefix(
  s: string,
  i: number,
): { hemisphere: Hemisphere; end: number } | null {
  const c = s.charCodeAt(i);
  const letter = hemisphereLetter(c);
  if (letter) {
    // A letter on its own (not part of a word, in any script), then the number.
    if (isWordCharAt(s, i + 1) || isWordCharAt(s, i - 1)) return null;
    if (c === 79 && s.charCodeAt(i + 1) === 32) return null;
    return { hemisphere: letter, end: skipSpace(s, i + 1) };
  }
  for (const [word, hemisphere] of chinesePrefixes)
    if (s.startsWith(word, i)) {
      let end = i + word.length;
      if (s.charCodeAt(end) === 58) end++; // 北纬:38.8977
      return { hemisphere, end: skipSpace(s, end) };
    }
  return null;
}

function readHemisphereSuffix(
  s: string,
  i: number,
): { hemisphere: Hemisphere; end: number } | null {
  const letter = hemisphereLetter(s.charCodeAt(i));
  if (!letter || isWordCharAt(s, i + 1)) return null;
  return { hemisphere: letter, end: i + 1 };
}

interface Component {
  start: number;
  end: number;
  /** Degrees with the written sign; the hemisphere is applied by the pair. */
  value: number;
  text: string;
  hemisphere: Hemisphere | null;
  suffixed: boolean;
  signed: boolean;
  /** Has minutes (degrees-minutes or degrees-minutes-seconds). */
  dms: boolean;
  degreeMark: boolean;
  fractionDigits: number;
  problem: string | null;
}

const isDegreeMark = (ch: string): boolean => ch === '°' || ch === '度';
const isMinuteMark = (ch: string): boolean => ch === "'" || ch === '分';
const isSecondMark = (ch: string): boolean => ch === '"' || ch === '秒';

function readComponent(s: string, i: number, hemispheres: boolean): Component | null {
  let j = i;
  let hemisphere: Hemisphere | null = null;
  if (hemispheres) {
    const prefix = readHemispherePrefix(s, j);
    if (prefix) {
      hemisphere = prefix.hemisphere;
      j = prefix.end;
    }
  }
  const degrees = readNumber(s, j, hemisphere === null);
  if (!degrees) return null;
  const negative = s.charCodeAt(degrees.start) === 45;
  let magnitude = Math.abs(degrees.value);
  j = degrees.end;
  let degreeMark = false;
  let dms = false;
  let problem: string | null = null;
  const markAt = skipSpace(s, j);
  if (isDegreeMark(s.charAt(markAt))) {
    degreeMark = true;
    j = markAt + 1;
    const minutes = degrees.fractionDigits === 0 ? readNumber(s, skipSpace(s, j), false) : null;
    const minuteMarkAt = minutes ? skipSpace(s, minutes.end) : -1;
    if (minutes && isMinuteMark(s.charAt(minuteMarkAt))) {
      dms = true;
      j = minuteMarkAt + 1;
      magnitude += minutes.value / 60;
      if (minutes.value >= 60) problem = `Minutes ${minutes.text} are out of range.`;
      const seconds = minutes.fractionDigits === 0 ? readNumber(s, skipSpace(s, j), false) : null;
      const secondMarkAt = seconds ? skipSpace(s, seconds.end) : -1;
      if (seconds && isSecondMark(s.charAt(secondMarkAt))) {
        j = secondMarkAt + 1;
        magnitude += seconds.value / 3600;
        if (seconds.value >= 60) problem ??= `Seconds ${seconds.text} are out of range.`;
      }
    }
  }
  let suffixed = false;
  if (hemispheres && hemisphere === null && !degrees.signed) {
    const suffix = readHemisphereSuffix(s, skipSpace(s, j));
    if (suffix) {
      hemisphere = suffix.hemisphere;
      suffixed = true;
      j = suffix.end;
    }
  }
  return {
    start: i,
    end: j,
    value: negative ? -magnitude : magnitude,
    text: s.slice(i, j),
    hemisphere,
    suffixed,
    signed: degrees.signed,
    dms,
    degreeMark,
    fractionDigits: degrees.fractionDigits,
    problem,
  };
}

export type PairResult = { latitude: Written; longitude: Written } | { problem: string };
export interface PairMatch {
  start: number;
  end: number;
  result: PairResult;
}

/**
 * text: in a message, where the words around matter and bare decimals need 3+ decimals.
 * query: a free-text parameter (`q=`), where "10, 20 rue X" is an address: decimals needed.
 * link: a parameter that holds coordinates only (`ll=`, `@`): any decimals.
 */
export type PairMode = 'text' | 'query' | 'link';

/**
 * A decimal number right before `i` with a comma or a space between ("1.5, 38.8977, -77.0365",
 * "1.1111 38.8977 -77.0365"): `i` is inside a list of numbers, not at a pair.
 */
function afterNumberList(s: string, i: number): boolean {
  let k = i - 1;
  if (s.charCodeAt(k) === 32) k--;
  if (s.charCodeAt(k) === 44 || s.charCodeAt(k) === 59) k--;
  else if (k === i - 1) return false;
  if (s.charCodeAt(k) === 32) k--;
  const digitsEnd = k;
  while (k >= 0 && digitsEnd - k < 24 && isDigit(s.charCodeAt(k))) k--;
  return k < digitsEnd && s.charCodeAt(k) === 46 && isDigit(s.charCodeAt(k - 1));
}

/** After `j`, a comma and another number, or a space and a decimal number: a list. */
function beforeNumberList(s: string, j: number): boolean {
  let k = skipSpace(s, j);
  const comma = s.charCodeAt(k) === 44 || s.charCodeAt(k) === 59;
  if (comma) k = skipSpace(s, k + 1);
  else if (k === j) return false;
  const next = readNumber(s, k);
  return next !== null && (comma || next.fractionDigits > 0);
}

/** Whether two components make a pair in this mode, and which is the latitude. */
function combine(a: Component, b: Component, comma: boolean, mode: PairMode): PairResult | null {
  const problem = a.problem ?? b.problem;
  const coarse = (c: Component): boolean => !c.dms && c.fractionDigits === 0;
  let lat: Component;
  let lon: Component;
  if (a.hemisphere && b.hemisphere) {
    if (a.hemisphere.axis === b.hemisphere.axis) return null;
    [lat, lon] = a.hemisphere.axis === 'lat' ? [a, b] : [b, a];
    // Whole degrees ("38N 77W") are ten kilometres wide: not a position to send help to.
    if (coarse(a) || coarse(b)) return null;
  } else if (a.hemisphere || b.hemisphere) {
    // One labelled: only where it would be anyway (N/S first or E/W second), the other unsigned.
    const labelled = a.hemisphere ? a : b;
    const other = a.hemisphere ? b : a;
    if (other.signed || other.dms !== labelled.dms) return null;
    if (
      (a.hemisphere && a.hemisphere.axis !== 'lat') ||
      (b.hemisphere && b.hemisphere.axis !== 'lon')
    )
      return null;
    if (!a.dms && (a.fractionDigits < 3 || b.fractionDigits < 3) && mode === 'text') return null;
    if (coarse(a) || coarse(b)) return null;
    [lat, lon] = [a, b];
  } else if (a.dms || b.dms) {
    // Degrees and minutes without N/S/E/W: only with a sign, else which hemisphere is a guess.
    if (!a.dms || !b.dms || (!a.signed && !b.signed)) return null;
    [lat, lon] = [a, b];
  } else {
    if (mode === 'query' && (a.fractionDigits === 0 || b.fractionDigits === 0)) return null;
    if (mode === 'text') {
      if (a.fractionDigits < 3 || b.fractionDigits < 3) return null;
      // "1.500 2.000" (thousands in es/fr): without a comma, one needs 4+ decimals.
      if (!comma && a.fractionDigits < 4 && b.fractionDigits < 4) return null;
    }
    [lat, lon] = [a, b];
  }
  if (problem) return { problem };
  const signed = (c: Component): number => c.value * (c.hemisphere?.sign ?? 1);
  return {
    latitude: { value: signed(lat), text: lat.text },
    longitude: { value: signed(lon), text: lon.text },
  };
}

/** Longitude labels, longest first: "Lat: 38.8977, Long: -77.0365", "经度：-77.0365". */
const longitudeLabels = ['longitude', 'longitud', 'long', 'lon', 'lng', '经度', '經度'];

/** Past a longitude label (and a colon or '=') at `k`, or -1 when there is none. */
function skipLongitudeLabel(s: string, k: number): number {
  for (const label of longitudeLabels)
    if (startsWithCI(s, k, label) && !isAsciiLetter(s.charCodeAt(k + label.length))) {
      let j = skipSpace(s, k + label.length);
      if (s.charCodeAt(j) === 58 || s.charCodeAt(j) === 61) j = skipSpace(s, j + 1);
      return j;
    }
  return -1;
}

/** A coordinate pair starting exactly at `i`, or null. */
export function readPair(s: string, i: number, mode: PairMode): PairMatch | null {
  for (const hemispheres of [true, false]) {
    const a = readComponent(s, i, hemispheres);
    if (!a) continue;
    let k = skipSpace(s, a.end);
    let comma = false;
    if (s.charCodeAt(k) === 44 || (s.charCodeAt(k) === 59 && mode === 'text')) {
      comma = true;
      k = skipSpace(s, k + 1);
    }
    const labelled = mode === 'text' ? skipLongitudeLabel(s, k) : -1;
    // A label separates the two as surely as a comma.
    if (labelled >= 0) [k, comma] = [labelled, true];
    // Something must separate the two, unless the first ends with its hemisphere (38.1N77.2W).
    if (k === a.end && !a.suffixed) continue;
    const b = readComponent(s, k, hemispheres);
    if (!b) continue;
    if (numberContinues(s, b.end)) continue;
    if (mode === 'text') {
      // "-77.0365km", "38.1, 77.2, 12.5" (a list of numbers) are not a position.
      if (!b.suffixed && isAsciiAlnum(s.charCodeAt(b.end))) continue;
      if (!b.hemisphere && !b.dms && beforeNumberList(s, b.end)) continue;
    }
    const result = combine(a, b, comma, mode);
    if (result) return { start: i, end: b.end, result };
  }
  return null;
}

/** Characters that, right before a number, make it part of something else (a URL, a word). */
const partOfSomethingElse = new Set([...'._+-/\\=@&?#%\'"°:$€£¥']);

function mayStartPair(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  const startsNumber = isDigit(c) || ((c === 45 || c === 43) && isDigit(s.charCodeAt(i + 1)));
  if (!startsNumber && !hemisphereLetter(c) && !chinesePrefixStarts.has(s.charAt(i))) return false;
  if (i === 0) return true;
  const before = s.charCodeAt(i - 1);
  if (isAsciiAlnum(before) || partOfSomethingElse.has(s.charAt(i - 1))) {
    // "Location:38.8977,-77.0365", "位置：38.8977,-77.0365", but not the "30" of "12:30".
    if (before !== 58 || isDigit(s.charCodeAt(i - 2))) return false;
  }
  return !afterNumberList(s, i);
}

/**
 * The first coordinate pair in the text outside `skip` (the spans other formats claimed), or
 * the out-of-range pairs before it.
 */
export function scanCoordinates(s: string, skip: (i: number) => number): Candidate[] {
  const found: Candidate[] = [];
  for (let i = 0; i < s.length; i++) {
    const next = skip(i);
    if (next > i) {
      i = next - 1;
      continue;
    }
    if (!mayStartPair(s, i)) continue;
    const pair = readPair(s, i, 'text');
    if (!pair) continue;
    const result: Found =
      'problem' in pair.result
        ? { kind: 'invalid', format: 'coordinates', reason: pair.result.problem, code: null }
        : located('coordinates', pair.result.latitude, pair.result.longitude);
    found.push({ start: pair.start, end: pair.end, result });
    if (result.kind === 'location') break;
    i = pair.end - 1;
  }
  return found;
}
