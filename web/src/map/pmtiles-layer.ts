import L from 'leaflet';
import { PMTiles, type RangeResponse } from 'pmtiles';
import { leafletLayer } from 'protomaps-leaflet';

export interface TileReport {
  loaded(): void;
  failed(): void;
}

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

/**
 * Tells BaseMap how each tile read went. protomaps-leaflet shows a tile whether its data came or
 * not (it logs the error and paints the background), so its tile events say nothing: the reads
 * do. Per tile, not per byte range, so an archive that downloads but cannot be read (truncated,
 * not PMTiles) counts as failing too. No tile at a place (outside an extract) is not a failure;
 * a read cancelled by zooming is neither.
 */
class ReportingPMTiles extends PMTiles {
  constructor(
    url: string,
    private readonly report: TileReport,
  ) {
    super(url);
  }

  override async getZxy(
    z: number,
    x: number,
    y: number,
    signal?: AbortSignal,
  ): Promise<RangeResponse | undefined> {
    try {
      const tile = await super.getZxy(z, x, y, signal);
      this.report.loaded();
      return tile;
    } catch (error) {
      if (!isAbort(error)) this.report.failed();
      throw error;
    }
  }
}

/**
 * Vector tiles from a PMTiles archive (a Protomaps basemap build), drawn on canvas tiles by
 * protomaps-leaflet in its "light" style. This module is loaded only when an archive is
 * configured: the renderer is most of its weight.
 */
export function pmtilesLayer(url: string, report: TileReport): L.GridLayer {
  // protomaps-leaflet extends the global `L` (Leaflet 1.x plugin style) when a layer is made.
  const global = globalThis as { L?: typeof L };
  global.L ??= L;
  const archive = new ReportingPMTiles(url, report);
  return leafletLayer({ url: archive, flavor: 'light', lang: 'en' }) as unknown as L.GridLayer;
}
