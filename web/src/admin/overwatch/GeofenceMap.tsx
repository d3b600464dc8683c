import 'leaflet/dist/leaflet.css';
import type { Position } from '@locus/contract';
import { Box } from '@mantine/core';
import L, { type LatLngExpression } from 'leaflet';
import { useEffect, useMemo } from 'react';
import {
  CircleMarker,
  MapContainer,
  Polygon,
  Polyline,
  Tooltip,
  useMap,
  useMapEvents,
} from 'react-leaflet';
import { BaseMap } from '../../map/BaseMap';
import { usePublicConfig } from '../../public-site/public-config';
import type { GeofenceDraft } from './form-model';

const DEFAULT_CENTER: LatLngExpression = [39.5, -98.35];
const DEFAULT_ZOOM = 4;

/** GeoJSON is [longitude, latitude]; Leaflet wants [latitude, longitude]. */
const latLng = ([longitude, latitude]: Position): [number, number] => [latitude, longitude];

/** Shows every geofence when their number changes (one added, pasted or deleted). */
function FitGeofences({ geofences, drawing }: { geofences: GeofenceDraft[]; drawing: boolean }) {
  const map = useMap();
  const count = geofences.length;
  useEffect(() => {
    if (drawing || count === 0) return;
    const points = geofences.flatMap((fence) => fence.polygon.coordinates[0]!.map(latLng));
    const bounds = L.latLngBounds(points);
    if (bounds.isValid()) map.fitBounds(bounds, { padding: [24, 24], maxZoom: 16, animate: false });
    // Only on a change of count: a rename must not move the map under the admin.
  }, [map, count, drawing]);
  return null;
}

/** Clicks add corners while drawing; double-click zoom would eat quick clicks then. */
function DrawClicks({
  drawing,
  onAddPoint,
}: {
  drawing: boolean;
  onAddPoint: (position: Position) => void;
}) {
  const map = useMap();
  useEffect(() => {
    const container = map.getContainer();
    if (drawing) {
      map.doubleClickZoom.disable();
      container.style.cursor = 'crosshair';
    } else {
      map.doubleClickZoom.enable();
      container.style.cursor = '';
    }
  }, [map, drawing]);
  useMapEvents({
    click(event) {
      if (!drawing) return;
      const { lat, lng } = event.latlng.wrap();
      onAddPoint([Math.round(lng * 1e6) / 1e6, Math.round(lat * 1e6) / 1e6]);
    },
  });
  return null;
}

/** The map is a keyboard stop of its own (arrows pan, + and − zoom): it says what it shows. */
function DescribeMap({ label, descriptionId }: { label: string; descriptionId: string }) {
  const map = useMap();
  useEffect(() => {
    const element = map.getContainer();
    element.setAttribute('role', 'region');
    element.setAttribute('aria-label', label);
    element.setAttribute('aria-describedby', descriptionId);
  }, [map, label, descriptionId]);
  return null;
}

/**
 * The group's geofences on a map, and the outline being drawn: its corners, its edges and
 * (from three corners) the polygon it will be.
 */
export function GeofenceMap({
  geofences,
  drawing,
  points,
  onAddPoint,
  descriptionId,
}: {
  geofences: GeofenceDraft[];
  drawing: boolean;
  points: Position[];
  onAddPoint: (position: Position) => void;
  descriptionId: string;
}) {
  const tiles = usePublicConfig().data?.map;
  const outline = useMemo(() => points.map(latLng), [points]);
  return (
    // Leaflet's panes use z-indexes up to 1000; isolated, they stay under modals and notices.
    <Box
      pos="relative"
      h={360}
      style={{
        isolation: 'isolate',
        borderRadius: 'var(--mantine-radius-md)',
        overflow: 'hidden',
        outline: drawing ? '3px solid var(--mantine-color-orange-7)' : undefined,
      }}
      data-testid="geofence-map"
      data-drawing={drawing ? 'true' : 'false'}
    >
      <MapContainer
        center={DEFAULT_CENTER}
        zoom={DEFAULT_ZOOM}
        style={{ position: 'absolute', inset: 0 }}
      >
        <BaseMap tiles={tiles} />
        {geofences.map((fence) => (
          <Polygon
            key={fence.key}
            positions={fence.polygon.coordinates.map((ring) => ring.map(latLng))}
            pathOptions={{ color: '#1c4e80', weight: 2, fillOpacity: 0.15 }}
          >
            <Tooltip sticky>{fence.name}</Tooltip>
          </Polygon>
        ))}
        {outline.length >= 3 && (
          <Polygon
            positions={outline}
            pathOptions={{ color: '#c2410c', weight: 2, dashArray: '6 4', fillOpacity: 0.2 }}
          />
        )}
        {outline.length === 2 && (
          <Polyline positions={outline} pathOptions={{ color: '#c2410c', weight: 2 }} />
        )}
        {outline.map((position, index) => (
          <CircleMarker
            key={`${index}-${position[0]}-${position[1]}`}
            center={position}
            radius={5}
            pathOptions={{ color: '#c2410c', fillColor: '#ffffff', fillOpacity: 1, weight: 2 }}
          />
        ))}
        <FitGeofences geofences={geofences} drawing={drawing} />
        <DrawClicks drawing={drawing} onAddPoint={onAddPoint} />
        <DescribeMap label="Geofence map" descriptionId={descriptionId} />
      </MapContainer>
    </Box>
  );
}
