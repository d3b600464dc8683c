import { createHash } from 'node:crypto';
import type { LocationLookupProvider, LookupResult } from './provider';

/**
 * The default provider: no account, no network. Documented test numbers (README):
 * +1 202 555 0100 … 0149 are found, each at its own fixed place inside the contiguous USA;
 * +1 202 555 0150 … 0199 have no record; any other number has no record either.
 */
export const simulatorNumbers = {
  found: { from: '+12025550100', to: '+12025550149' },
  notFound: { from: '+12025550150', to: '+12025550199' },
} as const;

// A box inside the contiguous USA (Kansas to Ohio): every simulated fix lands on land.
const box = { south: 37.0, north: 41.0, west: -98.0, east: -83.0 };

function lineNumber(phoneNumber: string): number | null {
  const match = /^\+1202555(01\d\d)$/.exec(phoneNumber);
  return match ? Number(match[1]) : null;
}

/** A stable fraction in [0, 1) from the number and a salt. */
function fraction(phoneNumber: string, salt: string): number {
  const digest = createHash('sha256').update(`${salt}:${phoneNumber}`).digest();
  return digest.readUInt32BE(0) / 2 ** 32;
}

export function simulateLookup(phoneNumber: string, now = Date.now()): LookupResult {
  const line = lineNumber(phoneNumber);
  if (line === null || line > 149) return { found: false };
  return {
    found: true,
    location: {
      latitude: round(box.south + fraction(phoneNumber, 'lat') * (box.north - box.south), 6),
      longitude: round(box.west + fraction(phoneNumber, 'lng') * (box.east - box.west), 6),
      uncertaintyRadiusInMeters: round(5 + fraction(phoneNumber, 'acc') * 45, 2),
      altitude: round(150 + fraction(phoneNumber, 'alt') * 300, 4),
      address: null,
      capturedAt: now,
    },
  };
}

const round = (value: number, decimals: number): number =>
  Math.round(value * 10 ** decimals) / 10 ** decimals;

export class SimulatorLookupProvider implements LocationLookupProvider {
  readonly name = 'simulator';

  locate(phoneNumber: string): Promise<LookupResult> {
    return Promise.resolve(simulateLookup(phoneNumber));
  }
}
