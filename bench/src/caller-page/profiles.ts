/** One network and CPU condition the caller's page is loaded under. */
export interface Profile {
  name: 'fast' | 'slow-4g' | '3g';
  title: string;
  /** Chromium's CPU slow-down factor (`Emulation.setCPUThrottlingRate`). */
  cpuSlowdown: number;
  /** `Network.emulateNetworkConditions`, or null for the machine's own loopback. */
  network: { latencyMs: number; downloadBitsPerSecond: number; uploadBitsPerSecond: number } | null;
  /** Target for the consent button, ms after navigation start (issue 10). */
  consentTargetMs: number;
  /** How long a run may wait for the consent button before it is given up. */
  consentTimeoutMs: number;
}

/**
 * The three profiles of issue 10. Slow 4G is Lighthouse's "slow 4G" (1.6 Mbit/s down, 750 kbit/s
 * up, 150 ms); 3G is 400 kbit/s both ways with 300 ms. CDP's `latency` is added to every request
 * (Chromium's DevTools throttling), which is how the issue measured its baseline.
 */
export const profiles: Profile[] = [
  {
    name: 'fast',
    title: 'fast (no network throttling)',
    cpuSlowdown: 4,
    network: null,
    consentTargetMs: 1_000,
    consentTimeoutMs: 30_000,
  },
  {
    name: 'slow-4g',
    title: 'slow 4G (1.6 Mbit/s down, 750 kbit/s up, 150 ms)',
    cpuSlowdown: 4,
    network: { latencyMs: 150, downloadBitsPerSecond: 1.6e6, uploadBitsPerSecond: 750e3 },
    consentTargetMs: 2_000,
    consentTimeoutMs: 60_000,
  },
  {
    name: '3g',
    title: '3G (400 kbit/s both ways, 300 ms)',
    cpuSlowdown: 4,
    network: { latencyMs: 300, downloadBitsPerSecond: 400e3, uploadBitsPerSecond: 400e3 },
    consentTargetMs: 4_000,
    consentTimeoutMs: 120_000,
  },
];

/** Issue 10's byte budgets, in bytes (1 KB = 1,000 bytes, as Chromium's DevTools counts). */
export const budgets = {
  callerJsBytes: 60_000,
  callerBytesBeforeConsent: 100_000,
  landingJsBytes: 200_000,
  /** Tap to fix on the dispatcher's socket, on slow 4G. */
  tapToFixMs: 1_000,
} as const;
