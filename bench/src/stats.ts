/** Nearest-rank percentile of already sorted samples; `q` in [0, 1]. */
export function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[rank - 1] ?? Number.NaN;
}

export function sortedSamples(samples: number[]): Float64Array {
  return Float64Array.from(samples).sort();
}

/** Rounds for display and JSON: latencies to 0.01 ms are more than the clocks can promise. */
export const round2 = (value: number): number => Math.round(value * 100) / 100;
