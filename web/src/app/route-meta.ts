import type { UIMatch } from 'react-router';
import type { Requirement } from './permissions';

export type LayoutName = 'auth' | 'map' | 'admin' | 'overwatch' | 'training';

/**
 * Who may open a route (SPEC.md §2 "Access", §6): anyone; anyone, even mid-logout (sign-out);
 * signed-in users; signed-in users with the admin flag (isAdmin or isTeamAdmin).
 */
export type Access = 'public' | 'always' | 'login' | 'admin';

/** Each route's metadata, carried in react-router's `handle` (see `RouteHandle`). */
export interface RouteMeta {
  /** SPEC.md's route name, where it gives one. */
  name?: string;
  /** The document title. */
  title: string;
  access: Access;
  /** The default is the auth layout; `null` renders the page on its own. */
  layout?: LayoutName | null;
  /** Hides the chat assistant widget on this route. */
  chatbotHidden?: boolean;
  /** Team levels or company a route needs besides its access (SPEC.md §5, §9). */
  requires?: readonly Exclude<Requirement, 'admin'>[];
}

/** What each route carries in its `handle`: its metadata and, for a lazy page, its preload. */
export interface RouteHandle {
  meta: RouteMeta;
  /** Starts downloading the page's chunk (alongside its layout's, rather than after it). */
  preload?: () => void;
}

const fallback: RouteHandle = { meta: { title: 'Locus', access: 'public' } };

/** The handle of the deepest matched route that has one. */
export function routeHandle(matches: UIMatch[]): RouteHandle {
  for (let index = matches.length - 1; index >= 0; index -= 1) {
    const handle = matches[index]?.handle as RouteHandle | undefined;
    if (handle?.meta) return handle;
  }
  return fallback;
}

/** The metadata of the deepest matched route that has some. */
export function routeMeta(matches: UIMatch[]): RouteMeta {
  return routeHandle(matches).meta;
}

export function layoutOf(meta: RouteMeta): LayoutName | null {
  return meta.layout === undefined ? 'auth' : meta.layout;
}
