/**
 * The caller page's own text, `LOC 38.89770,-77.03650 ±12m 14:02:10Z #K7Q2` (see
 * `formatLocationText` in @locus/contract), read leniently: phones and carriers turn ± into
 * "+-", "+/-", "~" or "?" (GSM has no ±) or drop it, add or remove spaces, change case; the
 * accuracy, the time and the code may each be missing.
 */
import { textLocationFormat } from '@locus/contract';
import {
  isAsciiAlnum,
  isAsciiLetter,
  isDigit,
  located,
  numberContinues,
  readNumber,
  skipSpace,
  startsWithCI,
  type NumberToken,
} from '../scan';
import type { Candidate, Found } from '../types';

const day = 86_400_000;

function readAccuracy(s: string, i: number): { value: NumberToken; end: number } | null {
  let k = skipSpace(s, i);
  if (s.startsWith('+/-', k)) k += 3;
  else if (s.startsWith('+-', k)) k += 2;
  else if ('±~?+'.includes(s.charAt(k)) && s.charAt(k) !== '') k += 1;
  k = skipSpace(s, k);
  const value = readNumber(s, k, false);
  if (!value) return null;
  const m = skipSpace(s, value.end);
  if ((s.charCodeAt(m) | 0x20) !== 109 || isAsciiLetter(s.charCodeAt(m + 1))) return null;
  return { value, end: m + 1 };
}

function readTwoDigits(s: string, i: number): number | null {
  const a = s.charCodeAt(i);
  const b = s.charCodeAt(i + 1);
  return isDigit(a) && isDigit(b) ? (a - 48) * 10 + (b - 48) : null;
}

interface TimeOfDay {
  text: string;
  /** Milliseconds after midnight UTC, or null when it is not a time of day (25:00:00). */
  ms: number | null;
  end: number;
}

/** `14:02:10Z`, also `4:02:10`, `14:02:10 z`, `14:02Z`. */
function readTime(s: string, i: number): TimeOfDay | null {
  const start = skipSpace(s, i);
  let k = start;
  let hours: number | null = readTwoDigits(s, k);
  if (hours !== null) k += 2;
  else if (isDigit(s.charCodeAt(k))) hours = s.charCodeAt(k++) - 48;
  if (hours === null || s.charCodeAt(k) !== 58) return null;
  const minutes = readTwoDigits(s, k + 1);
  if (minutes === null) return null;
  k += 3;
  let seconds = 0;
  if (s.charCodeAt(k) === 58) {
    const read = readTwoDigits(s, k + 1);
    if (read === null) return null;
    seconds = read;
    k += 3;
  }
  if (isDigit(s.charCodeAt(k)) || s.charCodeAt(k) === 58) return null;
  const text = s.slice(start, k);
  const z = skipSpace(s, k);
  if ((s.charCodeAt(z) | 0x20) === 122 && !isAsciiAlnum(s.charCodeAt(z + 1))) k = z + 1;
  else if (isAsciiAlnum(s.charCodeAt(k))) return null;
  const ms =
    hours < 24 && minutes < 60 && seconds < 60
      ? ((hours * 60 + minutes) * 60 + seconds) * 1000
      : null;
  return { text, ms, end: k };
}

// Any letters and digits, not only the code alphabet's: a mistyped code (an O for a 0) is still
// the caller's, for the dispatcher to compare.
const codePattern = /^[0-9A-Z]+$/;

/** `#K7Q2`, any case, also `# K7Q2`. */
function readCode(s: string, i: number): { code: string; end: number } | null {
  const hash = skipSpace(s, i);
  if (s.charCodeAt(hash) !== 35) return null;
  const start = skipSpace(s, hash + 1);
  const end = start + textLocationFormat.codeLength;
  if (end > s.length || isAsciiAlnum(s.charCodeAt(end))) return null;
  const code = s.slice(start, end).toUpperCase();
  return codePattern.test(code) ? { code, end } : null;
}

/**
 * The instant with this UTC time of day nearest to now (within 12 hours either way). A phone
 * clock that runs fast gives a time a little ahead, which must not become yesterday's: the caller
 * decides what to do with a time in the future (sms/text-location.ts uses the arrival time).
 */
function instantOfTimeOfDay(timeOfDayMs: number, now: number): number | null {
  if (!Number.isFinite(now)) return null;
  const instant = Math.floor(now / day) * day + timeOfDayMs;
  if (instant - now > day / 2) return instant - day;
  if (now - instant > day / 2) return instant + day;
  return instant;
}

/** A LOC text whose keyword is at `i`, or null when what follows is not one. */
function readLoc(s: string, i: number, now: number): Candidate | null {
  let j = i + 3;
  if (s.charCodeAt(j) === 58) j++;
  j = skipSpace(s, j);
  const latitude = readNumber(s, j);
  if (!latitude || latitude.fractionDigits === 0) return null;
  let k = skipSpace(s, latitude.end);
  if (s.charCodeAt(k) === 44) k = skipSpace(s, k + 1);
  else if (k === latitude.end) return null;
  const longitude = readNumber(s, k);
  if (!longitude || longitude.fractionDigits === 0 || numberContinues(s, longitude.end))
    return null;
  j = longitude.end;
  const accuracy = readAccuracy(s, j);
  if (accuracy) j = accuracy.end;
  const time = readTime(s, j);
  if (time) j = time.end;
  const code = readCode(s, j);
  if (code) j = code.end;

  const codeValue = code?.code ?? null;
  let result: Found = located('loc', latitude, longitude, {
    code: codeValue,
    accuracyM: accuracy ? Math.round(accuracy.value.value) : null,
  });
  if (result.kind === 'location') {
    if (accuracy && accuracy.value.value > textLocationFormat.maxAccuracyM)
      result = {
        kind: 'invalid',
        format: 'loc',
        reason: `Accuracy ${accuracy.value.text} m is out of range.`,
        code: codeValue,
      };
    else if (time && time.ms === null)
      result = {
        kind: 'invalid',
        format: 'loc',
        reason: `Time ${time.text} is not a time of day.`,
        code: codeValue,
      };
    else {
      result.capturedAt = time?.ms != null ? instantOfTimeOfDay(time.ms, now) : null;
    }
  }
  return { start: i, end: j, result };
}

/** Every LOC text up to the first readable one. */
export function scanLoc(s: string, now: number, skip: (i: number) => number): Candidate[] {
  const found: Candidate[] = [];
  for (let i = 0; i + 3 <= s.length; i++) {
    const next = skip(i);
    if (next > i) {
      i = next - 1;
      continue;
    }
    if (!startsWithCI(s, i, 'loc') || isAsciiAlnum(s.charCodeAt(i - 1))) continue;
    const candidate = readLoc(s, i, now);
    if (!candidate) continue;
    found.push(candidate);
    if (candidate.result.kind === 'location') break;
    i = candidate.end - 1;
  }
  return found;
}
