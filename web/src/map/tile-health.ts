/**
 * When the map stops trusting its tile source and draws its own outlines instead. Pure, so the
 * rule is tested on its own (tile-health.test.ts); BaseMap feeds it Leaflet's tile events.
 *
 * Two ways tiles fail on a closed network: the server refuses or is blocked (each tile errors
 * at once), or it is black-holed (requests hang, nothing errors for minutes). A few failures
 * in a row catch the first; a deadline for the first tile catches the second.
 */
export interface TileHealth {
  /** When the current tile source was put on the map (ms since the epoch). */
  since: number;
  /** Tiles that loaded since then. */
  loaded: number;
  /** Tiles that failed since the last one that loaded. */
  failedInARow: number;
}

/** One bad tile can be a gap in the server's coverage; three in a row with none between is not. */
export const FAILURES_IN_A_ROW = 3;
/** A reachable tile server answers well within this, even on a slow link. */
export const FIRST_TILE_WITHIN_MS = 10_000;

export const startTileHealth = (now: number): TileHealth => ({
  since: now,
  loaded: 0,
  failedInARow: 0,
});

export const tileLoaded = (health: TileHealth): TileHealth => ({
  ...health,
  loaded: health.loaded + 1,
  failedInARow: 0,
});

export const tileFailed = (health: TileHealth): TileHealth => ({
  ...health,
  failedInARow: health.failedInARow + 1,
});

/** The source itself could not be set up (say, its code did not load): as good as unreachable. */
export const sourceFailed = (health: TileHealth): TileHealth => ({
  ...health,
  failedInARow: Math.max(health.failedInARow, FAILURES_IN_A_ROW),
});

/**
 * True when the offline map should show: tiles keep failing, or none arrived in time. A tile
 * that loads later ends it (the outlines stay drawn under the tiles, the note goes).
 */
export function tilesUnavailable(health: TileHealth, now: number): boolean {
  if (health.failedInARow >= FAILURES_IN_A_ROW) return true;
  return health.loaded === 0 && now - health.since >= FIRST_TILE_WITHIN_MS;
}
