/**
 * Local calendar days of an IANA time zone, as generated history needs them: patterns (the
 * busy afternoon, the quiet Sunday) belong to the team's wall clock, the rows to UTC instants.
 */
export interface LocalDay {
  /** `YYYY-MM-DD` in the zone. */
  date: string;
  /** 0 = Sunday. */
  weekday: number;
  /** The instant this day's local midnight is. */
  start: number;
  /** The instant at `msOfDay` past local midnight, by the wall clock (DST days included). */
  at(msOfDay: number): number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** The zone's wall clock at `instant`, read as if it were UTC. */
function wallClock(timeZone: string, instant: number): number {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return Date.UTC(
    parts.year!,
    parts.month! - 1,
    parts.day!,
    parts.hour!,
    parts.minute!,
    parts.second!,
  );
}

/** Milliseconds the zone is ahead of UTC at `instant`. */
function offsetAt(timeZone: string, instant: number): number {
  const whole = instant - (((instant % 1000) + 1000) % 1000);
  return wallClock(timeZone, whole) - whole;
}

/** The instant a wall-clock time (given as if it were UTC) is in the zone. */
function instantOf(timeZone: string, wall: number): number {
  const first = wall - offsetAt(timeZone, wall);
  return wall - offsetAt(timeZone, first);
}

/** Today's date in the zone, `YYYY-MM-DD`. */
export function localDate(timeZone: string, instant: number): string {
  return new Date(wallClock(timeZone, instant)).toISOString().slice(0, 10);
}

/** `date` plus `days` (calendar arithmetic, no zone involved). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

export function localDay(timeZone: string, date: string): LocalDay {
  const wallMidnight = Date.parse(`${date}T00:00:00Z`);
  const start = instantOf(timeZone, wallMidnight);
  const end = instantOf(timeZone, wallMidnight + 86_400_000);
  // Most days are 24 hours: then every time of day is a fixed step from midnight, and the
  // slow Intl lookups are done once per day, not once per row.
  const regular = end - start === 86_400_000;
  return {
    date,
    weekday: new Date(wallMidnight).getUTCDay(),
    start,
    at: regular
      ? (msOfDay) => start + msOfDay
      : (msOfDay) => instantOf(timeZone, wallMidnight + msOfDay),
  };
}
