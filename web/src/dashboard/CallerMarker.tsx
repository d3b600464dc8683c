import type { LocationSource, TrackedLocation } from '@locus/machines';
import L, { type LatLngTuple } from 'leaflet';
import { Fragment, memo, useMemo } from 'react';
import { Circle, CircleMarker, Marker, Polyline, Tooltip } from 'react-leaflet';
import { formatDelay, formatDuration, fixAgeMs, formatUtc } from './format';
import { useNow } from './use-now';

export const sourceColours: Record<LocationSource, string> = {
  TEXT_MESSAGE: '#275295',
  RAPID_SOS: '#cc1617',
};
const staleColour = '#868e96';
/** Ring of a fix that reached us late (it waited on the phone while the network was down). */
const delayedColour = '#e67700';
/** A fix the caller texted back (their page could not get it through). */
const textedColour = '#6741d9';

const phoneGlyph =
  '<g transform="translate(8 7) scale(0.75)" fill="none" stroke="white" stroke-width="2.4" ' +
  'stroke-linecap="round" stroke-linejoin="round"><path d="M5 4h4l2 5l-2.5 1.5a11 11 0 0 0 5 5' +
  'l1.5 -2.5l5 2v4a2 2 0 0 1 -2 2a16 16 0 0 1 -15 -15a2 2 0 0 1 2 -2"/></g>';
const sosGlyph =
  '<text x="17" y="20.5" text-anchor="middle" font-family="system-ui, sans-serif" ' +
  'font-size="9.5" font-weight="800" fill="white">SOS</text>';

/**
 * Leaflet's default marker loads PNGs by URL, which bundlers break; a div icon with inline
 * SVG needs no assets. The pin's glyph and colour say where the fix came from (a phone for the
 * caller's own browser, SOS for the emergency-data provider); grey means the fix is stale.
 */
function callerIcon(source: LocationSource, stale: boolean, callerColour?: string): L.DivIcon {
  const colour = stale ? staleColour : (callerColour ?? sourceColours[source]);
  const glyph = source === 'RAPID_SOS' ? sosGlyph : phoneGlyph;
  return L.divIcon({
    className: 'locus-caller-marker',
    html:
      `<svg width="34" height="44" viewBox="0 0 34 44" aria-hidden="true" focusable="false"` +
      ` style="display:block;filter:drop-shadow(0 1px 2px rgba(0,0,0,.45));opacity:${stale ? 0.75 : 1}">` +
      `<path d="M17 43C17 43 3 27 3 17a14 14 0 1 1 28 0c0 10-14 26-14 26z" fill="${colour}"` +
      ` stroke="white" stroke-width="2"/>${glyph}</svg>`,
    iconSize: [34, 44],
    iconAnchor: [17, 43],
    tooltipAnchor: [0, -42],
  });
}

/** Runs of consecutive fixes that arrived late (one run per outage), oldest first. */
function delayedRuns(locations: readonly TrackedLocation[]): TrackedLocation[][] {
  const runs: TrackedLocation[][] = [];
  let current: TrackedLocation[] | null = null;
  for (const fix of locations) {
    if (fix.delayMs === undefined) {
      current = null;
      continue;
    }
    if (!current) runs.push((current = []));
    current.push(fix);
  }
  return runs;
}

/**
 * A caller's breadcrumb trail: one polyline for all of its fixes, so thousands of points stay
 * one SVG path. Memoised on the fixes array, which the machine replaces only when one is added.
 */
export const CallerTrail = memo(function CallerTrail({
  locations,
  stale,
  colour,
}: {
  locations: TrackedLocation[];
  stale: boolean;
  /** The caller's own colour when many are tracked; else the source's. */
  colour?: string;
}) {
  const positions = useMemo(
    () => locations.map((fix): LatLngTuple => [fix.latitude, fix.longitude]),
    [locations],
  );
  const outages = useMemo(() => delayedRuns(locations), [locations]);
  const texted = useMemo(() => locations.filter((fix) => fix.deliveredBy === 'sms'), [locations]);
  const latest = locations[locations.length - 1];
  if (!latest) return null;
  return (
    <>
      {/* Each fix the caller texted back: a violet ring, so nobody takes it for the page's. */}
      {texted.map((fix) => (
        <CircleMarker
          key={`sms-${fix.dateTimeCaptured}`}
          center={[fix.latitude, fix.longitude]}
          radius={6}
          pathOptions={{ color: textedColour, weight: 3, fillColor: '#fff', fillOpacity: 1 }}
        >
          <Tooltip>Location received by text · {formatUtc(fix.dateTimeCaptured)}</Tooltip>
        </CircleMarker>
      ))}
      {positions.length >= 2 && (
        <TrailLines
          positions={positions}
          outages={outages}
          stale={stale}
          colour={colour}
          latest={latest}
        />
      )}
    </>
  );
});

function TrailLines({
  positions,
  outages,
  stale,
  colour,
  latest,
}: {
  positions: LatLngTuple[];
  outages: TrackedLocation[][];
  stale: boolean;
  colour?: string;
  latest: TrackedLocation;
}) {
  return (
    <>
      <Polyline
        positions={positions}
        interactive={false}
        pathOptions={{
          color: stale ? staleColour : (colour ?? sourceColours[latest.capturedFromSource]),
          weight: 3,
          opacity: 0.65,
          dashArray: stale ? '6 6' : undefined,
        }}
      />
      {/* Fixes that waited on the phone, in their place in time: each outage's stretch of the
          trail in dashed orange, ringed where it starts. One layer per outage, not per fix. */}
      {outages.map((run) => {
        const start = run[0]!;
        return (
          <Fragment key={start.dateTimeCaptured}>
            {run.length > 1 && (
              <Polyline
                positions={run.map((fix): LatLngTuple => [fix.latitude, fix.longitude])}
                interactive={false}
                pathOptions={{ color: delayedColour, weight: 3, dashArray: '4 6' }}
              />
            )}
            <CircleMarker
              center={[start.latitude, start.longitude]}
              radius={5}
              pathOptions={{ color: delayedColour, weight: 2, fillColor: '#fff', fillOpacity: 1 }}
            >
              <Tooltip>
                {run.length === 1 ? '1 delayed fix' : `${run.length} delayed fixes`}, taken from{' '}
                {formatUtc(start.dateTimeCaptured)} · {formatDelay(start.delayMs ?? 0)}
              </Tooltip>
            </CircleMarker>
          </Fragment>
        );
      })}
    </>
  );
}

/** "No new fix for 1m 20s", ticking on its own so the rest of the map does not re-render. */
function StaleBadge({ location }: { location: TrackedLocation }) {
  const now = useNow(1000);
  return (
    <Tooltip permanent direction="top" className="locus-stale-badge">
      No new fix for {formatDuration(fixAgeMs(location, now))}
    </Tooltip>
  );
}

/** The caller's newest fix: a pin and its accuracy circle (SPEC.md §3 uncertaintyRadiusInMeters). */
export const CallerMarker = memo(function CallerMarker({
  label,
  location,
  stale,
  colour: callerColour,
  number,
}: {
  /** "Caller +12025550123": the marker's accessible name. */
  label: string;
  location: TrackedLocation;
  stale: boolean;
  /** The caller's own colour when many are tracked; else the source's. */
  colour?: string;
  /** Shown beside the pin when many are tracked, so each pin says whose it is. */
  number?: string;
}) {
  const source = location.capturedFromSource;
  const icon = useMemo(
    () => callerIcon(source, stale, callerColour),
    [source, stale, callerColour],
  );
  const center: LatLngTuple = [location.latitude, location.longitude];

  const colour = stale ? staleColour : (callerColour ?? sourceColours[source]);
  return (
    <>
      <Circle
        center={center}
        radius={location.uncertaintyRadiusInMeters}
        interactive={false}
        pathOptions={{ color: colour, weight: 1, fillColor: colour, fillOpacity: 0.12 }}
      />
      <Marker
        position={center}
        icon={icon}
        // The pin's name: its picture is hidden from screen readers, so the title names it
        // (an aria-label would have to start with the pin's "SOS" glyph, WCAG 2.5.3).
        title={label}
        alt={label}
        keyboard
      >
        {stale ? (
          <StaleBadge location={location} />
        ) : (
          number && (
            <Tooltip permanent direction="right" offset={[14, -22]}>
              {number}
            </Tooltip>
          )
        )}
      </Marker>
    </>
  );
});
