import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  FIRST_TILE_WITHIN_MS,
  sourceFailed,
  startTileHealth,
  tileFailed,
  tileLoaded,
  tilesUnavailable,
  type TileHealth,
} from './tile-health';

export interface TileHealthReport {
  /** A new tile source went on the map: its record starts afresh. */
  restart(): void;
  loaded(): void;
  failed(): void;
  sourceFailed(): void;
}

/**
 * Keeps the record of tile events in a ref (there are dozens a second while the map moves) and
 * re-renders only when the verdict changes. The first-tile deadline starts at mount, so a map
 * whose configuration never arrives also ends up on the offline map.
 */
export function useTileHealth(): { unavailable: boolean; report: TileHealthReport } {
  const health = useRef<TileHealth>(startTileHealth(Date.now()));
  const [unavailable, setUnavailable] = useState(false);
  const [deadline, setDeadline] = useState(0);

  const update = useCallback((next: (health: TileHealth) => TileHealth) => {
    health.current = next(health.current);
    setUnavailable(tilesUnavailable(health.current, Date.now()));
  }, []);

  useEffect(() => {
    const timer = setTimeout(() => update((same) => same), FIRST_TILE_WITHIN_MS);
    return () => clearTimeout(timer);
  }, [deadline, update]);

  const report = useMemo<TileHealthReport>(
    () => ({
      restart: () => {
        update(() => startTileHealth(Date.now()));
        setDeadline((count) => count + 1);
      },
      loaded: () => update(tileLoaded),
      failed: () => update(tileFailed),
      sourceFailed: () => update(sourceFailed),
    }),
    [update],
  );
  return { unavailable, report };
}
