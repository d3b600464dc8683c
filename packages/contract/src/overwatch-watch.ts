import { pointInPolygon, type GeoJsonPolygon } from './geofence';

/**
 * What a watch's events mean (issue 14): each phone's status, loss-of-signal awareness, impossible
 * jumps and geofence crossings. Pure and deterministic over the session's events in seq order, so
 * a reloaded screen replaying the history raises exactly the alerts it raised live (once per
 * crossing), and the integration tests run the code the Overwatch screen runs.
 */

export interface WatchSettings {
  staleAfterMs: number;
  /** How fast a phone may have moved since its last fix: grows the drawn uncertainty. */
  speedMps: number;
  /** Faster than this between two fixes is an impossible jump. */
  maxSpeedMps: number;
  geofences: { id: string; name: string; polygon: GeoJsonPolygon }[];
}

export interface WatchFix {
  seq: number;
  latitude: number;
  longitude: number;
  uncertaintyRadiusInMeters: number;
  /** Epoch ms. */
  capturedAt: number;
  /** Farther from the previous fix than any allowed speed could take the phone. */
  impossibleJump: boolean;
}

export interface WatchAlert {
  seq: number;
  callerId: string;
  kind: 'geofence-entered' | 'geofence-left' | 'impossible-jump';
  /** Epoch ms: the capture time of the fix that raised it. */
  at: number;
  geofenceId?: string;
  message: string;
}

export interface WatchedPhone {
  callerId: string;
  /** Oldest first by capture time. */
  fixes: WatchFix[];
  /** The link was opened at least once. */
  opened: boolean;
  connected: boolean;
  /** Last `is-sharing-location`: false after the caller stopped. */
  sharing: boolean | null;
  /** The page reported `permission-denied` and no fix arrived since. */
  denied: boolean;
  /** The geofences the newest fix is inside. */
  inside: string[];
}

export type PhoneStatus = 'sharing' | 'stale' | 'stopped' | 'denied' | 'waiting' | 'never-opened';

export const phoneStatusLabels: Record<PhoneStatus, string> = {
  sharing: 'Sharing',
  stale: 'Stale',
  stopped: 'Stopped sharing',
  denied: 'Denied',
  waiting: 'Opened, not sharing yet',
  'never-opened': 'Never opened',
};

/** For sorting the side list: what needs a look first. */
export const phoneStatusOrder: PhoneStatus[] = [
  'stale',
  'denied',
  'stopped',
  'sharing',
  'waiting',
  'never-opened',
];

/** The events a watch reads, as the dispatcher socket delivers them. */
export type WatchEvent =
  | {
      event: 'new-location-available';
      data: {
        seq: number;
        callerId: string;
        latitude: number;
        longitude: number;
        uncertaintyRadiusInMeters: number;
        dateTimeCaptured: string;
      };
    }
  | { event: 'caller-connected'; data: { seq: number; callerId: string; connected: boolean } }
  | { event: 'is-sharing-location'; data: { seq: number; callerId: string; sharing: boolean } }
  | { event: 'location-sharing-error'; data: { seq: number; callerId: string; code: string } };

export function newPhone(callerId: string): WatchedPhone {
  return {
    callerId,
    fixes: [],
    opened: false,
    connected: false,
    sharing: null,
    denied: false,
    inside: [],
  };
}

const EARTH_RADIUS_M = 6_371_008.8;
const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle distance in metres (haversine). */
export function distanceMetres(
  a: { latitude: number; longitude: number },
  b: { latitude: number; longitude: number },
): number {
  const dLat = radians(b.latitude - a.latitude);
  const dLon = radians(b.longitude - a.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * A jump is impossible when, even granting both fixes their uncertainty, the phone would have
 * had to move faster than `maxSpeedMps`. At least a second is allowed between two fixes, so
 * two fixes stamped the same second are judged over one second, not zero.
 */
export function isImpossibleJump(
  previous: Pick<WatchFix, 'latitude' | 'longitude' | 'uncertaintyRadiusInMeters' | 'capturedAt'>,
  next: Pick<WatchFix, 'latitude' | 'longitude' | 'uncertaintyRadiusInMeters' | 'capturedAt'>,
  maxSpeedMps: number,
): boolean {
  const seconds = Math.max(1, Math.abs(next.capturedAt - previous.capturedAt) / 1000);
  const gap =
    distanceMetres(previous, next) -
    previous.uncertaintyRadiusInMeters -
    next.uncertaintyRadiusInMeters;
  return gap > maxSpeedMps * seconds;
}

/**
 * Applies one event to a phone; answers the phone and any alerts it raised. A fix older than the
 * phone's newest (a late one) joins the trail in its place but judges neither jumps nor
 * crossings: those are about where the phone went next.
 */
export function applyWatchEvent(
  phone: WatchedPhone,
  frame: WatchEvent,
  settings: WatchSettings,
): { phone: WatchedPhone; alerts: WatchAlert[] } {
  switch (frame.event) {
    case 'caller-connected':
      return {
        phone: {
          ...phone,
          connected: frame.data.connected,
          opened: phone.opened || frame.data.connected,
        },
        alerts: [],
      };
    case 'is-sharing-location':
      return {
        phone: { ...phone, sharing: frame.data.sharing, opened: true },
        alerts: [],
      };
    case 'location-sharing-error':
      return {
        phone: { ...phone, denied: phone.denied || frame.data.code === 'permission-denied' },
        alerts: [],
      };
    case 'new-location-available':
      return applyFix(phone, frame.data, settings);
    default:
      // Any other session event (a text's status, the device report) changes none of this.
      return { phone, alerts: [] };
  }
}

function applyFix(
  phone: WatchedPhone,
  data: Extract<WatchEvent, { event: 'new-location-available' }>['data'],
  settings: WatchSettings,
): { phone: WatchedPhone; alerts: WatchAlert[] } {
  const capturedAt = Date.parse(data.dateTimeCaptured);
  const latest = phone.fixes.at(-1);
  const fix: WatchFix = {
    seq: data.seq,
    latitude: data.latitude,
    longitude: data.longitude,
    uncertaintyRadiusInMeters: data.uncertaintyRadiusInMeters,
    capturedAt,
    impossibleJump: false,
  };
  // The fixes array is appended to in place: copying it per fix would cost a long watch's whole
  // history every second per phone. A phone's array belongs to the phone it was made for.
  if (latest && capturedAt < latest.capturedAt) {
    const at = phone.fixes.findIndex((existing) => existing.capturedAt > capturedAt);
    phone.fixes.splice(at, 0, fix);
    return { phone: { ...phone, denied: false }, alerts: [] };
  }
  const alerts: WatchAlert[] = [];
  if (latest && isImpossibleJump(latest, fix, settings.maxSpeedMps)) {
    fix.impossibleJump = true;
    const metres = Math.round(distanceMetres(latest, fix));
    const seconds = Math.max(1, Math.round((capturedAt - latest.capturedAt) / 1000));
    alerts.push({
      seq: data.seq,
      callerId: phone.callerId,
      kind: 'impossible-jump',
      at: capturedAt,
      message: `Impossible jump: ${formatDistance(metres)} in ${seconds} s`,
    });
  }
  const inside = settings.geofences
    .filter((fence) => pointInPolygon([fix.longitude, fix.latitude], fence.polygon))
    .map((fence) => fence.id);
  // The first fix places the phone; only a change after it is a crossing.
  if (latest) {
    for (const fence of settings.geofences) {
      const was = phone.inside.includes(fence.id);
      const is = inside.includes(fence.id);
      if (was === is) continue;
      alerts.push({
        seq: data.seq,
        callerId: phone.callerId,
        kind: is ? 'geofence-entered' : 'geofence-left',
        at: capturedAt,
        geofenceId: fence.id,
        message: `${is ? 'Entered' : 'Left'} ${fence.name}`,
      });
    }
  }
  phone.fixes.push(fix);
  return {
    phone: {
      ...phone,
      denied: false,
      inside,
    },
    alerts,
  };
}

function formatDistance(metres: number): string {
  return metres >= 1000 ? `${(metres / 1000).toFixed(1)} km` : `${metres} m`;
}

/** The phone's newest fix captured at or before `at` (the timeline), or its newest. */
export function fixAt(phone: WatchedPhone, at?: number): WatchFix | undefined {
  if (at === undefined) return phone.fixes.at(-1);
  for (let i = phone.fixes.length - 1; i >= 0; i--) {
    if (phone.fixes[i]!.capturedAt <= at) return phone.fixes[i];
  }
  return undefined;
}

/** What the list shows for a phone at `now`. */
export function phoneStatus(
  phone: WatchedPhone,
  now: number,
  settings: WatchSettings,
): PhoneStatus {
  const latest = phone.fixes.at(-1);
  if (phone.denied && !latest) return 'denied';
  if (phone.sharing === false) return 'stopped';
  if (latest) return now - latest.capturedAt > settings.staleAfterMs ? 'stale' : 'sharing';
  if (phone.denied) return 'denied';
  return phone.opened ? 'waiting' : 'never-opened';
}

/**
 * The radius to draw around a fix at `now`: its own uncertainty, plus how far the phone may have
 * gone at `speedMps` since, once it is stale. So an old point is never drawn as if current.
 * Capped at 100 km: beyond that the circle says nothing a dispatcher can use.
 */
export function grownRadius(fix: WatchFix, now: number, settings: WatchSettings): number {
  const age = now - fix.capturedAt;
  if (age <= settings.staleAfterMs) return fix.uncertaintyRadiusInMeters;
  return Math.min(fix.uncertaintyRadiusInMeters + (settings.speedMps * age) / 1000, 100_000);
}
