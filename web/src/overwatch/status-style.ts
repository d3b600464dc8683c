import type { PhoneStatus } from '@locus/contract';

/**
 * One colour per status on the map and in the list. Colour is never the only cue: the list
 * says the status in words and the map's tooltips name it too.
 */
export const statusColours: Record<PhoneStatus, string> = {
  sharing: '#2b8a3e',
  stale: '#e8590c',
  stopped: '#495057',
  denied: '#c92a2a',
  waiting: '#1971c2',
  'never-opened': '#868e96',
};

/** The list's badges: the same hues, dark enough for white text (WCAG 1.4.3, at least 5:1). */
export const statusBadgeColours: Record<PhoneStatus, string> = {
  sharing: '#1e6b30',
  stale: '#a83e08',
  stopped: '#343a40',
  denied: '#c92a2a',
  waiting: '#1864ab',
  'never-opened': '#495057',
};

export const jumpColour = '#c2255c';
export const geofenceColour = '#f08c00';
