import { describe, expect, it } from 'vitest';
import { ANNOUNCE_EVERY_MS, mayAnnounce, OFFER_PAUSE_MS, textOffer } from './text-fallback';

const afterMs = 20_000;
// Monotonic times (performance.now()): a page open for a few seconds.
const start = 5_000;

describe('the offer to send the location by text', () => {
  it('is not offered while the server has taken every fix', () => {
    expect(
      textOffer({ unackedSince: null, now: start + 600_000, tappedAt: null, afterMs }),
    ).toEqual({ show: false, recheckAt: null });
  });

  it('shows once the oldest unacknowledged fix has waited afterMs, and says when that is', () => {
    const at = (now: number) => textOffer({ unackedSince: start, now, tappedAt: null, afterMs });
    expect(at(start)).toEqual({ show: false, recheckAt: start + afterMs });
    expect(at(start + afterMs - 1)).toEqual({ show: false, recheckAt: start + afterMs });
    expect(at(start + afterMs)).toEqual({ show: true, recheckAt: null });
    expect(at(start + 10 * afterMs)).toEqual({ show: true, recheckAt: null });
  });

  it('follows the oldest fix waiting: acks that leave a newer one waiting push it back', () => {
    // The fixes up to start + 15 s were acked; the oldest still waiting came then.
    const unackedSince = start + 15_000;
    expect(textOffer({ unackedSince, now: start + 30_000, tappedAt: null, afterMs })).toEqual({
      show: false,
      recheckAt: unackedSince + afterMs,
    });
  });

  it('honours the link’s own delay', () => {
    const offer = textOffer({
      unackedSince: start,
      now: start + 5_000,
      tappedAt: null,
      afterMs: 5_000,
    });
    expect(offer.show).toBe(true);
  });

  it('hides for a minute after a tap, then shows again while fixes still wait', () => {
    const tappedAt = start + 25_000;
    const at = (now: number) => textOffer({ unackedSince: start, now, tappedAt, afterMs });
    expect(at(tappedAt)).toEqual({ show: false, recheckAt: tappedAt + OFFER_PAUSE_MS });
    expect(at(tappedAt + OFFER_PAUSE_MS - 1).show).toBe(false);
    expect(at(tappedAt + OFFER_PAUSE_MS)).toEqual({ show: true, recheckAt: null });
  });

  it('after a tap, stays hidden once fixes are acked, and waits afterMs again when they stop', () => {
    const tappedAt = start + 25_000;
    expect(
      textOffer({ unackedSince: null, now: tappedAt + 2 * OFFER_PAUSE_MS, tappedAt, afterMs }),
    ).toEqual({ show: false, recheckAt: null });
    // The network drops again 10 s after the tap: the minute since the tap still counts.
    const again = tappedAt + 10_000;
    expect(textOffer({ unackedSince: again, now: again + afterMs, tappedAt, afterMs })).toEqual({
      show: false,
      recheckAt: tappedAt + OFFER_PAUSE_MS,
    });
    // Long after the tap, only afterMs counts.
    const later = tappedAt + 300_000;
    expect(textOffer({ unackedSince: later, now: later + 1_000, tappedAt, afterMs })).toEqual({
      show: false,
      recheckAt: later + afterMs,
    });
  });

  it('works from a page just opened (monotonic times near zero)', () => {
    expect(textOffer({ unackedSince: 0, now: afterMs, tappedAt: null, afterMs }).show).toBe(true);
    expect(textOffer({ unackedSince: 0, now: afterMs, tappedAt: 0, afterMs }).show).toBe(false);
  });
});

describe('announcing the offer', () => {
  it('is allowed the first time, then at most once a minute', () => {
    expect(mayAnnounce(null, start)).toBe(true);
    expect(mayAnnounce(start, start + ANNOUNCE_EVERY_MS - 1)).toBe(false);
    expect(mayAnnounce(start, start + ANNOUNCE_EVERY_MS)).toBe(true);
  });
});
