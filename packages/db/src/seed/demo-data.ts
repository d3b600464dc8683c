/** The demo's accounts, documented in the README. Every one signs in with DEMO_PASSWORD. */
export const DEMO_PASSWORD = 'Locus-demo-2026';

export const demoTeams = [
  {
    teamName: 'Locus',
    isPlatformOwner: true,
    permissionLevels: ['premiere', 'enterprise'],
    exportOnEnd: false,
    recordMedia: false,
    timeZone: 'UTC',
  },
  {
    teamName: 'Demo County 911',
    isPlatformOwner: false,
    permissionLevels: ['premiere', 'enterprise'],
    exportOnEnd: true,
    // Issue 19: the demo shows evidence recording of video.
    recordMedia: true,
    // The chat transcript shows times in UTC and in this zone (issue 12).
    timeZone: 'America/Chicago',
  },
  {
    teamName: 'Neighbouring County',
    isPlatformOwner: false,
    permissionLevels: [],
    exportOnEnd: false,
    recordMedia: false,
    timeZone: 'America/Denver',
  },
] as const;

export type DemoTeamName = (typeof demoTeams)[number]['teamName'];

export const demoUsers: ReadonlyArray<{
  email: string;
  firstName: string;
  lastName: string;
  isAdmin: boolean;
  team: DemoTeamName;
  role: 'admin' | 'member';
  agency: string;
}> = [
  {
    email: 'owner@locus.test',
    firstName: 'Olivia',
    lastName: 'Owner',
    isAdmin: true,
    team: 'Locus',
    role: 'admin',
    agency: 'Demo County 911 Communications',
  },
  {
    email: 'teamadmin@demo-county.test',
    firstName: 'Terry',
    lastName: 'Admin',
    isAdmin: false,
    team: 'Demo County 911',
    role: 'admin',
    agency: 'Demo County 911 Communications',
  },
  {
    email: 'dispatcher@demo-county.test',
    firstName: 'Dana',
    lastName: 'Dispatcher',
    isAdmin: false,
    team: 'Demo County 911',
    role: 'member',
    agency: 'Demo County 911 Communications',
  },
  {
    email: 'dispatcher2@demo-county.test',
    firstName: 'Devon',
    lastName: 'Dispatcher',
    isAdmin: false,
    team: 'Demo County 911',
    role: 'member',
    agency: 'Demo County 911 Communications',
  },
  {
    email: 'teamadmin@neighbour-county.test',
    firstName: 'Nadia',
    lastName: 'Admin',
    isAdmin: false,
    team: 'Neighbouring County',
    role: 'admin',
    agency: 'Neighbouring County Emergency Communications',
  },
  {
    email: 'dispatcher@neighbour-county.test',
    firstName: 'Nico',
    lastName: 'Neighbour',
    isAdmin: false,
    team: 'Neighbouring County',
    role: 'member',
    agency: 'Neighbouring County Emergency Communications',
  },
];

export const demoClearedDomains = [
  'locus.test',
  'demo-county.test',
  'neighbour-county.test',
] as const;

/**
 * Demo County 911's call lists. The numbers are in the simulator's "no provider record" range
 * (+1 202 555 0150–0199, see the README), so locating them goes on to a text message.
 */
export const demoCallLists: ReadonlyArray<{
  team: DemoTeamName;
  name: string;
  numbers: ReadonlyArray<{ phoneNumber: string; label: string }>;
}> = [
  {
    team: 'Demo County 911',
    name: 'Search and Rescue volunteers',
    numbers: [
      { phoneNumber: '+12025550170', label: 'SAR team lead' },
      { phoneNumber: '+12025550171', label: 'SAR volunteer 1' },
      { phoneNumber: '+12025550172', label: 'SAR volunteer 2' },
    ],
  },
  {
    team: 'Demo County 911',
    name: 'Coast patrol boats',
    numbers: [
      { phoneNumber: '+12025550175', label: 'Patrol boat 1' },
      { phoneNumber: '+12025550176', label: 'Patrol boat 2' },
    ],
  },
];

/**
 * Demo County 911's Overwatch group (issue 14): call-list numbers and a typed one, and a
 * geofence around the low ground by the river near the team's callers (see demo-history.ts).
 * Polygons are GeoJSON, [longitude, latitude].
 */
export const demoOverwatchGroups: ReadonlyArray<{
  team: DemoTeamName;
  name: string;
  language: 'en' | 'es' | 'fr' | 'zh';
  members: ReadonlyArray<{ phoneNumber: string; label: string }>;
  geofences: ReadonlyArray<{
    name: string;
    polygon: { type: 'Polygon'; coordinates: [number, number][][] };
  }>;
}> = [
  {
    team: 'Demo County 911',
    name: 'Flood zone volunteers',
    language: 'en',
    members: [
      { phoneNumber: '+12025550170', label: 'SAR team lead' },
      { phoneNumber: '+12025550171', label: 'SAR volunteer 1' },
      { phoneNumber: '+12025550175', label: 'Patrol boat 1' },
      { phoneNumber: '+12025550180', label: 'Shelter coordinator' },
    ],
    geofences: [
      {
        name: 'River flood zone',
        polygon: {
          type: 'Polygon',
          coordinates: [
            [
              [-88.1, 41.51],
              [-88.06, 41.51],
              [-88.055, 41.54],
              [-88.095, 41.545],
              [-88.1, 41.51],
            ],
          ],
        },
      },
    ],
  },
];

/**
 * Further fictional people, so that the admin area's tables, paging, "new users" and the
 * verification queue have something to show. They sign in with DEMO_PASSWORD too. `daysAgo` is
 * when they registered (spread over the last three months); `team: null` are people waiting
 * for the platform owner's verification (see `demoWaitingForVerification`). Unconfirmed ones
 * were invited by their team admin and have not followed the link yet.
 */
export interface DemoExtraUser {
  email: string;
  firstName: string;
  lastName: string;
  team: DemoTeamName | null;
  role: 'admin' | 'member';
  /** A listed agency (by name), or null for "My agency isn't listed" / an invited member. */
  agency: string | null;
  /** The agency name typed at registration when it was not listed. */
  companyName?: string;
  daysAgo: number;
  emailConfirmed: boolean;
}

const demoCounty = 'Demo County 911 Communications';
const neighbourCounty = 'Neighbouring County Emergency Communications';

const member = (
  email: string,
  firstName: string,
  lastName: string,
  team: DemoTeamName,
  agency: string | null,
  daysAgo: number,
  extra: Partial<Pick<DemoExtraUser, 'role' | 'emailConfirmed'>> = {},
): DemoExtraUser => ({
  email,
  firstName,
  lastName,
  team,
  agency,
  daysAgo,
  role: extra.role ?? 'member',
  emailConfirmed: extra.emailConfirmed ?? true,
});

export const demoExtraUsers: readonly DemoExtraUser[] = [
  // Demo County 911: a shift supervisor (team admin) and sixteen dispatchers.
  member('marcus.bell@demo-county.test', 'Marcus', 'Bell', 'Demo County 911', demoCounty, 88, {
    role: 'admin',
  }),
  member('aisha.khan@demo-county.test', 'Aisha', 'Khan', 'Demo County 911', demoCounty, 84),
  member('priya.raman@demo-county.test', 'Priya', 'Raman', 'Demo County 911', demoCounty, 76),
  member('jordan.alvarez@demo-county.test', 'Jordan', 'Alvarez', 'Demo County 911', demoCounty, 71),
  member('hannah.okafor@demo-county.test', 'Hannah', 'Okafor', 'Demo County 911', demoCounty, 65),
  member('liam.oconnell@demo-county.test', 'Liam', "O'Connell", 'Demo County 911', demoCounty, 60),
  member('sofia.rossi@demo-county.test', 'Sofia', 'Rossi', 'Demo County 911', demoCounty, 52),
  member('ethan.park@demo-county.test', 'Ethan', 'Park', 'Demo County 911', demoCounty, 47),
  member('grace.mwangi@demo-county.test', 'Grace', 'Mwangi', 'Demo County 911', demoCounty, 41),
  member('mateo.silva@demo-county.test', 'Mateo', 'Silva', 'Demo County 911', demoCounty, 35),
  member('chloe.dubois@demo-county.test', 'Chloe', 'Dubois', 'Demo County 911', demoCounty, 28),
  member('noah.fischer@demo-county.test', 'Noah', 'Fischer', 'Demo County 911', demoCounty, 21),
  member('zoe.campbell@demo-county.test', 'Zoe', 'Campbell', 'Demo County 911', demoCounty, 14),
  member('isaac.levine@demo-county.test', 'Isaac', 'Levine', 'Demo County 911', demoCounty, 9),
  member('maya.patel@demo-county.test', 'Maya', 'Patel', 'Demo County 911', null, 5, {
    emailConfirmed: false,
  }),
  member('lucas.nguyen@demo-county.test', 'Lucas', 'Nguyen', 'Demo County 911', null, 3, {
    emailConfirmed: false,
  }),
  member('ruby.thompson@demo-county.test', 'Ruby', 'Thompson', 'Demo County 911', null, 1, {
    emailConfirmed: false,
  }),
  // Neighbouring County: a second team admin and eight dispatchers.
  member(
    'owen.harris@neighbour-county.test',
    'Owen',
    'Harris',
    'Neighbouring County',
    neighbourCounty,
    80,
    {
      role: 'admin',
    },
  ),
  member(
    'fatima.haddad@neighbour-county.test',
    'Fatima',
    'Haddad',
    'Neighbouring County',
    neighbourCounty,
    70,
  ),
  member(
    'samuel.wright@neighbour-county.test',
    'Samuel',
    'Wright',
    'Neighbouring County',
    neighbourCounty,
    56,
  ),
  member(
    'ingrid.larsen@neighbour-county.test',
    'Ingrid',
    'Larsen',
    'Neighbouring County',
    neighbourCounty,
    44,
  ),
  member(
    'daniel.kim@neighbour-county.test',
    'Daniel',
    'Kim',
    'Neighbouring County',
    neighbourCounty,
    30,
  ),
  member(
    'elena.petrova@neighbour-county.test',
    'Elena',
    'Petrova',
    'Neighbouring County',
    neighbourCounty,
    19,
  ),
  member(
    'tomas.herrera@neighbour-county.test',
    'Tomás',
    'Herrera',
    'Neighbouring County',
    neighbourCounty,
    11,
  ),
  member(
    'amara.nwosu@neighbour-county.test',
    'Amara',
    'Nwosu',
    'Neighbouring County',
    neighbourCounty,
    6,
  ),
  member('ben.carter@neighbour-county.test', 'Ben', 'Carter', 'Neighbouring County', null, 2, {
    emailConfirmed: false,
  }),
  // The platform owner's own staff.
  member('julia.novak@locus.test', 'Julia', 'Novak', 'Locus', demoCounty, 86),
  member('ravi.menon@locus.test', 'Ravi', 'Menon', 'Locus', demoCounty, 38),
  // Waiting for verification (SPEC.md §2 /admin/verification/edit): confirmed, registration
  // complete, on no team, no decision yet.
  {
    // "My agency isn't listed": no agency, the name they typed (join-unlisted).
    email: 'carla.jimenez@riverbend-ems.test',
    firstName: 'Carla',
    lastName: 'Jimenez',
    team: null,
    role: 'member',
    agency: null,
    companyName: 'Riverbend Volunteer Ambulance Corps',
    daysAgo: 4,
    emailConfirmed: true,
  },
  {
    // A listed agency, but an e-mail domain nobody has cleared.
    email: 'walter.briggs@notareal-sheriff.test',
    firstName: 'Walter',
    lastName: 'Briggs',
    team: null,
    role: 'member',
    agency: 'Notareal County Sheriff Communications',
    daysAgo: 2,
    emailConfirmed: true,
  },
];

/** The two people the verification queue starts with. */
export const demoWaitingForVerification = [
  'carla.jimenez@riverbend-ems.test',
  'walter.briggs@notareal-sheriff.test',
] as const;

/**
 * Locked out after too many failed sign-ins, so the users screen shows a lock to lift. The lock
 * lives in Redis, not Postgres: `lockDemoAccounts` sets it (see seed/demo-locks.ts).
 */
export const demoLockedUsers = ['noah.fischer@demo-county.test'] as const;

/**
 * Dispatchers who have not ended a first tracking yet, so the dashboard's guided tour shows for
 * them (SPEC.md §3 hasSeenWalkthrough). Everyone else in the demo has used Locus before.
 */
export const demoNewDispatchers = [
  'isaac.levine@demo-county.test',
  'amara.nwosu@neighbour-county.test',
] as const;
