/** How big and how long each part of a run is. */
export interface Plan {
  mode: 'full' | 'quick';
  /** Session counts for the latency steps, each at `fixesPerSessionPerSecond`. */
  sessionSteps: number[];
  fixesPerSessionPerSecond: number;
  warmupMs: number;
  measureMs: number;
  /** Wait after the last send for fixes still in flight; later ones count as lost. */
  graceMs: number;
  /** start-stream requests per second during the largest latency step (Locus only). */
  startStreamPerSecond: number;
  /** Idle dispatcher sockets opened on instance A to measure memory per connection. */
  memoryConnections: number;
  memorySettleMs: number;
  /** Total fixes/s per ramp step, spread over all sessions of the last latency step. */
  rampFixesPerSecond: number[];
  rampWarmupMs: number;
  rampMeasureMs: number;
  /** The ramp stops at the first step whose p99 exceeds this. */
  rampP99CeilingMs: number;
  /** …or that loses more than this share of its fixes. */
  rampMaxLossRatio: number;
}

const full: Plan = {
  mode: 'full',
  sessionSteps: [100, 1_000, 5_000],
  fixesPerSessionPerSecond: 1,
  warmupMs: 5_000,
  measureMs: 15_000,
  graceMs: 2_000,
  // A busy console room: 10 new calls a second, 150 over the step, for a p99 worth reading.
  startStreamPerSecond: 10,
  memoryConnections: 3_000,
  // Long enough for V8's memory reducer to collect the joins' garbage and shrink the heap.
  memorySettleMs: 10_000,
  // At most 4 fixes/s per caller over 5,000 sessions: under the API's per-caller limit
  // (CALLER_MAX_EVENTS_PER_SECOND, 10 by default), so the ramp measures the pipeline, not it.
  rampFixesPerSecond: [1_000, 2_000, 3_000, 4_500, 6_000, 8_000, 10_000, 12_500, 15_000, 20_000],
  rampWarmupMs: 2_000,
  rampMeasureMs: 8_000,
  rampP99CeilingMs: 50,
  rampMaxLossRatio: 0.001,
};

/** A smoke run: every code path once, numbers too small to mean anything. */
const quick: Plan = {
  ...full,
  mode: 'quick',
  sessionSteps: [10, 100, 300],
  warmupMs: 1_000,
  measureMs: 2_000,
  graceMs: 1_000,
  memoryConnections: 250,
  memorySettleMs: 1_000,
  rampFixesPerSecond: [600, 1_200, 2_400],
  rampWarmupMs: 500,
  rampMeasureMs: 1_500,
};

export function planFor(quickRun: boolean): Plan {
  const plan = quickRun ? quick : full;
  const maxSessions = Math.max(...plan.sessionSteps);
  if ((plan.sessionSteps[0] ?? 0) + plan.memoryConnections > maxSessions) {
    throw new Error('the memory test needs sessions beyond the first step');
  }
  return plan;
}

export const maxSessionsOf = (plan: Plan): number => Math.max(...plan.sessionSteps);
