import type { CallerFix } from '@locus/contract';

/** `queuedMs`'s upper bound in the schema: a week. */
const MAX_QUEUED_MS = 7 * 24 * 3_600_000;

/**
 * `CallerFix.safeParse`, written out by hand, for the hot path.
 *
 * Why it exists: every fix every caller's page sends is validated, thousands of them a second
 * under load, and zod spends microseconds on each (a context, a result object per field, an
 * array of pairs, closures). This does the same checks in a few straight-line comparisons and
 * allocates nothing but the fix it returns.
 *
 * The zod schema in `@locus/contract` (location.ts) stays the source of truth: this function must
 * accept exactly what `CallerFix.safeParse` accepts and return what it returns (a new plain
 * object with the schema's keys, in the schema's order, an optional key present only when the
 * input has it). fast-fix.property.test.ts holds it to that. Change the schema and this together;
 * the test fails until they agree again. When this rejects a fix, `checkFix` asks zod for the
 * issues (the error answers keep zod's words), and should zod accept it, zod's answer wins.
 *
 * zod 3's rules, matched here:
 * - Not an object: a primitive, null, an array, a Map, Set or Date, and a "promise" (an object
 *   whose `then` and `catch` are functions, own or inherited). Any other object counts,
 *   including a class instance, an object without a prototype, and even a `Number`, `RegExp` or
 *   `Error` object that carries a fix's fields.
 * - `.strict()`: every enumerable string key, own or inherited (`for…in`), must be a known one.
 *   A JSON `"__proto__"` key is an own property, so it is refused like any unknown key.
 * - Values are read as `data[key]`, so inherited properties count.
 * - `.optional()`: `undefined` passes; the output has the key (with `undefined`) when
 *   `key in data`, and leaves it out when the input has no such key at all.
 * - Numbers: `typeof` number and not NaN (so no bigint, no `Number` object); `.finite()`,
 *   `.min()`/`.max()` inclusive, `.positive()` is `> 0` (so -0 fails it), `.int()` is
 *   `Number.isInteger` (no safe-integer limit in zod 3: `checkFix` refuses those itself). -0 that
 *   passes is kept as -0.
 */
export function parseCallerFix(data: unknown): CallerFix | null {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const o = data as Record<string, unknown>;
  // zod's getParsedType, in its order (it reads `then` and `catch` the same way).
  if (o.then && typeof o.then === 'function' && o.catch && typeof o.catch === 'function') {
    return null;
  }
  if (data instanceof Map || data instanceof Set || data instanceof Date) return null;

  // `.strict()`: zod lists the keys with for…in (enumerable, own and inherited, no symbols).
  for (const key in o) {
    switch (key) {
      case 'latitude':
      case 'longitude':
      case 'accuracy':
      case 'altitude':
      case 'altitudeAccuracy':
      case 'heading':
      case 'speed':
      case 'capturedAt':
      case 'n':
      case 'queuedMs':
        continue;
      default:
        return null;
    }
  }

  // A comparison with NaN is false, so `!(x >= a && x <= b)` refuses NaN as well; finite bounds
  // refuse ±Infinity. `x < Infinity` is `.finite()` where there is no upper bound.
  const latitude = o.latitude;
  if (typeof latitude !== 'number' || !(latitude >= -90 && latitude <= 90)) return null;
  const longitude = o.longitude;
  if (typeof longitude !== 'number' || !(longitude >= -180 && longitude <= 180)) return null;
  const accuracy = o.accuracy;
  if (typeof accuracy !== 'number' || !(accuracy >= 0 && accuracy <= 1_000_000)) return null;
  const altitude = o.altitude;
  if (
    altitude !== undefined &&
    altitude !== null &&
    (typeof altitude !== 'number' || !(altitude >= -1_000 && altitude <= 100_000))
  ) {
    return null;
  }
  const altitudeAccuracy = o.altitudeAccuracy;
  if (
    altitudeAccuracy !== undefined &&
    altitudeAccuracy !== null &&
    (typeof altitudeAccuracy !== 'number' ||
      !(altitudeAccuracy >= 0 && altitudeAccuracy < Infinity))
  ) {
    return null;
  }
  const heading = o.heading;
  if (
    heading !== undefined &&
    heading !== null &&
    (typeof heading !== 'number' || !(heading >= 0 && heading <= 360))
  ) {
    return null;
  }
  const speed = o.speed;
  if (
    speed !== undefined &&
    speed !== null &&
    (typeof speed !== 'number' || !(speed >= 0 && speed < Infinity))
  ) {
    return null;
  }
  const capturedAt = o.capturedAt;
  if (typeof capturedAt !== 'number' || !Number.isInteger(capturedAt) || !(capturedAt > 0)) {
    return null;
  }
  const n = o.n;
  if (n !== undefined && (typeof n !== 'number' || !Number.isInteger(n) || !(n > 0))) return null;
  const queuedMs = o.queuedMs;
  if (
    queuedMs !== undefined &&
    (typeof queuedMs !== 'number' ||
      !Number.isInteger(queuedMs) ||
      !(queuedMs >= 0 && queuedMs <= MAX_QUEUED_MS))
  ) {
    return null;
  }

  // Built in the schema's key order, as zod builds its output. `in` (not an own-key test) is
  // what zod asks before it keeps an optional key whose value is undefined.
  const fix: Partial<CallerFix> = { latitude, longitude, accuracy };
  if (altitude !== undefined || 'altitude' in o) fix.altitude = altitude;
  if (altitudeAccuracy !== undefined || 'altitudeAccuracy' in o) {
    fix.altitudeAccuracy = altitudeAccuracy;
  }
  if (heading !== undefined || 'heading' in o) fix.heading = heading;
  if (speed !== undefined || 'speed' in o) fix.speed = speed;
  fix.capturedAt = capturedAt;
  if (n !== undefined || 'n' in o) fix.n = n;
  if (queuedMs !== undefined || 'queuedMs' in o) fix.queuedMs = queuedMs;
  return fix as CallerFix;
}

/**
 * The contract's `Frame` envelope (`{ event, data }`, strict) for what `JSON.parse` made of a
 * caller's frame, by hand: zod cost 2 µs per frame here (docs/benchmarks.md, issue 16). It
 * accepts only what `Frame.safeParse` accepts (fast-fix.property.test.ts); anything it does not
 * accept, the caller's socket hands to zod, which has the last word.
 */
export function parseFrameEnvelope(value: unknown): { event: string; data?: unknown } | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const o = value as Record<string, unknown>;
  for (const key in o) if (key !== 'event' && key !== 'data') return null;
  const event = o.event;
  if (typeof event !== 'string' || event.length > 64) return null;
  return 'data' in o ? { event, data: o.data } : { event };
}
