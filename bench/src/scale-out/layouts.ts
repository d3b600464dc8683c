import type { InstanceDiagnostics } from '../diagnostics';
import type { StepResult } from '../generator/messages';

/**
 * How the instances of one scale-out run are arranged. Callers are always on one instance (B);
 * dispatchers are on `dispatcherInstances` instances (A1…An), `dispatchersPerSession` per
 * session, dispatcher j of session i on A((i + j) mod n).
 */
export interface Layout {
  id: 'two-instances' | 'four-split' | 'four-each';
  title: string;
  dispatcherInstances: number;
  dispatchersPerSession: number;
  /** What the layout is expected to show, for the report. */
  expectation: string;
}

export const layouts: Layout[] = [
  {
    id: 'two-instances',
    title: '2 instances: callers on B, every dispatcher on A',
    dispatcherInstances: 1,
    dispatchersPerSession: 1,
    expectation: 'the layout of `npm run bench`: each fix reaches one subscribing instance',
  },
  {
    id: 'four-split',
    title: '4 instances: callers on B, each session’s dispatcher on one of A1…A3',
    dispatcherInstances: 3,
    dispatchersPerSession: 1,
    expectation:
      'sessions split round-robin: still one subscribing instance per fix, the same work spread over more processes',
  },
  {
    id: 'four-each',
    title: '4 instances: callers on B, each session watched on each of A1…A3',
    dispatcherInstances: 3,
    dispatchersPerSession: 3,
    expectation:
      'three subscribing instances per fix: Redis sends each message 3 times, and 3 instances each write it out',
  },
];

/** Redis's own counters (INFO stats) around a step: warm-up, window and grace. */
export interface RedisCounters {
  netInputBytes: number;
  netOutputBytes: number;
  commandsProcessed: number;
}

export function parseRedisInfo(info: string): RedisCounters {
  const field = (name: string): number => {
    const match = new RegExp(`^${name}:(\\d+)`, 'm').exec(info);
    return match ? Number(match[1]) : Number.NaN;
  };
  return {
    netInputBytes: field('total_net_input_bytes'),
    netOutputBytes: field('total_net_output_bytes'),
    commandsProcessed: field('total_commands_processed'),
  };
}

/** Per-fix numbers of one step, derived from the generator's raw counts. */
export interface ScaleOutNumbers {
  /** Fixes fanned out during the CPU window: deliveries in it ÷ dispatchers per session. */
  fixesInCpuWindow: number;
  /** Deliveries of the window's fixes ÷ those fixes (the generator counts every delivery). */
  deliveriesPerFix: number | null;
  /** CPU µs per fix: all instances, the dispatchers' instances (A…), the callers' (B). */
  cpuMicrosPerFix: {
    servers: number | null;
    dispatcherInstances: number | null;
    callerInstance: number | null;
    redis: number | null;
    postgres: number | null;
  };
  /** CPU µs per delivery (one fix reaching one dispatcher socket). */
  cpuMicrosPerDelivery: { servers: number | null; redis: number | null };
  /** Per instance, µs per fix. */
  cpuMicrosPerFixByInstance: Record<string, number>;
  /** Share of one core, whole window: all instances, and Redis. */
  coresBusy: { servers: number | null; redis: number | null; postgres: number | null };
  /** Redis traffic per fix sent over the whole step (warm-up included). */
  redisPerFix: { outputBytes: number; inputBytes: number; commands: number } | null;
}

const round1 = (value: number): number => Math.round(value * 10) / 10;
const round2 = (value: number): number => Math.round(value * 100) / 100;

export function scaleOutNumbers(
  step: StepResult,
  redisBefore: RedisCounters | null,
  redisAfter: RedisCounters | null,
  dispatcherInstanceNames: string[],
  callerInstanceName: string,
): ScaleOutNumbers {
  const detail = step.detail;
  if (!detail) throw new Error('the generator returned no step detail');
  const fixes = detail.deliveredInCpuWindow / detail.dispatchersPerSession;
  const perFix = (micros: number | null | undefined): number | null =>
    micros === null || micros === undefined || fixes === 0 ? null : round1(micros / fixes);
  const perDelivery = (micros: number | null): number | null =>
    micros === null || detail.deliveredInCpuWindow === 0
      ? null
      : round1(micros / detail.deliveredInCpuWindow);
  const cores = (micros: number | null): number | null =>
    micros === null ? null : round2(micros / 1000 / detail.cpuWindowMs);
  const byGroup = detail.cpuMicrosByGroup;
  const sum = (names: string[]): number | null =>
    names.every((name) => name in byGroup)
      ? names.reduce((total, name) => total + (byGroup[name] ?? 0), 0)
      : null;
  const redisDelta =
    redisBefore && redisAfter && step.sentTotal > 0
      ? {
          outputBytes: round1(
            (redisAfter.netOutputBytes - redisBefore.netOutputBytes) / step.sentTotal,
          ),
          inputBytes: round1(
            (redisAfter.netInputBytes - redisBefore.netInputBytes) / step.sentTotal,
          ),
          commands: round2(
            (redisAfter.commandsProcessed - redisBefore.commandsProcessed) / step.sentTotal,
          ),
        }
      : null;
  return {
    fixesInCpuWindow: Math.round(fixes),
    deliveriesPerFix: step.measured > 0 ? round2(step.delivered / step.measured) : null,
    cpuMicrosPerFix: {
      servers: perFix(detail.cpuMicros.servers),
      dispatcherInstances: perFix(sum(dispatcherInstanceNames)),
      callerInstance: perFix(sum([callerInstanceName])),
      redis: perFix(detail.cpuMicros.redis),
      postgres: perFix(detail.cpuMicros.postgres),
    },
    cpuMicrosPerDelivery: {
      servers: perDelivery(detail.cpuMicros.servers),
      redis: perDelivery(detail.cpuMicros.redis),
    },
    cpuMicrosPerFixByInstance: Object.fromEntries(
      Object.entries(byGroup).map(([name, micros]) => [name, perFix(micros) ?? 0]),
    ),
    coresBusy: {
      servers: cores(detail.cpuMicros.servers),
      redis: cores(detail.cpuMicros.redis),
      postgres: cores(detail.cpuMicros.postgres),
    },
    redisPerFix: redisDelta,
  };
}

/** One measured step of a layout, with what Redis and the instances said around it. */
export interface ScaleOutStep {
  repeat: number;
  result: StepResult;
  numbers: ScaleOutNumbers;
  redis: { before: RedisCounters; after: RedisCounters } | null;
  /** Per instance name, from its /metrics (event-loop delay, GC, persistence batches). */
  diagnostics: Record<string, InstanceDiagnostics> | null;
}

export interface LayoutRun {
  layout: Layout;
  instances: { name: string; port: number; role: 'dispatchers' | 'callers' }[];
  steps: ScaleOutStep[];
  persistence: { sent: number; persisted: number } | null;
  error: string | null;
  durationSeconds: number;
}
