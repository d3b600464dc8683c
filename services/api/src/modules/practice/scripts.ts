import type { SmsLanguage } from '@locus/contract';

/**
 * Practice mode (issue 14): what a simulated caller does, as data. A script is a list of steps,
 * each sent a number of paces after the one before it (`PRACTICE_PACE_MS`, 2 s by default, so a
 * pace is one step of the walk). Every step is a frame the caller's page itself sends (see
 * `callerClientEvents` in packages/contract/src/realtime.ts and web/src/caller/), so the session
 * sees exactly what a real phone would make it see.
 */
export type PracticeStep =
  | { after: number; send: 'device'; permission: 'prompt' | 'granted' | 'denied' }
  /** The caller tapped Share (`true`) or Stop sharing (`false`). */
  | { after: number; send: 'sharing'; sharing: boolean }
  /** The page is about to ask the browser for the position (the permission prompt). */
  | { after: number; send: 'prompt-shown' }
  /** The browser refused the position, as the page reports it. */
  | { after: number; send: 'sharing-error'; code: 'permission-denied'; message: string }
  /** One position: `route[point]`, taken now. */
  | { after: number; send: 'fix'; point: number; accuracy: number }
  /** Nothing at all: the phone stays connected and sends no position ("goes stale"). */
  | { after: number; send: 'nothing'; why: string };

export interface PracticeScript {
  id: string;
  /** Who the dispatcher is talking to, for the logs. */
  summary: string;
  /** The language the caller reads and writes; the session's caller is set to it. */
  language: SmsLanguage;
  /** `[latitude, longitude]`, walked in order. */
  route: readonly (readonly [number, number])[];
  steps: readonly PracticeStep[];
  /**
   * The caller's chat messages, in their language: the first once the dispatcher opens the chat,
   * then one for each message the dispatcher writes, until they run out.
   */
  chatReplies: readonly string[];
}

/**
 * A walk along the National Mall, Washington DC (the simulator's numbers are 202 numbers), east
 * toward the Capitol and then a turn north: one point per step, about 15 m apart.
 */
const mallWalk = [
  [38.88952, -77.0232],
  [38.88953, -77.02303],
  [38.88955, -77.02286],
  [38.88956, -77.02269],
  [38.88958, -77.02252],
  [38.88959, -77.02235],
  [38.88972, -77.02228],
  [38.88985, -77.02224],
  [38.88998, -77.0222],
  [38.89011, -77.02216],
] as const;

/** The page's own words for a refused permission (web/src/caller/location-sharing.ts). */
const deniedMessage = "The caller's phone blocked location access. (User denied Geolocation)";

/**
 * The one script practice mode plays: a Spanish-speaking caller who refuses the location
 * permission at first, allows it when asked again, walks a route, goes stale (stays connected
 * but sends nothing), then stops sharing; and who answers the chat, in Spanish, whenever it is
 * open. 18 paces: about 36 s at the default pace.
 */
export const walkingCaller: PracticeScript = {
  id: 'walking-caller',
  summary: 'denies then allows, walks a route, goes stale, stops sharing, chats in Spanish',
  language: 'es',
  route: mallWalk,
  steps: [
    { after: 0, send: 'device', permission: 'prompt' },
    // The caller taps Share; the browser asks; the caller refuses.
    { after: 1, send: 'sharing', sharing: true },
    { after: 0, send: 'prompt-shown' },
    { after: 1, send: 'sharing', sharing: false },
    { after: 0, send: 'sharing-error', code: 'permission-denied', message: deniedMessage },
    { after: 0, send: 'device', permission: 'denied' },
    // Told how to allow it, the caller taps Try again and allows it this time.
    { after: 2, send: 'sharing', sharing: true },
    { after: 0, send: 'device', permission: 'granted' },
    ...mallWalk.map((_, point) => ({
      after: point === 0 ? 0 : 1,
      send: 'fix' as const,
      point,
      // A phone's accuracy improves once it has settled.
      accuracy: point < 3 ? 35 - point * 8 : 9 + (point % 3),
    })),
    { after: 1, send: 'nothing', why: 'goes stale: connected, but no position comes' },
    // Then the caller taps Stop sharing.
    { after: 4, send: 'sharing', sharing: false },
  ],
  chatReplies: [
    'Hola, sí, estoy aquí. Estoy caminando hacia el Capitolio.',
    'Estoy bien, pero me duele el tobillo y camino despacio.',
    'Veo una farmacia con un letrero azul en la esquina.',
    'Gracias. Me quedo aquí y espero.',
  ],
};

/** How many paces a script takes from its first step to its last. */
export function scriptPaces(script: PracticeScript): number {
  return script.steps.reduce((total, step) => total + step.after, 0);
}
