import { mediaLimits } from '@locus/contract';
import { describe, expect, it } from 'vitest';
import { callerMediaLimits } from './media-limits';

describe('callerMediaLimits', () => {
  it('are the contract’s', () => {
    for (const [key, value] of Object.entries(callerMediaLimits))
      expect(value, key).toBe(mediaLimits[key as keyof typeof mediaLimits]);
  });
});
