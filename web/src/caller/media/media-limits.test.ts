import { contract, mediaLimits } from '@locus/contract';
import { describe, expect, it } from 'vitest';
import { callerMediaLimits } from './media-limits';
import { callerMediaUploadPath } from './photo';

// The caller's page cannot import the contract's zod module: its copies must not drift.
describe("the caller page's copies of the contract", () => {
  it('limits', () => {
    for (const [key, value] of Object.entries(callerMediaLimits))
      expect(value, key).toBe(mediaLimits[key as keyof typeof mediaLimits]);
  });

  it('the upload route', () => {
    expect(callerMediaUploadPath).toBe(contract.media.callerUpload.path);
    expect(contract.media.callerUpload.method).toBe('POST');
  });
});
