import { useEffect } from 'react';
import { holdKeepAlive } from './activity';

/** Keeps the console from signing out for inactivity while `active` (a caller being tracked). */
export function useKeepSessionAlive(active: boolean): void {
  useEffect(() => (active ? holdKeepAlive() : undefined), [active]);
}
