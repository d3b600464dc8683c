import { Badge, VisuallyHidden } from '@mantine/core';
import { IconWorldOff } from '@tabler/icons-react';

/**
 * Says on the map that it shows the built-in outlines, not the tile server's map: streets and
 * places are missing, and the dispatcher should know why. The live region is on the page from
 * the start, so the change is announced (politely: it never interrupts a call in progress).
 */
export function OfflineMapNote({ offline }: { offline: boolean }) {
  return (
    <div
      role="status"
      aria-live="polite"
      style={{
        position: 'absolute',
        top: 10,
        left: '50%',
        transform: 'translateX(-50%)',
        zIndex: 1000,
        // Information only: drags and clicks go through to the map.
        pointerEvents: 'none',
      }}
    >
      {offline && (
        <Badge
          data-testid="offline-map"
          size="lg"
          variant="white"
          c="navy.9"
          tt="none"
          leftSection={<IconWorldOff size={16} aria-hidden />}
          style={{ boxShadow: '0 1px 4px rgba(0,0,0,.3)' }}
        >
          Offline map
          <VisuallyHidden>
            : the map server cannot be reached; showing outlines of countries, states and counties
          </VisuallyHidden>
        </Badge>
      )}
    </div>
  );
}
