/** What the orchestrator and the load-generator process say to each other over IPC. */

export type WireName = 'locus' | 'reference' | 'peer';
export type Role = 'dispatcher' | 'caller';

/** Everything one session needs on the wire; relays use the session id as both tokens. */
export interface SessionCredentials {
  sessionId: string;
  dispatcherToken: string;
  callerToken: string;
}

export interface GeneratorSetup {
  wire: WireName;
  /** Instance A holds the dispatchers, B the callers, so every fix crosses Redis. */
  portA: number;
  portB: number;
  sessions: SessionCredentials[];
  /**
   * Optional (the scale-out bench): the ports dispatchers connect to, instead of `portA` alone.
   * Dispatcher `j` of session `i` connects to `dispatcherPorts[(i + j) % length]`: with one
   * dispatcher per session the sessions are split round-robin over the ports; with as many
   * dispatchers per session as ports, every session is watched on every port.
   */
  dispatcherPorts?: number[];
  /** Optional: dispatcher sockets per session (default 1); each delivery is measured. */
  dispatchersPerSession?: number;
}

/** Processes whose CPU time is charged to the fixes delivered, by group. */
export interface CpuGroups {
  /** Instances A and B, with the wrappers they run under. */
  servers: number[];
  /** Empty when the process could not be found (a Redis or Postgres on another host). */
  redis: number[];
  postgres: number[];
  /**
   * Optional: more groups whose CPU time is reported as totals in `StepResult.detail` (e.g. one
   * per instance). They may overlap the groups above.
   */
  groups?: Record<string, number[]>;
}

export interface StepPlan {
  /** The first `sessions` sessions send; they must already be open. */
  sessions: number;
  fixesPerSecond: number;
  warmupMs: number;
  measureMs: number;
  /** Wait after the last send for fixes still in flight; later ones count as lost. */
  graceMs: number;
  cpu: CpuGroups;
  /** Optional: also report `StepResult.detail` (the scale-out bench); off, the result is as before. */
  detail?: boolean;
}

/** Raw counts behind a step's per-fix numbers, for benches that divide them their own way. */
export interface StepDetail {
  dispatchersPerSession: number;
  /** Deliveries (one per dispatcher socket and fix) while the CPU window was open. */
  deliveredInCpuWindow: number;
  /** Length of the CPU window (the measurement window), ms. */
  cpuWindowMs: number;
  /** CPU time used in the window, µs, by group (null where the group has no processes). */
  cpuMicros: Record<'servers' | 'redis' | 'postgres', number | null>;
  /** CPU time used in the window, µs, per group of `CpuGroups.groups`. */
  cpuMicrosByGroup: Record<string, number>;
}

export type GeneratorRequest =
  | { id: number; type: 'setup'; setup: GeneratorSetup }
  | { id: number; type: 'open'; role: Role; upTo: number }
  | { id: number; type: 'step'; plan: StepPlan };

export type GeneratorReply =
  | { id: number; type: 'done'; opened?: number; result?: StepResult }
  | { id: number; type: 'failed'; message: string };

/** One step, as the orchestrator reports it. Latencies in ms. */
export interface StepResult {
  sessions: number;
  fixesPerSecond: number;
  /** Fixes scheduled inside the measurement window. */
  measured: number;
  delivered: number;
  lost: number;
  /** Every fix sent during the step, warm-up included (for the persistence check). */
  sentTotal: number;
  latencyMs: { p50: number; p99: number; max: number } | null;
  /** Actual send time minus scheduled send time: how far the generator fell behind. */
  sendLagMs: { p99: number; max: number };
  invalidReason: string | null;
  /** CPU time per fix delivered during the window, by group (servers is A + B). */
  cpuMicrosPerFix: Record<'servers' | 'redis' | 'postgres', number | null>;
  /** Share of one core the generator process used during the window. */
  generatorCpuPercent: number;
  /** Share of one core used by everything else on the machine: other work skews a step. */
  otherCpuPercent: number;
  /** Sockets the server closed during the step. */
  socketsClosed: number;
  /** Error frames the server sent during the step. */
  serverErrors: number;
  /** Only when the plan asked for it (`StepPlan.detail`). */
  detail?: StepDetail;
}
