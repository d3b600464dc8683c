/**
 * When the caller's page offers "Send my location by text": its positions have not got through
 * on the internet for a while (the link's `textBack.afterMs`), and never more than once a minute.
 * Pure: every time is the page's monotonic clock (`performance.now()`), so a phone whose clock
 * is set meanwhile neither hides the offer nor shows it early.
 */

/** After the caller taps the offer, it stays hidden this long (then shows the newest position). */
export const OFFER_PAUSE_MS = 60_000;

/** Screen readers are told of the offer at most this often. */
export const ANNOUNCE_EVERY_MS = 60_000;

export interface TextOfferInput {
  /** Since when the oldest fix the server has not taken has waited; null when none waits. */
  unackedSince: number | null;
  now: number;
  /** When the caller last tapped the offer; null if never. */
  tappedAt: number | null;
  /** How long fixes wait unacknowledged before the offer shows. */
  afterMs: number;
}

export interface TextOffer {
  show: boolean;
  /** When the answer changes if nothing else does (the offer becomes due); null if it does not. */
  recheckAt: number | null;
}

/**
 * Shown once the oldest unacknowledged fix has waited `afterMs`, unless the caller tapped the
 * offer less than {@link OFFER_PAUSE_MS} ago; hidden as soon as the server takes the fixes again.
 */
export function textOffer({ unackedSince, now, tappedAt, afterMs }: TextOfferInput): TextOffer {
  if (unackedSince === null) return { show: false, recheckAt: null };
  const due = Math.max(unackedSince + afterMs, tappedAt === null ? 0 : tappedAt + OFFER_PAUSE_MS);
  return now >= due ? { show: true, recheckAt: null } : { show: false, recheckAt: due };
}

/** Whether the offer's appearance may be announced now, the last announcement being at `lastAt`. */
export function mayAnnounce(lastAt: number | null, now: number): boolean {
  return lastAt === null || now - lastAt >= ANNOUNCE_EVERY_MS;
}
