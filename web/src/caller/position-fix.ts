import type { CallerFix } from '@locus/contract';

/** What `navigator.geolocation.watchPosition` is asked for (a fresh, precise fix, 30 s at most). */
export const watchOptions: PositionOptions = {
  enableHighAccuracy: true,
  maximumAge: 0,
  timeout: 30_000,
};

/**
 * A browser position as the contract's `fix`. Optional readings the phone does not have (null,
 * or NaN for a heading while standing still) are left out, to keep the frame small.
 */
export function toCallerFix(position: GeolocationPosition): CallerFix {
  const { coords } = position;
  const fix: CallerFix = {
    latitude: coords.latitude,
    longitude: coords.longitude,
    accuracy: coords.accuracy,
    capturedAt: Math.round(position.timestamp),
  };
  if (isFiniteNumber(coords.altitude)) fix.altitude = coords.altitude;
  if (isFiniteNumber(coords.altitudeAccuracy)) fix.altitudeAccuracy = coords.altitudeAccuracy;
  if (isFiniteNumber(coords.heading)) fix.heading = coords.heading;
  if (isFiniteNumber(coords.speed)) fix.speed = coords.speed;
  return fix;
}

function isFiniteNumber(value: number | null): value is number {
  return value !== null && Number.isFinite(value);
}
