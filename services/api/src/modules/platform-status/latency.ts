import { deliveryLatencyBucketsMs } from '@locus/contract';

/** Adds several instances' bucket counts (each one longer than the bounds: the last is beyond). */
export function mergeBuckets(all: readonly (readonly number[])[]): number[] {
  const merged = new Array<number>(deliveryLatencyBucketsMs.length + 1).fill(0);
  for (const buckets of all) {
    for (let i = 0; i < merged.length; i += 1) merged[i]! += buckets[i] ?? 0;
  }
  return merged;
}

/**
 * The `q` quantile (0–1) of bucket counts, interpolated linearly inside its bucket like
 * Prometheus's `histogram_quantile`; beyond the last bound it is that bound. Null when empty.
 */
export function bucketQuantile(buckets: readonly number[], q: number): number | null {
  const total = buckets.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const rank = q * total;
  let below = 0;
  for (let i = 0; i < buckets.length; i += 1) {
    const count = buckets[i] ?? 0;
    if (count > 0 && below + count >= rank) {
      const upper = deliveryLatencyBucketsMs[i];
      const lower = i === 0 ? 0 : deliveryLatencyBucketsMs[i - 1]!;
      if (upper === undefined) return lower;
      return Math.round((lower + ((upper - lower) * (rank - below)) / count) * 10) / 10;
    }
    below += count;
  }
  return deliveryLatencyBucketsMs[deliveryLatencyBucketsMs.length - 1]!;
}

/** Cumulative (`le`) counts to counts per bucket. */
export function perBucket(cumulative: readonly number[]): number[] {
  return cumulative.map((count, i) => count - (i === 0 ? 0 : cumulative[i - 1]!));
}
