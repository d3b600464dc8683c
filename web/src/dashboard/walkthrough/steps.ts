/**
 * The dashboard's guided tour (SPEC.md §3 hasSeenWalkthrough): what it points at, in order.
 * Each target carries `data-tour="<target>"` (HeaderControls, LogPanel).
 */
export interface TourStep {
  target: 'phone-number' | 'locate' | 'locate-many' | 'log';
  title: string;
  text: string;
}

export const tourSteps: readonly TourStep[] = [
  {
    target: 'phone-number',
    title: 'The caller’s number',
    text: 'Type the phone number of the person you need to find. A number without a leading + is taken as a US number (+1).',
  },
  {
    target: 'locate',
    title: 'Locate',
    text: 'Locate asks the emergency-data provider for the phone’s position. If it has none, you can text the caller a link that shares their location with you, with their consent.',
  },
  {
    target: 'locate-many',
    title: 'Many numbers at once',
    text: 'Locate Numbers texts several numbers you type; Locate by List texts the numbers of one of your team’s call lists. Each phone gets its own colour on the map.',
  },
  {
    target: 'log',
    title: 'The log',
    text: 'Everything that happens while you track (the request, the caller opening the link, each location) is written here with its time. This tour shows again until you end your first tracking.',
  },
];

/** `data-tour` value → the selector that finds it. */
export const tourTargetSelector = (target: TourStep['target']) => `[data-tour="${target}"]`;

/** "Skip tour" is remembered for the browser tab (SPEC.md sets the flag itself only when the first tracking ends). */
export const TOUR_SKIPPED_KEY = 'locus.walkthrough.skipped';

export function tourSkippedInThisTab(): boolean {
  try {
    return sessionStorage.getItem(TOUR_SKIPPED_KEY) === '1';
  } catch {
    // Storage refused (a privacy mode): the tour shows on each load, which is what the flag says.
    return false;
  }
}

export function rememberTourSkipped(): void {
  try {
    sessionStorage.setItem(TOUR_SKIPPED_KEY, '1');
  } catch {
    // Nothing to remember it in: it is hidden for this page load all the same.
  }
}
