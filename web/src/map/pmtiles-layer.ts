import L from 'leaflet';
import { FetchSource, PMTiles, type RangeResponse, type Source } from 'pmtiles';
import { leafletLayer } from 'protomaps-leaflet';

export interface TileReport {
  loaded(): void;
  failed(): void;
}

/**
 * Tells BaseMap how each read of the archive went. protomaps-leaflet shows a tile whether its
 * data arrived or not (it logs the error and paints the background), so its tile events say
 * nothing about the server: the reads do. A read cancelled by zooming is neither.
 */
class ReportingSource implements Source {
  constructor(
    private readonly source: Source,
    private readonly report: TileReport,
  ) {}

  getKey(): string {
    return this.source.getKey();
  }

  async getBytes(
    offset: number,
    length: number,
    signal?: AbortSignal,
    etag?: string,
  ): Promise<RangeResponse> {
    try {
      const response = await this.source.getBytes(offset, length, signal, etag);
      this.report.loaded();
      return response;
    } catch (error) {
      if (!(error instanceof DOMException && error.name === 'AbortError')) this.report.failed();
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
  const archive = new PMTiles(new ReportingSource(new FetchSource(url), report));
  return leafletLayer({ url: archive, flavor: 'light', lang: 'en' }) as unknown as L.GridLayer;
}
