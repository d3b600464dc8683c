import type { CallerDevice, LocationSource, TrackedLocation } from '@locus/machines';

/**
 * A caller whose newest fix is older than this is drawn as stale: the phone may have lost its
 * signal, locked its screen or stopped sharing, and the dispatcher must not trust the marker
 * as "where the caller is now".
 */
export const STALE_FIX_AFTER_MS = 30_000;

const pad = (value: number) => String(value).padStart(2, '0');

/** HH:MM:SS in the dispatcher's own time zone, 24-hour: the log's time stamps. */
export function formatClock(epochMs: number): string {
  const date = new Date(epochMs);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** Six decimals is about 0.1 m: finer than any phone fix, coarse enough to read out. */
export const formatCoordinate = (degrees: number): string => degrees.toFixed(6);

export const formatAccuracy = (meters: number): string => `±${Math.round(meters)} m`;

export const formatAltitude = (meters: number | null): string =>
  meters === null ? '—' : `${meters.toFixed(1)} m`;

/** ISO 8601 in UTC, to the second: what a dispatcher reads out or pastes into a CAD system. */
export function formatUtc(iso: string): string {
  return new Date(iso).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The capture time in the dispatcher's time zone, with the zone's name. */
export function formatLocal(iso: string): string {
  return new Date(iso).toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'short',
  });
}

const sourceLabels: Record<LocationSource, string> = {
  TEXT_MESSAGE: 'Text message',
  RAPID_SOS: 'RapidSOS',
};
export const sourceLabel = (source: LocationSource): string => sourceLabels[source];

/** How long ago the fix was captured. A phone clock slightly ahead never makes it negative. */
export function fixAgeMs(location: Pick<TrackedLocation, 'dateTimeCaptured'>, now: number) {
  return Math.max(0, now - Date.parse(location.dateTimeCaptured));
}

export function isStale(location: Pick<TrackedLocation, 'dateTimeCaptured'>, now: number) {
  return fixAgeMs(location, now) >= STALE_FIX_AFTER_MS;
}

/** "45s", "1m 20s", "2h 5m", "3d 4h": the two largest units are precise enough at a glance. */
export function formatDuration(ms: number): string {
  const seconds = Math.floor(Math.max(0, ms) / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${seconds % 60}s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ${minutes % 60}m`;
  return `${Math.floor(hours / 24)}d ${hours % 24}h`;
}

/** "12s ago", or "just now" for the first second. */
export const formatAge = (ms: number): string =>
  ms < 1000 ? 'just now' : `${formatDuration(ms)} ago`;

/** One line to paste elsewhere: `38.897700, -77.036500 ±12 m (TEXT_MESSAGE, 2026-11-23T10:00:00Z)`. */
export function formatFixForCopy(location: TrackedLocation): string {
  return (
    `${formatCoordinate(location.latitude)}, ${formatCoordinate(location.longitude)} ` +
    `${formatAccuracy(location.uncertaintyRadiusInMeters)} ` +
    `(${location.capturedFromSource}${location.deliveredBy === 'sms' ? ' by SMS reply' : ''}, ` +
    `${formatUtc(location.dateTimeCaptured)})`
  );
}

/** Plain digits, no grouping: easy to read back, by a person or a test. */
export const formatFixCount = (count: number): string => (count === 1 ? '1 fix' : `${count} fixes`);

/** "Delayed 1m 20s": a fix that waited on the caller's phone (no network) before it reached us. */
export const formatDelay = (delayMs: number): string => `Delayed ${formatDuration(delayMs)}`;

/** One thing the caller's phone says about itself, and whether it may explain missing fixes. */
export interface DeviceFact {
  text: string;
  warning: boolean;
}

/** A battery this low may die, or the phone may throttle location to save it. */
const LOW_BATTERY = 0.15;

/**
 * What the dispatcher reads about the caller's phone, most telling first: "Page in background
 * since 14:02:10", "Battery 7 %", "Location permission denied", "Network 3g (cellular)".
 */
export function deviceFacts(device: CallerDevice): DeviceFact[] {
  const facts: DeviceFact[] = [];
  if (device.visibility === 'hidden') {
    facts.push({
      text: device.hiddenSince
        ? `Page in background since ${formatClock(Date.parse(device.hiddenSince))}`
        : 'Page in background',
      warning: true,
    });
  } else {
    facts.push({ text: 'Page open on screen', warning: false });
  }
  if (device.battery) {
    const percent = Math.round(device.battery.level * 100);
    facts.push({
      text: `Battery ${percent} %${device.battery.charging ? ' (charging)' : ''}`,
      warning: device.battery.level <= LOW_BATTERY && !device.battery.charging,
    });
  }
  if (device.permission && device.permission !== 'granted') {
    facts.push({ text: `Location permission ${device.permission}`, warning: true });
  }
  if (device.network) {
    const { effectiveType, type } = device.network;
    const kind = [effectiveType, type && type !== 'unknown' ? `(${type})` : null]
      .filter(Boolean)
      .join(' ');
    if (kind) {
      facts.push({
        text: `Network ${kind}`,
        warning: effectiveType === 'slow-2g' || effectiveType === '2g' || type === 'none',
      });
    }
  }
  return facts;
}
