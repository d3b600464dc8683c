/**
 * The offline map's layers and the zooms they show at. Outlines that would crowd the map out
 * wait for a closer zoom: US states from the whole-country view (the dashboard opens the US at
 * zoom 4), counties only once a few of them fill the screen.
 */
export type FallbackLayer = 'land' | 'countries' | 'states' | 'counties';

const minZoom: Record<FallbackLayer, number> = {
  land: 0,
  countries: 0,
  states: 3,
  counties: 7,
};

/** The layers to draw at `zoom`, bottom first. */
export function fallbackLayersAt(zoom: number): FallbackLayer[] {
  return (Object.keys(minZoom) as FallbackLayer[]).filter((layer) => zoom >= minZoom[layer]);
}
