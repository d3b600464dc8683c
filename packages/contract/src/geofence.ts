import { z } from 'zod';

/**
 * Geofences of an Overwatch group (issue 14): GeoJSON polygons (RFC 7946), drawn on the map or
 * pasted. Pure geometry, shared by the API (validation), the form (the same messages before
 * saving) and the Overwatch screen (entering and leaving).
 */
export const geofenceLimits = {
  /** Vertices of one polygon, all rings together (the closing repeat not counted). */
  maxVertices: 1000,
  perGroup: 20,
  nameMaxLength: 80,
} as const;

/** [longitude, latitude], GeoJSON's order. */
export type Position = [number, number];

const LongitudeLatitude = z
  .array(z.number().finite())
  .min(2, 'A position is [longitude, latitude].')
  .max(3, 'A position is [longitude, latitude] or [longitude, latitude, altitude].')
  .refine(
    ([longitude, latitude]) =>
      longitude! >= -180 && longitude! <= 180 && latitude! >= -90 && latitude! <= 90,
    'A position must be [longitude, latitude] with longitude -180..180 and latitude -90..90.',
  )
  .transform(([longitude, latitude]): Position => [longitude!, latitude!]);

/** Why a ring (first and last position equal) cannot be a geofence, or null. */
export function ringProblem(ring: Position[]): string | null {
  if (ring.length < 4)
    return 'A polygon ring needs at least 4 positions (3 corners and the first again).';
  const first = ring[0]!;
  const last = ring[ring.length - 1]!;
  if (first[0] !== last[0] || first[1] !== last[1])
    return 'A polygon ring must end with its first position (GeoJSON closes rings).';
  const crossing = selfIntersection(ring);
  if (crossing !== null)
    return `The polygon crosses itself (edge ${crossing[0] + 1} crosses edge ${crossing[1] + 1}).`;
  // A symmetric bow tie has no area either, so this comes after the crossing it would hide.
  if (Math.abs(signedArea(ring)) < 1e-12) return 'A polygon ring must enclose an area.';
  return null;
}

function signedArea(ring: Position[]): number {
  let area = 0;
  for (let i = 0; i + 1 < ring.length; i++) {
    const [x1, y1] = ring[i]!;
    const [x2, y2] = ring[i + 1]!;
    area += x1 * y2 - x2 * y1;
  }
  return area / 2;
}

function orientation(a: Position, b: Position, c: Position): number {
  const value = (b[1] - a[1]) * (c[0] - b[0]) - (b[0] - a[0]) * (c[1] - b[1]);
  return value === 0 ? 0 : value > 0 ? 1 : 2;
}

function onSegment(a: Position, b: Position, c: Position): boolean {
  return (
    Math.min(a[0], c[0]) <= b[0] &&
    b[0] <= Math.max(a[0], c[0]) &&
    Math.min(a[1], c[1]) <= b[1] &&
    b[1] <= Math.max(a[1], c[1])
  );
}

function segmentsIntersect(p1: Position, q1: Position, p2: Position, q2: Position): boolean {
  const o1 = orientation(p1, q1, p2);
  const o2 = orientation(p1, q1, q2);
  const o3 = orientation(p2, q2, p1);
  const o4 = orientation(p2, q2, q1);
  if (o1 !== o2 && o3 !== o4) return true;
  return (
    (o1 === 0 && onSegment(p1, p2, q1)) ||
    (o2 === 0 && onSegment(p1, q2, q1)) ||
    (o3 === 0 && onSegment(p2, p1, q2)) ||
    (o4 === 0 && onSegment(p2, q1, q2))
  );
}

/**
 * The first two edges (by index) that cross, or null. Adjacent edges share a corner and are not
 * a crossing. O(n²), and n is at most `maxVertices`: about half a million pairs, a few ms.
 */
export function selfIntersection(ring: Position[]): [number, number] | null {
  const edges = ring.length - 1;
  for (let i = 0; i < edges; i++) {
    for (let j = i + 1; j < edges; j++) {
      const adjacent = j === i + 1 || (i === 0 && j === edges - 1);
      if (adjacent) continue;
      if (segmentsIntersect(ring[i]!, ring[i + 1]!, ring[j]!, ring[j + 1]!)) return [i, j];
    }
  }
  return null;
}

/** Ray casting on one ring; a point on the boundary may fall either way. */
function inRing(point: Position, ring: Position[]): boolean {
  let inside = false;
  const [x, y] = point;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Inside the outer ring and outside every hole. */
export function pointInPolygon(point: Position, polygon: GeoJsonPolygon): boolean {
  const [outer, ...holes] = polygon.coordinates;
  if (!outer || !inRing(point, outer)) return false;
  return !holes.some((hole) => inRing(point, hole));
}

/** A GeoJSON Polygon: an outer ring and optional holes, each closed, none crossing itself. */
export const GeoJsonPolygon = z
  .object({
    type: z.literal('Polygon', {
      errorMap: () => ({ message: 'A geofence must be a GeoJSON Polygon.' }),
    }),
    coordinates: z.array(z.array(LongitudeLatitude)).min(1, 'A polygon needs an outer ring.'),
  })
  .superRefine((polygon, context) => {
    const vertices = polygon.coordinates.reduce(
      (sum, ring) => sum + Math.max(ring.length - 1, 0),
      0,
    );
    if (vertices > geofenceLimits.maxVertices) {
      context.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['coordinates'],
        message: `A geofence may have at most ${geofenceLimits.maxVertices} vertices; this one has ${vertices}.`,
      });
      return;
    }
    polygon.coordinates.forEach((ring, index) => {
      const problem = ringProblem(ring);
      if (problem)
        context.addIssue({
          code: z.ZodIssueCode.custom,
          path: ['coordinates', index],
          message: problem,
        });
    });
  });
export type GeoJsonPolygon = z.infer<typeof GeoJsonPolygon>;

/** One geofence: a name for the alerts, and its polygon. */
export const Geofence = z.object({
  id: z.string().uuid().optional(),
  name: z.string().trim().min(1).max(geofenceLimits.nameMaxLength),
  polygon: GeoJsonPolygon,
});
export type Geofence = z.infer<typeof Geofence>;

/**
 * Reads pasted text as a polygon: a GeoJSON Polygon, or a Feature or FeatureCollection holding
 * exactly one. Answers the polygon or the first problem, worded for the person who pasted it.
 */
export function parsePastedGeofence(
  text: string,
): { ok: true; polygon: GeoJsonPolygon } | { ok: false; problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'This is not GeoJSON: it is not valid JSON.' };
  }
  const candidate = unwrapFeature(value);
  if (candidate === null)
    return {
      ok: false,
      problem: 'This is not a GeoJSON Polygon (or a Feature holding exactly one Polygon).',
    };
  const parsed = GeoJsonPolygon.safeParse(candidate);
  if (!parsed.success) return { ok: false, problem: parsed.error.issues[0]!.message };
  return { ok: true, polygon: parsed.data };
}

function unwrapFeature(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return null;
  const object = value as { type?: unknown; geometry?: unknown; features?: unknown };
  if (object.type === 'Polygon') return value;
  if (object.type === 'Feature') return unwrapFeature(object.geometry);
  if (
    object.type === 'FeatureCollection' &&
    Array.isArray(object.features) &&
    object.features.length === 1
  )
    return unwrapFeature(object.features[0]);
  return null;
}
