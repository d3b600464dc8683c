import { useEffect } from 'react';
import { useMap } from 'react-leaflet';

/**
 * The map is a keyboard stop of its own (Leaflet: arrows pan, + and − zoom); it says so, and what
 * it shows. For any react-leaflet `MapContainer`.
 */
export function DescribeMap({ label, descriptionId }: { label: string; descriptionId: string }) {
  const map = useMap();
  useEffect(() => {
    const element = map.getContainer();
    element.setAttribute('role', 'region');
    element.setAttribute('aria-label', label);
    element.setAttribute('aria-describedby', descriptionId);
  }, [map, label, descriptionId]);
  return null;
}
