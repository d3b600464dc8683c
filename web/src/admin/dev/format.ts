/**
 * How the operations console writes its figures: the way an operator says them at 3 a.m.
 * ("12 ms", "1.2 GB of 4 GB", "3 waiting, oldest 45 s"), never raw numbers of bytes or ms.
 */

const oneDecimal = (value: number) =>
  value >= 10 ? String(Math.round(value)) : String(Math.round(value * 10) / 10);

/** 0.4 → "0.4 ms", 12.3 → "12 ms", 1_250 → "1.3 s", 95_000 → "1 min 35 s". */
export function formatMs(ms: number): string {
  if (ms < 1_000) return `${ms < 10 ? oneDecimal(ms) : Math.round(ms)} ms`;
  if (ms < 60_000) return `${oneDecimal(ms / 1_000)} s`;
  return formatDuration(ms);
}

/** A length of time in its two largest units: "45 s", "3 min 5 s", "2 h 10 min", "3 d 4 h". */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1_000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 ? `${minutes} min ${seconds % 60} s` : `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

const byteUnits = ['bytes', 'KB', 'MB', 'GB', 'TB'] as const;

/** 512 → "512 bytes", 1_300_000 → "1.2 MB", 1_288_490_189 → "1.2 GB" (powers of 1,024). */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1_024 && unit < byteUnits.length - 1) {
    value /= 1_024;
    unit += 1;
  }
  return unit === 0 ? `${Math.round(value)} bytes` : `${oneDecimal(value)} ${byteUnits[unit]}`;
}

/** "1.2 GB of 4 GB", or "1.2 GB (no limit)" when there is none. */
export function formatBytesOf(used: number, limit: number | null): string {
  return limit === null || limit <= 0
    ? `${formatBytes(used)} (no limit)`
    : `${formatBytes(used)} of ${formatBytes(limit)}`;
}

/** 0.953 → "95%", 0.0004 → "0.04%": small failure ratios must not round to zero. */
export function formatRatio(ratio: number): string {
  const percent = ratio * 100;
  if (percent === 0 || percent >= 10) return `${Math.round(percent)}%`;
  if (percent >= 1) return `${oneDecimal(percent)}%`;
  return `${Math.round(percent * 100) / 100}%`;
}

/** "3 waiting, oldest 45 s" / "nothing waiting". */
export function formatWaiting(waiting: number, oldestMs: number | null): string {
  if (waiting === 0) return 'nothing waiting';
  return oldestMs === null
    ? `${waiting} waiting`
    : `${waiting} waiting, oldest ${formatDuration(oldestMs)}`;
}

/** "12.5 /s": a rate that may be fractional. */
export function formatRate(perSecond: number): string {
  return `${oneDecimal(perSecond)} /s`;
}

/** Milliseconds between two ISO instants, never negative (clocks of two hosts may disagree). */
export function msBetween(from: string, to: string): number {
  return Math.max(0, Date.parse(to) - Date.parse(from));
}

/** A count with its noun, singular or plural: "1 socket", "3 sockets". */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? singular : plural}`;
}
