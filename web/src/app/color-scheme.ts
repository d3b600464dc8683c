import type { ColorScheme } from '@locus/contract';
import { useSyncExternalStore } from 'react';
import { layoutOf, type RouteHandle } from './route-meta';
import { useSession } from './session';

/**
 * The console's theme (issue 24: a dark theme for night shifts in dim dispatch rooms). The
 * signed-in user's choice, kept on their account so that it follows them to any console;
 * `auto` follows the system's `prefers-color-scheme`, live. The public site, the account pages
 * and anyone signed out stay light: they are drawn for a light page.
 */
export function resolveColorScheme(
  preference: ColorScheme | null,
  systemPrefersDark: boolean,
): 'light' | 'dark' {
  if (preference === null) return 'light';
  if (preference === 'auto') return systemPrefersDark ? 'dark' : 'light';
  return preference;
}

const darkQuery = '(prefers-color-scheme: dark)';

function subscribeToSystem(listener: () => void): () => void {
  const query = window.matchMedia(darkQuery);
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}

const systemPrefersDark = () => window.matchMedia(darkQuery).matches;

/** What the app's data router exposes that this needs: the matched routes, and their changes. */
export interface RouterLike {
  state: { matches: ReadonlyArray<{ route: { handle?: unknown } }> };
  subscribe(listener: () => void): () => void;
}

/** Whether the deepest route with metadata is drawn in one of the console's layouts. */
function showsConsole(router: RouterLike): boolean {
  const handles = router.state.matches.map(
    (match) => match.route.handle as RouteHandle | undefined,
  );
  const meta = handles.findLast((handle) => handle?.meta !== undefined)?.meta;
  if (meta === undefined) return false;
  const layout = layoutOf(meta);
  return layout !== null && layout !== 'auth';
}

/** The scheme to draw the page in now: for MantineProvider's `forceColorScheme`. */
export function useColorScheme(router: RouterLike): 'light' | 'dark' {
  const { user } = useSession();
  const inConsole = useSyncExternalStore(
    (listener) => router.subscribe(listener),
    () => showsConsole(router),
  );
  const prefersDark = useSyncExternalStore(subscribeToSystem, systemPrefersDark);
  return resolveColorScheme(user && inConsole ? user.colorScheme : null, prefersDark);
}
