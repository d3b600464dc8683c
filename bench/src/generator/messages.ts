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
}

/** Processes whose CPU time is charged to the fixes delivered, by group. */
export interface CpuGroups {
  /** Instances A and B, with the wrappers they run under. */
  servers: number[];
  /** Empty when the process could not be found (a Redis or Postgres on another host). */
  redis: number[];
  postgres: number[];
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
}
