import { z } from 'zod';

export const LocationSource = z.enum(['TEXT_MESSAGE', 'RAPID_SOS']);
export type LocationSource = z.infer<typeof LocationSource>;

const finite = z.number().finite();

/** SPEC.md §3 "Location", as the dispatcher receives it. */
export const Location = z.object({
  latitude: finite.min(-90).max(90),
  longitude: finite.min(-180).max(180),
  uncertaintyRadiusInMeters: finite.min(0),
  altitude: finite.nullable(),
  address: z.string().max(500).nullable(),
  capturedFromSource: LocationSource,
  /** ISO 8601, UTC. */
  dateTimeCaptured: z.string().datetime(),
});
export type Location = z.infer<typeof Location>;

/**
 * A fix as the caller's browser reports it (the Geolocation API's names). The server turns
 * it into a {@link Location}. Limits: see `fixLimits`.
 */
export const CallerFix = z
  .object({
    latitude: finite.min(-90).max(90),
    longitude: finite.min(-180).max(180),
    accuracy: finite.min(0).max(1_000_000),
    altitude: finite.min(-1_000).max(100_000).nullable().optional(),
    altitudeAccuracy: finite.min(0).nullable().optional(),
    heading: finite.min(0).max(360).nullable().optional(),
    speed: finite.min(0).nullable().optional(),
    /** Epoch milliseconds, as `GeolocationPosition.timestamp`. */
    capturedAt: z.number().int().positive(),
    /**
     * The page's own number for this fix, counting up from 1 for one link on one phone; the
     * `ack` names it, so the page knows which fixes it may forget (see realtime.ts).
     */
    n: z.number().int().positive().optional(),
    /**
     * How long the fix waited on the phone before this send, by the phone's own clock (so a
     * phone whose clock is wrong still reports it right). Absent: sent as soon as taken.
     */
    queuedMs: z
      .number()
      .int()
      .min(0)
      .max(7 * 24 * 3_600_000)
      .optional(),
  })
  .strict();
export type CallerFix = z.infer<typeof CallerFix>;
