import { describe, expect, it } from 'vitest';
import { CARD_MAX_WIDTH, EDGE, GAP, placeCard } from './placement';

const desktop = { width: 1280, height: 800 };
const phone = { width: 320, height: 640 };

describe("the tour card's place", () => {
  it('goes under its target, centred on it, when there is room', () => {
    const place = placeCard({ top: 12, left: 400, width: 210, height: 36 }, 180, desktop);
    expect(place).toEqual({
      top: 12 + 36 + GAP,
      left: 400 + 105 - CARD_MAX_WIDTH / 2,
      width: CARD_MAX_WIDTH,
    });
  });

  it('goes above a target near the bottom', () => {
    const place = placeCard({ top: 600, left: 900, width: 380, height: 180 }, 150, desktop);
    expect(place.top).toBe(600 - GAP - 150);
  });

  it('takes a phone’s width less the edges and stays inside it', () => {
    const place = placeCard({ top: 14, left: 250, width: 36, height: 36 }, 200, phone);
    expect(place.width).toBe(320 - 2 * EDGE);
    expect(place.left).toBe(EDGE);
    expect(place.left + place.width).toBeLessThanOrEqual(320 - EDGE);
  });

  it('sits at the bottom when there is room neither above nor below, or no target to point at', () => {
    expect(placeCard({ top: 100, left: 0, width: 320, height: 450 }, 200, phone).top).toBe(
      640 - 200 - EDGE,
    );
    expect(placeCard({ top: 0, left: 0, width: 0, height: 0 }, 200, phone).top).toBe(
      640 - 200 - EDGE,
    );
    expect(placeCard(null, 200, desktop).left).toBe((1280 - CARD_MAX_WIDTH) / 2);
  });
});
