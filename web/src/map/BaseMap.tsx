import L from 'leaflet';
import { useEffect, useState } from 'react';
import { useMap } from 'react-leaflet';
import type { FallbackBasemap } from './fallback-basemap';
import { OfflineMapNote } from './OfflineMapNote';
import { useTileHealth, type TileHealthReport } from './use-tile-health';

/**
 * The public configuration's `map` (GET /api/v1/config). `pmtilesUrl` is optional here so a
 * caller holding only the raster settings still type-checks; pass the configuration's object
 * whole and the archive, when there is one, is used.
 */
export interface MapTiles {
  tileUrl: string;
  attribution: string;
  pmtilesUrl?: string | null;
}

/** Puts the configured tile source on the map; returns how to take it off. */
function addTiles(map: L.Map, tiles: MapTiles, report: TileHealthReport): () => void {
  const pmtilesUrl = tiles.pmtilesUrl;
  if (!pmtilesUrl) {
    const layer = L.tileLayer(tiles.tileUrl, { attribution: tiles.attribution })
      .on('tileload', report.loaded)
      .on('tileerror', report.failed)
      .addTo(map);
    return () => layer.remove();
  }
  let layer: L.Layer | null = null;
  let removed = false;
  // The vector renderer loads only on deployments that use it.
  import('./pmtiles-layer').then(
    ({ pmtilesLayer }) => {
      if (!removed) layer = pmtilesLayer(pmtilesUrl, report).addTo(map);
    },
    () => report.sourceFailed(),
  );
  return () => {
    removed = true;
    layer?.remove();
  };
}

/**
 * The map's background, for any react-leaflet `MapContainer`: vector tiles from a PMTiles
 * archive when one is configured, else raster tiles from MAP_TILE_URL, and under either the
 * offline map (outlines shipped with the app), drawn once the tiles fail and said so on the map.
 * `tiles` undefined (configuration still loading, or not loaded) draws no tiles; if it stays so,
 * the offline map shows after the first-tile deadline.
 */
export function BaseMap({ tiles }: { tiles: MapTiles | undefined }) {
  const map = useMap();
  const { unavailable, report } = useTileHealth();
  // Once drawn, the outlines stay (under any tiles that load again): no flicker on a bad link.
  const [fallbackWanted, setFallbackWanted] = useState(false);

  const tileUrl = tiles?.tileUrl;
  const attribution = tiles?.attribution ?? '';
  const pmtilesUrl = tiles?.pmtilesUrl ?? null;
  useEffect(() => {
    if (tileUrl === undefined) return;
    report.restart();
    return addTiles(map, { tileUrl, attribution, pmtilesUrl }, report);
  }, [map, report, tileUrl, attribution, pmtilesUrl]);

  useEffect(() => {
    if (unavailable) setFallbackWanted(true);
  }, [unavailable]);

  useEffect(() => {
    if (!fallbackWanted) return;
    let basemap: FallbackBasemap | null = null;
    let removed = false;
    import('./fallback-basemap')
      .then(({ addFallbackBasemap }) => addFallbackBasemap(map))
      .then(
        (added) => {
          if (removed) added.remove();
          else basemap = added;
        },
        // Nothing more to fall back to; the note still says the map is offline.
        (error: unknown) => console.error('the offline map could not be drawn', error),
      );
    return () => {
      removed = true;
      basemap?.remove();
    };
  }, [map, fallbackWanted]);

  return <OfflineMapNote offline={unavailable} />;
}
