import { describe, expect, it } from 'vitest';
import { simulateLookup } from './simulator';

describe('the lookup simulator', () => {
  it('finds +1 202 555 0100 … 0149 at a fixed place inside the USA', () => {
    for (let line = 100; line <= 149; line += 1) {
      const number = `+1202555${String(line).padStart(4, '0')}`;
      const first = simulateLookup(number, 1);
      const again = simulateLookup(number, 2);
      expect(first.found).toBe(true);
      if (!first.found || !again.found) return;
      expect(again.location.latitude).toBe(first.location.latitude);
      expect(again.location.longitude).toBe(first.location.longitude);
      expect(first.location.latitude).toBeGreaterThanOrEqual(37);
      expect(first.location.latitude).toBeLessThanOrEqual(41);
      expect(first.location.longitude).toBeGreaterThanOrEqual(-98);
      expect(first.location.longitude).toBeLessThanOrEqual(-83);
    }
    const a = simulateLookup('+12025550100');
    const b = simulateLookup('+12025550101');
    expect(a.found && b.found && a.location.latitude !== b.location.latitude).toBe(true);
  });

  it('has no record for +1 202 555 0150 … 0199, nor for any other number', () => {
    expect(simulateLookup('+12025550150').found).toBe(false);
    expect(simulateLookup('+12025550199').found).toBe(false);
    expect(simulateLookup('+12025550099').found).toBe(false);
    expect(simulateLookup('+442071838750').found).toBe(false);
  });
});
