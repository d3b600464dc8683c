import 'leaflet/dist/leaflet.css';
import type { CallerState } from '@locus/machines';
import { Badge, Box, Button, VisuallyHidden } from '@mantine/core';
import { IconFocusCentered } from '@tabler/icons-react';
import L, { type LatLngBounds, type LatLngExpression } from 'leaflet';
import { useEffect, useId, useMemo, useRef, useState, type RefObject } from 'react';
import { MapContainer, useMap, useMapEvents } from 'react-leaflet';
import { DescribeMap } from '../map/DescribeMap';
import { BaseMap } from '../map/BaseMap';
import { CallerMarker, CallerTrail } from './CallerMarker';
import { callerColours, callerOrder } from './caller-colours';
import { formatFixCount, isStale } from './format';
import { useNow } from './use-now';

/** Before any fix: the contiguous United States. */
const DEFAULT_CENTER: LatLngExpression = [39.5, -98.35];
const DEFAULT_ZOOM = 4;
/** Close enough to see the street, not so close that a precise fix fills the screen. */
const MAX_FIT_ZOOM = 17;

/** Every fix of every caller, plus the newest fix's accuracy circle, so the circle is in view. */
function boundsOf(callers: [string, CallerState][]): LatLngBounds | null {
  let bounds: LatLngBounds | null = null;
  for (const [, caller] of callers) {
    const latest = caller.locations[caller.locations.length - 1];
    if (!latest) continue;
    const circle = L.latLng(latest.latitude, latest.longitude).toBounds(
      2 * latest.uncertaintyRadiusInMeters,
    );
    bounds = bounds ? bounds.extend(circle) : circle;
    for (const fix of caller.locations) bounds.extend([fix.latitude, fix.longitude]);
  }
  return bounds;
}

/**
 * Keeps the trail in view as fixes arrive, until the dispatcher pans or zooms: from then on the
 * map stays where they put it (and "Fit to caller" brings it back). Leaflet reports the map's own
 * moves and the user's alike, so every move made here is flagged while it happens.
 */
/**
 * True when fitting would not change the view: every trail is already in sight at the zoom a fit
 * would choose. Moving the map repositions every marker and redraws every trail, which with
 * dozens of live callers is most of the page's work, so a fix inside the view moves nothing.
 */
function alreadyFits(map: L.Map, target: LatLngBounds): boolean {
  const zoom = Math.min(map.getBoundsZoom(target, false, L.point(96, 96)), MAX_FIT_ZOOM);
  return zoom === map.getZoom() && map.getBounds().contains(target);
}

function AutoFit({
  bounds,
  fixCount,
  following,
  fitRequest,
  onUserMove,
  container,
}: {
  bounds: LatLngBounds | null;
  fixCount: number;
  following: boolean;
  /** Bumped by "Fit to all": fit every trail now. */
  fitRequest: number;
  onUserMove: () => void;
  container: RefObject<HTMLDivElement | null>;
}) {
  const map = useMap();
  const moving = useRef(false);
  const programmatic = (move: () => void) => {
    moving.current = true;
    try {
      move();
    } finally {
      moving.current = false;
    }
  };

  useMapEvents({
    movestart: () => {
      if (!moving.current) onUserMove();
    },
    zoomstart: () => {
      if (!moving.current) onUserMove();
    },
  });

  const boundsRef = useRef(bounds);
  boundsRef.current = bounds;
  useEffect(() => {
    const target = boundsRef.current;
    if (fixCount === 0) {
      programmatic(() => map.setView(DEFAULT_CENTER, DEFAULT_ZOOM, { animate: false }));
    } else if (following && target && !alreadyFits(map, target)) {
      programmatic(() =>
        map.fitBounds(target, { padding: [48, 48], maxZoom: MAX_FIT_ZOOM, animate: false }),
      );
    }
    // Only a new fix (or following again) moves the map, not every re-render: the bounds are
    // read from a ref.
  }, [map, fixCount, following, fitRequest]);

  // The side panel or bottom sheet changing size changes the map's; Leaflet must be told.
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const observer = new ResizeObserver(() =>
      programmatic(() => map.invalidateSize({ animate: false })),
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [map, container]);

  return null;
}

/** Zoom for "show this caller": the street, unless the dispatcher is already closer. */
const SHOW_CALLER_ZOOM = 16;

/**
 * Centres the map on the caller picked in the side list (its keyboard equivalent, WCAG 2.1.1):
 * the map follows the list, and stays there until "Fit to all".
 */
function ShowCaller({
  request,
  callers,
}: {
  request: ShowCallerRequest | null;
  callers: Record<string, CallerState>;
}) {
  const map = useMap();
  const callersRef = useRef(callers);
  callersRef.current = callers;
  useEffect(() => {
    const latest = request && callersRef.current[request.callerId]?.locations.at(-1);
    if (!latest) return;
    map.setView([latest.latitude, latest.longitude], Math.max(map.getZoom(), SHOW_CALLER_ZOOM), {
      animate: false,
    });
  }, [map, request]);
  return null;
}

/** A caller picked in the side list; `at` tells two picks of the same caller apart. */
export interface ShowCallerRequest {
  callerId: string;
  at: number;
}

/**
 * The dispatcher's map: one trail, pin and accuracy circle per caller, tiles from the public
 * configuration. Pins and trails re-render only when their caller gets a new fix or turns stale,
 * so a trail of thousands of fixes costs nothing between fixes.
 */
export function TrackingMap({
  callers,
  callerNumbers,
  multi,
  phoneNumber,
  tiles,
  tracking,
  showCaller = null,
}: {
  callers: Record<string, CallerState>;
  /** Each caller's number, in the order they were added (their colours follow that order). */
  callerNumbers: Record<string, string>;
  /** Many numbers: each caller gets its own colour and a label. */
  multi: boolean;
  phoneNumber: string | null;
  tiles: { tileUrl: string; attribution: string } | undefined;
  tracking: boolean;
  /** The caller picked in the side list: the map centres on them. */
  showCaller?: ShowCallerRequest | null;
}) {
  const container = useRef<HTMLDivElement>(null);
  const descriptionId = useId();
  const [following, setFollowing] = useState(true);
  const [fitRequest, setFitRequest] = useState(0);
  const now = useNow(1000);
  const entries = useMemo(
    () => Object.entries(callers).filter(([, caller]) => caller.locations.length > 0),
    [callers],
  );
  const fixCount = entries.reduce((sum, [, caller]) => sum + caller.locations.length, 0);
  const bounds = useMemo(() => boundsOf(entries), [entries]);
  const colours = useMemo(
    () => (multi ? callerColours(callerOrder(callerNumbers, Object.keys(callers))) : {}),
    [multi, callerNumbers, callers],
  );
  const numberOf = (callerId: string) => callerNumbers[callerId] ?? phoneNumber ?? '';

  // A new session starts by following its caller again.
  useEffect(() => {
    if (fixCount === 0) setFollowing(true);
  }, [fixCount]);

  return (
    // Leaflet's panes and controls use z-indexes up to 1000; isolated here, they stay under
    // the app's modals and notifications.
    <Box
      ref={container}
      pos="relative"
      style={{ flex: 1, minHeight: 0, minWidth: 0, isolation: 'isolate' }}
    >
      <MapContainer
        center={DEFAULT_CENTER}
        zoom={DEFAULT_ZOOM}
        // Trails and accuracy circles on one canvas: redrawing 50 growing trails as SVG paths
        // each second is what made the page stutter with many live callers.
        preferCanvas
        style={{ position: 'absolute', inset: 0 }}
      >
        <BaseMap tiles={tiles} />
        {entries.map(([callerId, caller]) => {
          const latest = caller.locations[caller.locations.length - 1]!;
          const stale = isStale(latest, now);
          return (
            <CallerTrail
              key={`trail-${callerId}`}
              locations={caller.locations}
              stale={stale}
              colour={colours[callerId]}
            />
          );
        })}
        {entries.map(([callerId, caller]) => {
          const latest = caller.locations[caller.locations.length - 1]!;
          return (
            <CallerMarker
              key={`marker-${callerId}`}
              label={`Caller ${numberOf(callerId)}`.trim()}
              location={latest}
              stale={isStale(latest, now)}
              colour={colours[callerId]}
              number={multi ? numberOf(callerId) : undefined}
            />
          );
        })}
        <ShowCaller request={showCaller} callers={callers} />
        <DescribeMap label="Map" descriptionId={descriptionId} />
        <AutoFit
          bounds={bounds}
          fixCount={fixCount}
          following={following}
          fitRequest={fitRequest}
          onUserMove={() => setFollowing(false)}
          container={container}
        />
      </MapContainer>
      <VisuallyHidden id={descriptionId}>
        Arrow keys move the map, plus and minus zoom. Every caller on it is also listed beside the
        map, with their latest location.
      </VisuallyHidden>
      {tracking && (
        <Badge
          data-testid="fix-count"
          pos="absolute"
          bottom={24}
          left={10}
          size="lg"
          variant="white"
          c="navy.9"
          tt="none"
          style={{ zIndex: 1000, boxShadow: '0 1px 4px rgba(0,0,0,.3)' }}
        >
          {formatFixCount(fixCount)}
        </Badge>
      )}
      {multi && fixCount > 0 && (
        <Button
          pos="absolute"
          top={10}
          right={10}
          style={{ zIndex: 1000 }}
          leftSection={<IconFocusCentered size={16} aria-hidden />}
          onClick={() => {
            setFollowing(true);
            setFitRequest((value) => value + 1);
          }}
        >
          Fit to all
        </Button>
      )}
      {!multi && !following && fixCount > 0 && (
        <Button
          pos="absolute"
          top={10}
          right={10}
          style={{ zIndex: 1000 }}
          leftSection={<IconFocusCentered size={16} aria-hidden />}
          onClick={() => setFollowing(true)}
        >
          Fit to caller
        </Button>
      )}
    </Box>
  );
}
