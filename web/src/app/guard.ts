import { meets, meetsAll, permissionsOf, type Permissions } from './permissions';
import type { RouteMeta } from './route-meta';
import { isSessionValid, type Session } from './session';

export const paths = {
  site: '/',
  dashboard: '/dashboard',
  signIn: '/auth/sign-in',
  signOut: '/auth/sign-out',
  register: '/register/',
  completeUscg: '/register/complete-uscg',
  admin: '/admin',
} as const;

export type GuardDecision =
  | { action: 'allow' }
  /** The session has expired: log out, then decide again as an anonymous visitor. */
  | { action: 'logout' }
  /** `notice`: why a signed-in user was sent away, shown to them where they land. */
  | { action: 'redirect'; to: string; notice?: string }
  /** The coast-guard rule needs the public settings (or the contract), which are still loading. */
  | { action: 'wait' };

export interface GuardInput {
  pathname: string;
  meta: RouteMeta;
  session: Session;
  nowSeconds: number;
  /**
   * Whether an address belongs to the coast guard (the contract's `isCoastGuardEmail` with the
   * public settings). Undefined while GET /api/v1/config, or the contract, is loading.
   */
  isCoastGuardEmail: ((email: string) => boolean) | undefined;
}

/**
 * The platform owner's pages (DEV, VERIFICATION, PLATFORM METRICS) say why they sent someone
 * away: these are links operators paste to each other, and a silent bounce looks like a bug.
 */
export const platformOwnerOnlyNotice =
  "That page is for the platform owner's staff only (the company that runs Locus).";

/** Overwatch (its admin screens and the screen itself) is a premiere-level feature (issue 14). */
export const premiereOnlyNotice =
  'Overwatch needs your team to have the premiere level. Ask your agency administrator or Locus sales.';

/**
 * Why a route refused someone. The premiere notice only when the level is what is missing: a
 * dispatcher of a premiere team is refused an admin route for their role, not their level.
 */
function refusalNotice(meta: RouteMeta, permissions: Permissions): { notice?: string } {
  if (meta.requires?.includes('platform-owner')) return { notice: platformOwnerOnlyNotice };
  if (meta.requires?.includes('premiere') && permissions.admin && !permissions.premiere)
    return { notice: premiereOnlyNotice };
  return {};
}

function isAuthRoute(pathname: string): boolean {
  return pathname === '/auth' || pathname.startsWith('/auth/');
}

/** SPEC.md §4 "Route guard", in its order, with the roles of §6 and the levels of §5. */
export function decide({
  pathname,
  meta,
  session,
  nowSeconds,
  isCoastGuardEmail,
}: GuardInput): GuardDecision {
  if (meta.access === 'always') return { action: 'allow' };

  const { user, teams } = session;
  if (user !== null && !isSessionValid(session, nowSeconds)) return { action: 'logout' };

  if (user === null) {
    return meta.access === 'public' ? { action: 'allow' } : { action: 'redirect', to: paths.site };
  }

  if (!teams.some((team) => team.isActive)) {
    if (isCoastGuardEmail === undefined) return { action: 'wait' };
    // The registration pages stay open: the e-mail confirmation link must work while waiting.
    if (isCoastGuardEmail(user.email) && !pathname.startsWith(paths.register)) {
      return { action: 'redirect', to: paths.completeUscg };
    }
  }

  if (pathname === paths.site || isAuthRoute(pathname)) {
    return { action: 'redirect', to: paths.dashboard };
  }

  const permissions = permissionsOf(user, teams);
  if (meta.access === 'admin' && !meets(permissions, 'admin')) {
    return { action: 'redirect', to: paths.dashboard, ...refusalNotice(meta, permissions) };
  }
  if (meta.requires && !meetsAll(permissions, meta.requires)) {
    return {
      action: 'redirect',
      to: pathname.startsWith(`${paths.admin}/`) ? paths.admin : paths.dashboard,
      ...refusalNotice(meta, permissions),
    };
  }
  return { action: 'allow' };
}
