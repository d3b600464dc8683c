/** Space kept between the card and the viewport's edges, and between the card and its target. */
export const EDGE = 8;
export const GAP = 12;
/** The card's widest; on a phone it takes the viewport's width less the edges. */
export const CARD_MAX_WIDTH = 340;

export interface Box {
  top: number;
  left: number;
  width: number;
  height: number;
}

/**
 * Where the tour's card goes: under its target when there is room, else above it, else at the
 * bottom of the viewport; centred on the target and kept inside the viewport. A target with no
 * size (folded away) gets the card at the bottom.
 */
export function placeCard(
  target: Box | null,
  cardHeight: number,
  viewport: { width: number; height: number },
): { top: number; left: number; width: number } {
  const width = Math.min(CARD_MAX_WIDTH, viewport.width - 2 * EDGE);
  const clampLeft = (left: number) => Math.min(Math.max(left, EDGE), viewport.width - width - EDGE);
  const bottom = Math.max(EDGE, viewport.height - cardHeight - EDGE);
  if (!target || target.width === 0 || target.height === 0) {
    return { top: bottom, left: clampLeft((viewport.width - width) / 2), width };
  }
  const left = clampLeft(target.left + target.width / 2 - width / 2);
  const below = target.top + target.height + GAP;
  if (below + cardHeight + EDGE <= viewport.height) return { top: below, left, width };
  const above = target.top - GAP - cardHeight;
  if (above >= EDGE) return { top: above, left, width };
  return { top: bottom, left, width };
}
