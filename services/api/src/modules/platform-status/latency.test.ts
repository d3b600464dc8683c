import { describe, expect, it } from 'vitest';
import { bucketQuantile, mergeBuckets, perBucket } from './latency';

describe('delivery latency buckets', () => {
  it('merges instances and finds quantiles inside their bucket', () => {
    // Bounds 5, 10, 25, …: 50 deliveries under 5 ms on one instance, 50 in 10–25 ms on another.
    const merged = mergeBuckets([[50], [0, 0, 50]]);
    expect(merged.slice(0, 3)).toEqual([50, 0, 50]);
    expect(bucketQuantile(merged, 0.5)).toBe(5);
    expect(bucketQuantile(merged, 0.99)).toBe(24.7);
  });

  it('is null with nothing delivered, and the last bound beyond it', () => {
    expect(bucketQuantile(mergeBuckets([]), 0.99)).toBeNull();
    const beyond = mergeBuckets([[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3]]);
    expect(bucketQuantile(beyond, 0.99)).toBe(10_000);
  });

  it('turns cumulative counts into counts per bucket', () => {
    expect(perBucket([1, 3, 3, 6])).toEqual([1, 2, 0, 3]);
  });
});
