/**
 * The landing page's copy, kept apart from layout so that wording changes are reviewed as
 * wording. Every claim here describes what Locus really does.
 */

/** SPEC.md §1 and §9, word for word. */
export const statistics = [
  { value: '158,000+', label: 'successful tracks' },
  { value: 'under 50ms', label: 'response' },
  { value: '24/7', label: 'support' },
] as const;

export type FeatureKey =
  | 'standard-search'
  | 'overwatch'
  | 'multi-language-sms'
  | 'search-transfer'
  | 'admin-portal'
  | 'analytics'
  | 'map'
  | 'api';

/** SPEC.md §1's eight features, in its order. */
export const features: ReadonlyArray<{ key: FeatureKey; title: string; description: string }> = [
  {
    key: 'standard-search',
    title: 'Standard search',
    description:
      "Enter a caller's number and Locus first asks an emergency-data provider for the device's location. If none is available, one click texts the caller a secure link; once they agree to share, their phone's position and its accuracy radius appear on your map and keep updating while the page stays open.",
  },
  {
    key: 'overwatch',
    title: 'Multi-search Overwatch',
    description:
      'Follow many numbers at once on one live map. Type the numbers in or pick your saved call lists, send every request in one step, and see each person\u2019s position, connection and sharing state side by side. Built for search and rescue, evacuations and large incidents.',
  },
  {
    key: 'multi-language-sms',
    title: 'Multi-language SMS',
    description:
      'Send the location request in English, Spanish, French or Mandarin. The text message and the page the caller opens are in the language you choose, so nobody has to guess what they are agreeing to in a stressful moment.',
  },
  {
    key: 'search-transfer',
    title: 'Active search transfer',
    description:
      'Hand a live search to another dispatcher on your team at a shift change or when a call moves desks. They accept the transfer, receive every location received so far, and carry on; the caller does not have to share again.',
  },
  {
    key: 'admin-portal',
    title: 'Admin portal',
    description:
      "Team admins invite and remove users, keep call lists up to date, approve coast-guard members and set the links in their team's menu. Access follows each person's role, and every account is confirmed once a year.",
  },
  {
    key: 'analytics',
    title: 'Analytics',
    description:
      'See how your team uses Locus over any date range: searches per day and month, case durations, accuracy radius, languages used, chat use and per-dispatcher activity. Useful for staffing, training and reporting to your board.',
  },
  {
    key: 'map',
    title: 'Map features',
    description:
      "Every location is drawn with its accuracy circle, altitude and address when available, along with the caller's trail. You see at a glance whether the caller is connected, has the page open and is still sharing, and every event of the search is kept in its log.",
  },
  {
    key: 'api',
    title: 'API suite',
    description:
      'Bring Locus into your CAD or your own tools through a documented REST and websocket API with an OpenAPI description. Start searches, request locations and receive live fixes in order, with the same no-fix-lost delivery as the console.',
  },
];

export type AgencyKey = 'psap' | 'sar' | 'coast-guard' | 'law-enforcement' | 'fire-ems' | 'campus';

/** Partner highlights: the kinds of agency Locus is built with and for (no real agencies named). */
export const agencyTypes: ReadonlyArray<{ key: AgencyKey; title: string; description: string }> = [
  {
    key: 'psap',
    title: '911 communication centers',
    description: 'County and regional PSAPs locating callers who cannot say where they are.',
  },
  {
    key: 'sar',
    title: 'Search and rescue teams',
    description: 'Volunteer and professional teams narrowing a search area before deploying.',
  },
  {
    key: 'coast-guard',
    title: 'Coast guard units',
    description: 'Sector command centers finding boaters in distress near the shore.',
  },
  {
    key: 'law-enforcement',
    title: 'Law enforcement',
    description: 'State and local agencies responding to welfare checks and crimes in progress.',
  },
  {
    key: 'fire-ems',
    title: 'Fire and EMS dispatch',
    description: 'Getting crews to the right trailhead, building or mile marker the first time.',
  },
  {
    key: 'campus',
    title: 'Campus and venue safety',
    description: 'University, stadium and resort teams covering large, busy grounds.',
  },
];

/** The "Learn" section: how a search works, step by step. */
export const howItWorks = [
  {
    title: 'Enter the number',
    description:
      "The dispatcher types the caller's number. Locus asks an emergency-data provider for the device's location straight away.",
  },
  {
    title: 'The caller agrees to share',
    description:
      'If no location comes back, Locus texts the caller a link. Their browser asks for permission; there is nothing to install and they can stop at any time.',
  },
  {
    title: 'See them live',
    description:
      'Each location streams to your map as the phone reports it, with its accuracy circle, and stays in order even if your connection drops for a moment.',
  },
] as const;
