import { daysInRange, metricsLimits, MetricsDate } from '@locus/contract';

/** An inclusive range of calendar days, `YYYY-MM-DD`, as the metric calls take it. */
export interface DateRange {
  from: string;
  to: string;
}

export type RangePreset = 'last-7-days' | 'last-30-days' | 'this-month' | 'last-12-months';

export const rangePresets: readonly { value: RangePreset; label: string }[] = [
  { value: 'last-7-days', label: 'Last 7 days' },
  { value: 'last-30-days', label: 'Last 30 days' },
  { value: 'this-month', label: 'This month' },
  { value: 'last-12-months', label: 'Last 12 months' },
];

export const defaultPreset: RangePreset = 'last-30-days';

export function isPreset(value: string | null): value is RangePreset {
  return rangePresets.some((preset) => preset.value === value);
}

/** Today in the browser's zone: the director's desk is in the team's zone (or close to it). */
export function localToday(now: Date = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

// Calendar arithmetic on the date itself, in UTC, so that no daylight-saving change moves a day.
const parse = (day: string) => new Date(`${day}T00:00:00Z`);
const format = (date: Date) => date.toISOString().slice(0, 10);

export function addDays(day: string, days: number): string {
  const date = parse(day);
  date.setUTCDate(date.getUTCDate() + days);
  return format(date);
}

/**
 * The days a preset covers, ending today. "Last 12 months" starts on the first day of the month
 * eleven months back, so its monthly chart has twelve bars, the last one this month so far.
 */
export function presetRange(preset: RangePreset, today: string): DateRange {
  switch (preset) {
    case 'last-7-days':
      return { from: addDays(today, -6), to: today };
    case 'last-30-days':
      return { from: addDays(today, -29), to: today };
    case 'this-month':
      return { from: `${today.slice(0, 8)}01`, to: today };
    case 'last-12-months': {
      const start = parse(`${today.slice(0, 8)}01`);
      start.setUTCMonth(start.getUTCMonth() - 11);
      return { from: format(start), to: today };
    }
  }
}

/** What is wrong with a range typed by hand, named by its field, as the API would say it. */
export function rangeProblem(range: DateRange): { field: 'from' | 'to'; message: string } | null {
  for (const field of ['from', 'to'] as const) {
    const parsed = MetricsDate.safeParse(range[field]);
    if (!parsed.success)
      return { field, message: parsed.error.issues[0]?.message ?? 'Must be a date' };
  }
  if (range.to < range.from) return { field: 'to', message: 'Must not be before the start' };
  if (daysInRange(range.from, range.to) > metricsLimits.maxRangeDays)
    return { field: 'to', message: 'The range must not be longer than 2 years' };
  return null;
}

/** The range the address asks for: a preset (relative to today), dates, or the default. */
export function rangeFromSearch(
  search: URLSearchParams,
  today: string,
): { preset: RangePreset | 'custom'; range: DateRange } {
  const preset = search.get('range');
  if (isPreset(preset)) return { preset, range: presetRange(preset, today) };
  const from = search.get('from');
  const to = search.get('to');
  if (from !== null && to !== null) return { preset: 'custom', range: { from, to } };
  return { preset: defaultPreset, range: presetRange(defaultPreset, today) };
}

/** The address's query for a preset or a custom range, the inverse of `rangeFromSearch`. */
export function searchOfRange(preset: RangePreset | 'custom', range: DateRange): string {
  const params =
    preset === 'custom'
      ? new URLSearchParams({ from: range.from, to: range.to })
      : new URLSearchParams({ range: preset });
  return `?${params.toString()}`;
}
