/** The demo's accounts, documented in the README. Every one signs in with DEMO_PASSWORD. */
export const DEMO_PASSWORD = 'Locus-demo-2026';

export const demoTeams = [
  {
    teamName: 'Locus',
    isPlatformOwner: true,
    permissionLevels: ['premiere', 'enterprise'],
    exportOnEnd: false,
  },
  {
    teamName: 'Demo County 911',
    isPlatformOwner: false,
    permissionLevels: ['premiere', 'enterprise'],
    exportOnEnd: true,
  },
  {
    teamName: 'Neighbouring County',
    isPlatformOwner: false,
    permissionLevels: [],
    exportOnEnd: false,
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
