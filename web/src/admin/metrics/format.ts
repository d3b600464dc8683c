import type { LocateSource, SmsLanguage } from '@locus/contract';

/** How the metrics screens name things and write their figures. */

export const languageLabels: Record<SmsLanguage, string> = {
  en: 'English',
  es: 'Spanish',
  fr: 'French',
  zh: 'Mandarin',
};

export const sourceLabels: Record<LocateSource, string> = {
  lookup: 'Automatic lookup',
  link: 'Text link',
};

/** Sunday first, as the API numbers weekdays (0 = Sunday). */
export const weekdayLabels = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

export const hourLabels = Array.from({ length: 24 }, (_, hour) => String(hour).padStart(2, '0'));

export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

/** Seconds to one decimal: what the time charts plot and their tables and CSVs carry. */
export function toSeconds(ms: number | null): number | null {
  return ms === null ? null : Math.round(ms / 100) / 10;
}

/** `42 s`, `4 min 10 s`, `2 h 5 min`; a dash when nothing was measured. */
export function formatMs(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 10_000) return `${(Math.round(ms / 100) / 10).toLocaleString('en-US')} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60)
    return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}

/** A bucket edge as a number and a unit: `[30, 's']`, `[5, 'min']`, `[2, 'h']`. */
function edge(ms: number): [number, string] {
  if (ms < 60_000) return [ms / 1000, 's'];
  if (ms < 3_600_000) return [ms / 60_000, 'min'];
  return [ms / 3_600_000, 'h'];
}

/** A duration histogram bucket: `0–1 min`, `30 min–1 h`, `2 h and more`. */
export function durationBucketLabel(fromMs: number, toMs: number | null): string {
  const [from, fromUnit] = edge(fromMs);
  if (toMs === null) return `${from} ${fromUnit} and more`;
  const [to, toUnit] = edge(toMs);
  // One unit for both edges when they share it, or when the bucket starts at zero.
  return fromUnit === toUnit || fromMs === 0
    ? `${from}–${to} ${toUnit}`
    : `${from} ${fromUnit}–${to} ${toUnit}`;
}

/** An uncertainty-radius bucket: `10–25 m`, `1,000 m and more`. */
export function radiusBucketLabel(fromM: number, toM: number | null): string {
  return toM === null
    ? `${formatCount(fromM)} m and more`
    : `${formatCount(fromM)}–${formatCount(toM)} m`;
}

/** `Nov 3` for a day's tick on an axis (the tables keep the ISO date). */
export function shortDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(Date.UTC(year!, month! - 1, date!)).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

/** `Nov 2026` for a month's tick. */
export function shortMonth(month: string): string {
  const [year, number] = month.split('-').map(Number);
  return new Date(Date.UTC(year!, number! - 1, 1)).toLocaleDateString('en-US', {
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** `Mon 14:00` */
export function weekdayHour(weekday: number, hour: number): string {
  return `${weekdayLabels[weekday]} ${hourLabels[hour]}:00`;
}

/** `48%` of a whole, or a dash when there is no whole. */
export function percentOf(part: number, whole: number): string {
  return whole === 0 ? '—' : `${Math.round((part / whole) * 100)}%`;
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

/** `2026-11-03 14:05`: an instant as the clock read in `timeZone` (the team's zone). */
export function dateTimeIn(iso: string, timeZone: string): string {
  let format = zoneFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    zoneFormats.set(timeZone, format);
  }
  const parts = Object.fromEntries(
    format.formatToParts(new Date(iso)).map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}
