import type { PublicConfig, Team } from '@locus/contract';
import { meetsAll, type Permissions, type Requirement } from './permissions';

/** One entry of a user menu: a route, an external page (new tab), or something the layout does. */
export type MenuItem =
  | { kind: 'route'; label: string; to: string }
  | { kind: 'external'; label: string; href: string }
  | { kind: 'action'; label: string; action: 'profile' | 'change-email' };

interface Gated<T> {
  item: T;
  requires?: readonly Requirement[];
}

function visible<T>(entries: Gated<T>[], permissions: Permissions): T[] {
  return entries
    .filter((entry) => meetsAll(permissions, entry.requires ?? []))
    .map((entry) => entry.item);
}

const backToMap: MenuItem = { kind: 'route', label: 'Back to Map', to: '/dashboard' };
const admin: MenuItem = { kind: 'route', label: 'Admin', to: '/admin' };
const overwatch: MenuItem = { kind: 'route', label: 'Overwatch', to: '/overwatch' };
const trainingVideos: MenuItem = { kind: 'route', label: 'Training Videos', to: '/training' };
const signOut: MenuItem = { kind: 'route', label: 'Sign Out', to: '/auth/sign-out' };

/**
 * Overwatch needs the premiere level (SPEC.md §2, §9), and its route the admin flag (§2), so the
 * entry shows only to users who can open it.
 */
const overwatchRequires: Requirement[] = ['premiere', 'admin'];

/** SPEC.md §2 "Map layout header" user menu; the overwatch layout has the same one. */
export function mapMenu(permissions: Permissions, config: PublicConfig | undefined): MenuItem[] {
  return visible<MenuItem>(
    [
      { item: { kind: 'action', label: 'Profile', action: 'profile' } },
      { item: backToMap },
      { item: admin, requires: ['admin'] },
      { item: overwatch, requires: overwatchRequires },
      { item: trainingVideos },
      ...(config
        ? [{ item: { kind: 'external', label: 'FAQ', href: config.links.faq } as const }]
        : []),
      { item: signOut },
    ],
    permissions,
  );
}

/** SPEC.md §2 "Admin layout" menu. */
export function adminMenu(permissions: Permissions): MenuItem[] {
  return visible<MenuItem>(
    [
      { item: backToMap },
      { item: overwatch, requires: overwatchRequires },
      { item: trainingVideos },
      { item: signOut },
    ],
    permissions,
  );
}

/** SPEC.md §2 "Training layout" menu. */
export function trainingMenu(
  permissions: Permissions,
  config: PublicConfig | undefined,
): MenuItem[] {
  return visible<MenuItem>(
    [
      { item: backToMap },
      { item: admin, requires: ['admin'] },
      { item: overwatch, requires: overwatchRequires },
      { item: { kind: 'action', label: 'Change Email', action: 'change-email' } },
      ...(config
        ? [
            {
              item: {
                kind: 'external',
                label: 'Contact Support',
                href: config.links.helpCentre,
              } as const,
            },
          ]
        : []),
      { item: signOut },
    ],
    permissions,
  );
}

export interface SidebarItem {
  label: string;
  to: string;
}

/** SPEC.md §2 "Admin layout" sidebar, with §5 "Sidebar visibility". */
export function adminSidebar(permissions: Permissions): SidebarItem[] {
  return visible<SidebarItem>(
    [
      { item: { label: 'USERS', to: '/admin/users' } },
      {
        item: { label: 'VERIFICATION', to: '/admin/verification/edit' },
        requires: ['platform-owner'],
      },
      { item: { label: 'TEAMS', to: '/admin/teams' } },
      // Issue 15: past sessions as evidence (consent receipts, exports, legal hold).
      { item: { label: 'SESSIONS', to: '/admin/sessions' } },
      { item: { label: 'API', to: '/admin/admin-api' }, requires: ['enterprise'] },
      { item: { label: 'TEAM | USER METRICS', to: '/admin/metrics' }, requires: ['metrics'] },
      {
        item: { label: 'PLATFORM METRICS', to: '/admin/platform-metrics' },
        requires: ['platform-owner'],
      },
      { item: { label: 'OVERWATCH', to: '/admin/overwatch' }, requires: ['premiere'] },
      { item: { label: 'DEV', to: '/admin/dev' }, requires: ['platform-owner'] },
      { item: { label: 'AUDIT', to: '/admin/audit' } },
    ],
    permissions,
  );
}

/**
 * The team's own links (SPEC.md §3 Team: "the first team in the user's list may carry the
 * custom content"): the user's first active team, the one they locate for.
 */
export function customLinks(teams: Team[]): Team['customContent']['links'] {
  return (
    teams.find((team) => team.isActive)?.customContent.links ?? { header: [], headerDropdown: [] }
  );
}
