import { createContext, useContext, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

/**
 * The map layout's header has room for the page's own controls (SPEC.md §2 "Map layout
 * header": Locate before tracking, Locating and End Tracking while tracking). The layout owns
 * the header, the page owns the tracking state, so the page renders its controls into the
 * header through a portal instead of lifting its state into the layout.
 */
export const MapHeaderSlotContext = createContext<HTMLElement | null>(null);

/** Renders its children in the map layout's header; nothing outside the map layout. */
export function MapHeaderControls({ children }: { children: ReactNode }) {
  const slot = useContext(MapHeaderSlotContext);
  return slot ? createPortal(children, slot) : null;
}
