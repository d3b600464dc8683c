import { describe, expect, it } from 'vitest';
import { fallbackLayersAt } from './fallback-layers';
import {
  FAILURES_IN_A_ROW,
  FIRST_TILE_WITHIN_MS,
  sourceFailed,
  startTileHealth,
  tileFailed,
  tileLoaded,
  tilesUnavailable,
  type TileHealth,
} from './tile-health';

const apply = (health: TileHealth, ...steps: Array<(h: TileHealth) => TileHealth>) =>
  steps.reduce((current, step) => step(current), health);

describe('tile health', () => {
  const start = startTileHealth(1_000);

  it('trusts a new source while its first tiles are on their way', () => {
    expect(tilesUnavailable(start, 1_000)).toBe(false);
    expect(tilesUnavailable(start, 1_000 + FIRST_TILE_WITHIN_MS - 1)).toBe(false);
  });

  it('gives up on a server that refuses every tile', () => {
    const refused = apply(start, ...Array<typeof tileFailed>(FAILURES_IN_A_ROW).fill(tileFailed));
    expect(tilesUnavailable(refused, 1_001)).toBe(true);
  });

  it('gives up on a server that never answers', () => {
    expect(tilesUnavailable(start, 1_000 + FIRST_TILE_WITHIN_MS)).toBe(true);
  });

  it('forgives a gap in coverage between tiles that load', () => {
    const patchy = apply(start, tileLoaded, tileFailed, tileFailed, tileLoaded, tileFailed);
    expect(tilesUnavailable(patchy, 1_000 + 10 * FIRST_TILE_WITHIN_MS)).toBe(false);
  });

  it('notices a server that goes away after tiles loaded', () => {
    const lost = apply(start, tileLoaded, tileFailed, tileFailed, tileFailed);
    expect(tilesUnavailable(lost, 2_000)).toBe(true);
  });

  it('comes back when a tile loads again', () => {
    const lost = apply(start, tileFailed, tileFailed, tileFailed);
    expect(tilesUnavailable(tileLoaded(lost), 2_000)).toBe(false);
  });

  it('counts a source that could not be set up as unreachable', () => {
    expect(tilesUnavailable(sourceFailed(start), 1_000)).toBe(true);
  });
});

describe('the offline map at each zoom', () => {
  it('shows land and countries everywhere, states from the US view, counties up close', () => {
    expect(fallbackLayersAt(1)).toEqual(['land', 'countries']);
    expect(fallbackLayersAt(4)).toEqual(['land', 'countries', 'states']);
    expect(fallbackLayersAt(6)).toEqual(['land', 'countries', 'states']);
    expect(fallbackLayersAt(7)).toEqual(['land', 'countries', 'states', 'counties']);
  });
});
