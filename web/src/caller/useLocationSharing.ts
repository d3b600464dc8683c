import { useEffect, useState, useSyncExternalStore } from 'react';
import { LocationSharing, type SharingState } from './location-sharing';

/** The caller's sharing for one link token, stopped when the page goes away. */
export function useLocationSharing(token: string): {
  state: SharingState;
  start: () => void;
  stop: () => void;
} {
  const [sharing] = useState(() => new LocationSharing(token));
  useEffect(() => sharing.dispose, [sharing]);
  const state = useSyncExternalStore(sharing.subscribe, sharing.getState);
  return { state, start: sharing.start, stop: sharing.stop };
}
