import L from 'leaflet';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, GeometryObject, Topology } from 'topojson-specification';
// As files, not modules: fetched only when the offline map is needed, cached for good (their
// names carry a hash), and never parsed as JavaScript.
import countiesUrl from 'us-atlas/counties-10m.json?url';
import statesUrl from 'us-atlas/states-10m.json?url';
import countriesUrl from 'world-atlas/countries-50m.json?url';
import { fallbackLayersAt, type FallbackLayer } from './fallback-layers';

/** Below the tiles (200), so tiles that do load cover the outlines. */
const PANE = 'locusFallbackBasemap';
const PANE_Z_INDEX = '150';

/** The sea is what is left undrawn: the map's background while the outlines show. */
const SEA = '#aad3df';
const styles: Record<FallbackLayer, L.PathOptions> = {
  land: {
    stroke: true,
    color: '#6f9bb0',
    weight: 0.8,
    fill: true,
    fillColor: '#f2efe9',
    fillOpacity: 1,
  },
  countries: { color: '#7f6d85', weight: 1.2, fill: false },
  states: { color: '#8d8794', weight: 1, fill: false },
  counties: { color: '#c3bec8', weight: 0.6, fill: false },
};

/** world-atlas is drawn from Natural Earth, us-atlas from the Census Bureau's boundaries. */
const ATTRIBUTION = 'Outlines: Natural Earth, US Census Bureau';

type Topo = Topology<Record<string, GeometryCollection>>;

async function loadTopology(url: string): Promise<Topo> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return (await response.json()) as Topo;
}

function object(topology: Topo, name: string): GeometryCollection {
  const found = topology.objects[name];
  if (!found) throw new Error(`no ${name} in the atlas`);
  return found;
}

/** US FIPS codes: a county's first two digits are its state's. */
const stateOf = (geometry: GeometryObject) => String(geometry.id ?? '').slice(0, 2);

/**
 * County lines, one feature per state: Leaflet skips drawing a feature outside the view, and a
 * single nationwide line would be redrawn whole at every pan. Meshing each state's counties on
 * their own keeps only lines between two of them (a line shared with the next state is one-sided
 * here, and drawn by the states layer), in one pass over the counties in all.
 */
function countyLines(us: Topo) {
  const byState = new Map<string, GeometryObject[]>();
  for (const county of object(us, 'counties').geometries) {
    const state = stateOf(county);
    const counties = byState.get(state);
    if (counties) counties.push(county);
    else byState.set(state, [county]);
  }
  const lines = [...byState].map(([state, counties]) => ({
    type: 'Feature' as const,
    properties: { state },
    geometry: mesh(us, { type: 'GeometryCollection', geometries: counties }, (a, b) => a !== b),
  }));
  return { type: 'FeatureCollection' as const, features: lines };
}

export interface FallbackBasemap {
  remove(): void;
}

/**
 * Draws country, US state and (zoomed in) county outlines from the atlases shipped with the app,
 * on a canvas under the tiles: a map that still shows where a caller is when no tile server can
 * be reached. Counties (the largest file) are fetched the first time they are needed. The map
 * container's `data-fallback-basemap` lists the layers drawn, for tests and for debugging.
 */
export async function addFallbackBasemap(map: L.Map): Promise<FallbackBasemap> {
  const pane = map.getPane(PANE) ?? map.createPane(PANE);
  pane.style.zIndex = PANE_Z_INDEX;
  pane.style.pointerEvents = 'none';
  const renderer = L.canvas({ pane: PANE, padding: 0.5 });
  const container = map.getContainer();
  // GeoJSON passes its options to each path it makes: all on our canvas, none clickable.
  const draw = (name: FallbackLayer, data: Parameters<typeof L.geoJSON>[0]) =>
    L.geoJSON(data, {
      pane: PANE,
      interactive: false,
      style: { ...styles[name], renderer },
      ...(name === 'land' ? { attribution: ATTRIBUTION } : {}),
    });

  const [world, us] = await Promise.all([loadTopology(countriesUrl), loadTopology(statesUrl)]);
  const countries = object(world, 'countries');
  const land = feature(world, object(world, 'land'));
  // Lines between two countries, between two states: coasts are the land's own outline.
  const borders = mesh(world, countries, (a, b) => a !== b);
  const stateLines = mesh(us, object(us, 'states'), (a, b) => a !== b);
  const layers = new Map<FallbackLayer, L.GeoJSON>([
    ['land', draw('land', land)],
    ['countries', draw('countries', borders)],
    ['states', draw('states', stateLines)],
  ]);
  let countiesRequested = false;
  let removed = false;

  const show = () => {
    if (removed) return;
    const wanted = fallbackLayersAt(map.getZoom());
    if (wanted.includes('counties') && !countiesRequested) {
      countiesRequested = true;
      loadTopology(countiesUrl).then(
        (topology) => {
          layers.set('counties', draw('counties', countyLines(topology)));
          show();
        },
        // Tried again at the next zoom; states and countries stay meanwhile.
        () => (countiesRequested = false),
      );
    }
    for (const [name, layer] of layers) {
      const drawn = map.hasLayer(layer);
      if (wanted.includes(name) && !drawn) {
        layer.addTo(map);
        // A canvas draws in the order layers came: state lines go back over county lines.
        if (name === 'counties') layers.get('states')?.bringToFront();
      } else if (!wanted.includes(name) && drawn) layer.remove();
    }
    container.dataset.fallbackBasemap = [...layers]
      .filter(([, layer]) => map.hasLayer(layer))
      .map(([name]) => name)
      .join(' ');
  };

  container.style.background = SEA;
  map.on('zoomend', show);
  show();
  return {
    remove: () => {
      removed = true;
      map.off('zoomend', show);
      for (const layer of layers.values()) layer.remove();
      container.style.background = '';
      delete container.dataset.fallbackBasemap;
    },
  };
}
