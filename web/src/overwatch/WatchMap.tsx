import 'leaflet/dist/leaflet.css';
import { grownRadius, phoneStatusLabels, type WatchFix, type WatchSettings } from '@locus/contract';
import { Box, VisuallyHidden } from '@mantine/core';
import L from 'leaflet';
import { useEffect, useId, useRef, useState } from 'react';
import { MapContainer, useMap, useMapEvents } from 'react-leaflet';
import { DescribeMap } from '../map/DescribeMap';
import { BaseMap, type MapTiles } from '../map/BaseMap';
import type { PhoneView } from './phone-view';
import { geofenceColour, jumpColour, statusColours } from './status-style';
import type { WatchStore } from './watch-store';

/** Below this zoom, phones closer than `CLUSTER_PIXELS` on screen are drawn as one cluster. */
const CLUSTER_BELOW_ZOOM = 14;
const CLUSTER_PIXELS = 48;
/**
 * Beyond this many phones in sight, names show on hover and in the list, not on the map: every
 * permanent label is a DOM element laid out again whenever its phone moves (the bench's
 * layout time), and 200 overlapping labels are unreadable anyway.
 */
const MAX_PERMANENT_LABELS = 40;

interface PhoneLayers {
  dot: L.CircleMarker;
  circle: L.Circle;
  trail: L.Polyline;
  jumps: L.Polyline;
  /** What was last drawn (the dot's key, then the circle's), so an unchanged phone costs nothing. */
  drawn: string;
  trailKey: string;
  /** Live trails grow by appending: the last fix drawn and how many fixes were drawn. */
  trailLast: WatchFix | null;
  trailCount: number;
}

/**
 * Every phone of the watch, drawn imperatively on one canvas: with 200 phones at a fix a second,
 * React elements per marker would re-render the whole map each frame; here only the phones whose
 * fix, status or circle changed are touched. Zoomed out, nearby phones become a cluster.
 */
function PhonesLayer({
  views,
  store,
  settings,
  moment,
  at,
  showTrails,
  selected,
  onSelect,
}: {
  views: PhoneView[];
  store: WatchStore;
  settings: WatchSettings;
  moment: number;
  at: number | null;
  showTrails: boolean;
  selected: string | null;
  onSelect: (callerId: string) => void;
}) {
  const map = useMap();
  const layers = useRef(new Map<string, PhoneLayers>());
  const clusters = useRef(L.layerGroup());
  const [viewport, setViewport] = useState(0);
  useMapEvents({
    zoomend: () => setViewport((n) => n + 1),
    moveend: () => setViewport((n) => n + 1),
  });
  const onSelectRef = useRef(onSelect);
  onSelectRef.current = onSelect;

  useEffect(() => {
    const group = clusters.current.addTo(map);
    const own = layers.current;
    return () => {
      group.remove();
      for (const phone of own.values()) {
        phone.dot.remove();
        phone.circle.remove();
        phone.trail.remove();
        phone.jumps.remove();
      }
      own.clear();
    };
  }, [map]);

  useEffect(() => {
    const zoom = map.getZoom();
    const buckets = new Map<string, PhoneView[]>();
    if (zoom < CLUSTER_BELOW_ZOOM) {
      for (const view of views) {
        if (!view.fix || view.callerId === selected) continue;
        const point = map.latLngToLayerPoint([view.fix.latitude, view.fix.longitude]);
        const key = `${Math.floor(point.x / CLUSTER_PIXELS)}:${Math.floor(point.y / CLUSTER_PIXELS)}`;
        buckets.set(key, [...(buckets.get(key) ?? []), view]);
      }
    }
    const clustered = new Set<string>();
    clusters.current.clearLayers();
    for (const members of buckets.values()) {
      if (members.length < 2) continue;
      for (const member of members) clustered.add(member.callerId);
      const lat = members.reduce((sum, m) => sum + m.fix!.latitude, 0) / members.length;
      const lng = members.reduce((sum, m) => sum + m.fix!.longitude, 0) / members.length;
      const worst = members.some((m) => m.status === 'stale' || m.jumpFlagged);
      L.marker([lat, lng], {
        keyboard: false,
        icon: L.divIcon({
          className: 'locus-overwatch-cluster',
          html: `<span style="background:${worst ? statusColours.stale : '#1c3d6e'}">${members.length}</span>`,
          iconSize: [34, 34],
        }),
        title: `${members.length} phones`,
      })
        .on('click', () => map.setView([lat, lng], Math.min(map.getZoom() + 2, CLUSTER_BELOW_ZOOM)))
        .addTo(clusters.current);
    }

    const bounds = map.getBounds();
    const inSight = views.filter(
      (view) =>
        view.fix &&
        !clustered.has(view.callerId) &&
        bounds.contains([view.fix.latitude, view.fix.longitude]),
    ).length;
    const labelled = inSight <= MAX_PERMANENT_LABELS;
    const seen = new Set<string>();
    for (const view of views) {
      seen.add(view.callerId);
      let phone = layers.current.get(view.callerId);
      const fix = view.fix;
      if (!fix) {
        if (phone) hide(phone);
        continue;
      }
      if (!phone) {
        phone = create(view.callerId, onSelectRef);
        layers.current.set(view.callerId, phone);
      }
      const visible = !clustered.has(view.callerId);
      const radius = grownRadius(fix, moment, settings);
      const colour = statusColours[view.status];
      const isSelected = view.callerId === selected;
      // Three keys, so that a stale phone's circle growing each second moves nothing else: a
      // label's position or text set again makes Leaflet measure it (a layout of the page).
      const dotKey = `${fix.seq}|${view.status}|${visible}|${isSelected}|${labelled}`;
      const circleKey = `${fix.seq}|${view.status}|${Math.round(radius)}|${visible}`;
      const label =
        `${escapeHtml(view.label ?? view.number)} · ${phoneStatusLabels[view.status]}` +
        (view.jumpFlagged ? ' · impossible jump' : '');
      const position = L.latLng(fix.latitude, fix.longitude);
      if (!visible) {
        phone.dot.remove();
        phone.circle.remove();
        phone.drawn = '';
      } else {
        const [lastDot, lastCircle] = phone.drawn.split('#');
        if (dotKey !== lastDot) {
          if (!phone.dot.getLatLng().equals(position)) phone.dot.setLatLng(position);
          phone.dot
            .setStyle({
              color: isSelected ? '#000' : '#fff',
              weight: isSelected ? 3 : 2,
              fillColor: colour,
            })
            .setRadius(isSelected ? 10 : 8);
          if (phone.dot.getTooltip()?.getContent() !== label) phone.dot.setTooltipContent(label);
          setPermanentLabel(phone.dot, labelled || isSelected);
          if (!map.hasLayer(phone.dot)) phone.dot.addTo(map);
        }
        if (circleKey !== lastCircle) {
          phone.circle
            .setLatLng(position)
            .setRadius(radius)
            .setStyle({
              color: colour,
              fillColor: colour,
              dashArray: view.status === 'stale' ? '6 6' : undefined,
            });
          if (!map.hasLayer(phone.circle)) phone.circle.addTo(map);
        }
        phone.drawn = `${dotKey}#${circleKey}`;
      }
      drawTrail(map, phone, store.phones.get(view.callerId)?.fixes ?? [], fix, {
        live: at === null,
        show: showTrails,
        colour: statusColours[view.status],
      });
    }
    for (const [callerId, phone] of layers.current) {
      if (seen.has(callerId)) continue;
      hide(phone);
      layers.current.delete(callerId);
    }
  }, [map, views, store, settings, moment, at, showTrails, selected, viewport]);

  return null;
}

function create(callerId: string, onSelect: { current: (callerId: string) => void }): PhoneLayers {
  const dot = L.circleMarker([0, 0], {
    radius: 8,
    color: '#fff',
    weight: 2,
    fillOpacity: 1,
    bubblingMouseEvents: false,
  })
    .bindTooltip('', {
      permanent: true,
      direction: 'right',
      offset: [10, 0],
      className: 'locus-overwatch-label',
    })
    .on('click', () => onSelect.current(callerId));
  const circle = L.circle([0, 0], { radius: 1, weight: 1, fillOpacity: 0.08, interactive: false });
  const trail = L.polyline([], { weight: 2, opacity: 0.7, interactive: false });
  const jumps = L.polyline([], {
    weight: 3,
    color: jumpColour,
    dashArray: '2 8',
    opacity: 0.9,
    interactive: false,
  });
  return { dot, circle, trail, jumps, drawn: '', trailKey: '', trailLast: null, trailCount: 0 };
}

/**
 * A phone's trail up to the fix shown, a jump drawn apart (dashed) and never as a walk. Live, a
 * new fix at the end is appended (a long watch would otherwise redraw hours of trail for every
 * fix of every phone); anything else (a late fix, a jump, the timeline) redraws it.
 */
function drawTrail(
  map: L.Map,
  phone: PhoneLayers,
  fixes: readonly WatchFix[],
  shown: WatchFix,
  options: { live: boolean; show: boolean; colour: string },
): void {
  const key = `${options.show}|${options.live ? 'live' : shown.seq}|${options.colour}`;
  if (!options.show) {
    if (phone.trailKey !== key) {
      phone.trail.remove();
      phone.jumps.remove();
      phone.trailKey = key;
    }
    return;
  }
  const appendable =
    options.live &&
    phone.trailKey === key &&
    phone.trailCount > 0 &&
    fixes[phone.trailCount - 1] === phone.trailLast &&
    fixes.slice(phone.trailCount).every((f) => !f.impossibleJump);
  if (appendable) {
    if (fixes.length === phone.trailCount) return;
    const rings = phone.trail.getLatLngs() as L.LatLng[][];
    const last = rings[rings.length - 1]!;
    for (const f of fixes.slice(phone.trailCount))
      phone.trail.addLatLng([f.latitude, f.longitude], last);
  } else {
    const upTo = fixes.filter((f) => f.capturedAt <= shown.capturedAt);
    const walk: L.LatLngExpression[][] = [[]];
    const jumps: L.LatLngExpression[][] = [];
    upTo.forEach((f, index) => {
      const point: L.LatLngExpression = [f.latitude, f.longitude];
      if (f.impossibleJump && index > 0) {
        const previous = upTo[index - 1]!;
        jumps.push([[previous.latitude, previous.longitude], point]);
        walk.push([point]);
      } else walk.at(-1)!.push(point);
    });
    phone.trail.setLatLngs(walk).setStyle({ color: options.colour });
    phone.jumps.setLatLngs(jumps);
    phone.trail.addTo(map);
    phone.jumps.addTo(map);
  }
  phone.trailKey = key;
  phone.trailCount = options.live ? fixes.length : 0;
  phone.trailLast = options.live ? (fixes[fixes.length - 1] ?? null) : null;
}

/** Leaflet fixes a tooltip's permanence when bound: rebind it when that must change. */
function setPermanentLabel(dot: L.CircleMarker, permanent: boolean): void {
  const tooltip = dot.getTooltip();
  if (!tooltip || tooltip.options.permanent === permanent) return;
  const content = tooltip.getContent();
  dot.unbindTooltip().bindTooltip(content ?? '', { ...tooltip.options, permanent });
}

function hide(phone: PhoneLayers): void {
  phone.dot.remove();
  phone.circle.remove();
  phone.trail.remove();
  phone.jumps.remove();
  phone.drawn = '';
  phone.trailKey = '';
  phone.trailCount = 0;
  phone.trailLast = null;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function Geofences({ settings }: { settings: WatchSettings }) {
  const map = useMap();
  useEffect(() => {
    const group = L.layerGroup(
      settings.geofences.map((fence) =>
        L.polygon(
          fence.polygon.coordinates.map((ring) => ring.map(([lng, lat]) => L.latLng(lat, lng))),
          {
            color: geofenceColour,
            weight: 2,
            dashArray: '8 4',
            fillOpacity: 0.06,
            interactive: false,
          },
        ).bindTooltip(fence.name, { direction: 'center', className: 'locus-overwatch-fence' }),
      ),
    ).addTo(map);
    return () => {
      group.remove();
    };
  }, [map, settings.geofences]);
  return null;
}

/** Centres the phone picked in the list, and fits every phone once when the first fixes arrive. */
function Framing({
  views,
  focus,
}: {
  views: PhoneView[];
  focus: { callerId: string; at: number } | null;
}) {
  const map = useMap();
  const fitted = useRef(false);
  const viewsRef = useRef(views);
  viewsRef.current = views;
  useEffect(() => {
    if (fitted.current) return;
    const points = views
      .filter((view) => view.fix)
      .map((view) => L.latLng(view.fix!.latitude, view.fix!.longitude));
    if (points.length === 0) return;
    fitted.current = true;
    map.fitBounds(L.latLngBounds(points), { padding: [48, 48], maxZoom: 15, animate: false });
  }, [map, views]);
  useEffect(() => {
    const fix = focus && viewsRef.current.find((view) => view.callerId === focus.callerId)?.fix;
    if (!fix) return;
    map.setView([fix.latitude, fix.longitude], Math.max(map.getZoom(), CLUSTER_BELOW_ZOOM + 1), {
      animate: false,
    });
  }, [map, focus]);
  return null;
}

export function WatchMap(props: {
  views: PhoneView[];
  store: WatchStore;
  settings: WatchSettings;
  moment: number;
  at: number | null;
  showTrails: boolean;
  selected: string | null;
  focus: { callerId: string; at: number } | null;
  onSelect: (callerId: string) => void;
  tiles: MapTiles | undefined;
}) {
  const descriptionId = useId();
  return (
    <Box pos="relative" style={{ flex: 1, minHeight: 360, minWidth: 0, isolation: 'isolate' }}>
      <MapContainer
        center={[39.5, -98.35]}
        zoom={4}
        preferCanvas
        style={{ position: 'absolute', inset: 0 }}
      >
        <BaseMap tiles={props.tiles} />
        <Geofences settings={props.settings} />
        <PhonesLayer {...props} />
        <Framing views={props.views} focus={props.focus} />
        <DescribeMap label="Overwatch map" descriptionId={descriptionId} />
      </MapContainer>
      <VisuallyHidden id={descriptionId}>
        Arrow keys move the map, plus and minus zoom. Every phone on it is also in the list beside
        the map, with its status and the age of its last fix.
      </VisuallyHidden>
    </Box>
  );
}
