/**
 * A few of the Locus API's own Prometheus metrics, read around each step, to explain its
 * latency: how long its event loop stalled, how much of that was GC, how long persisting a
 * batch took. Scraping also resets prom-client's event-loop delay histogram, so a scrape just
 * before a step makes the next one cover that step alone.
 */
export interface InstanceDiagnostics {
  /** Event-loop delay beyond the 10 ms sampling interval prom-client measures with. */
  eventLoopDelayP99Ms: number;
  eventLoopDelayMaxMs: number;
  /** Time spent in garbage collection per second of the step. */
  gcMsPerSecond: number;
  persistBatches: number;
  persistBatchMeanMs: number | null;
}

type Sample = { at: number; values: Map<string, number> };

const samplingIntervalMs = 10;

export async function scrape(port: number): Promise<Sample> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  const values = new Map<string, number>();
  for (const line of (await response.text()).split('\n')) {
    if (line.startsWith('#') || line === '') continue;
    // `name{labels} value`: series of one name are summed (GC time over all GC kinds).
    const name = line.slice(0, line.search(/[{ ]/));
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (Number.isFinite(value)) values.set(name, (values.get(name) ?? 0) + value);
  }
  return { at: performance.now(), values };
}

export function diagnose(before: Sample, after: Sample): InstanceDiagnostics {
  const now = (name: string): number => after.values.get(name) ?? 0;
  const delta = (name: string): number => now(name) - (before.values.get(name) ?? 0);
  const delayMs = (name: string): number =>
    Math.max(0, Math.round((now(name) * 1000 - samplingIntervalMs) * 10) / 10);
  const seconds = (after.at - before.at) / 1000;
  const batches = delta('locus_persist_batch_seconds_count');
  return {
    eventLoopDelayP99Ms: delayMs('nodejs_eventloop_lag_p99_seconds'),
    eventLoopDelayMaxMs: delayMs('nodejs_eventloop_lag_max_seconds'),
    gcMsPerSecond: Math.round((delta('nodejs_gc_duration_seconds_sum') * 1000) / seconds),
    persistBatches: batches,
    persistBatchMeanMs:
      batches > 0
        ? Math.round((delta('locus_persist_batch_seconds_sum') / batches) * 10_000) / 10
        : null,
  };
}
