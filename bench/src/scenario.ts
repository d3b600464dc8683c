import { diagnose, scrape, type InstanceDiagnostics } from './diagnostics';
import { Generator } from './generator/client';
import type { StepResult, WireName } from './generator/messages';
import type { Pipeline, Prepared } from './pipelines';
import { maxSessionsOf, type Plan } from './plan';
import { rssKiB } from './proc';
import { profiledRampSteps, profiledStep } from './profiling/steps';
import type { HeapReading } from './profiling/heap-messages';
import { startInstance, type Instance } from './servers';
import { probeStartStream, signInDispatcher, type StartStreamResult } from './start-stream-probe';
import { redisPids } from './stores';

/** A step as the generator measured it, plus what the servers said about themselves. */
export type MeasuredStep = StepResult & {
  diagnostics: Record<'A' | 'B', InstanceDiagnostics> | null;
};

export interface MemoryResult {
  connections: number;
  rssBeforeKiB: number;
  rssAfterKiB: number;
  /** RSS delta per connection, each RSS read after a settle and a forced GC: what the operating system sees. */
  kibPerConnection: number;
  /**
   * After a forced full GC, before and after the connections opened: V8 heap plus external
   * memory (Buffers and other C++ objects bound to JavaScript ones), and the KiB per connection
   * they grew by. What the instance really keeps for each socket, without the allocator's noise.
   */
  heap: {
    usedBeforeKiB: number;
    usedAfterKiB: number;
    externalBeforeKiB: number;
    externalAfterKiB: number;
    kibPerConnection: number;
    snapshots: string[];
  } | null;
}

export interface RampResult {
  sessions: number;
  steps: MeasuredStep[];
  /** The highest rate whose step and all steps below it passed; null if the first failed. */
  maxSustainedFixesPerSecond: number | null;
  stoppedBecause: string;
}

export interface PipelineResult {
  name: WireName;
  title: string;
  steps: MeasuredStep[];
  memory: MemoryResult | null;
  ramp: RampResult | null;
  persistence: { sent: number; persisted: number } | null;
  /**
   * start-stream timed on A (pipelines with a REST API) in a repeat of the largest latency step,
   * and that step as the generator measured it.
   */
  startStream: StartStreamResult | null;
  startStreamStep: MeasuredStep | null;
  error: string | null;
  durationSeconds: number;
}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

function describe(step: MeasuredStep): string {
  const latency = step.latencyMs
    ? `p50 ${step.latencyMs.p50} ms, p99 ${step.latencyMs.p99} ms, max ${step.latencyMs.max} ms`
    : 'nothing delivered';
  const cpu = step.cpuMicrosPerFix;
  const invalid = step.invalidReason ? ` INVALID: ${step.invalidReason}` : '';
  const loop = step.diagnostics
    ? `; event-loop delay p99/max A ${step.diagnostics.A.eventLoopDelayP99Ms}/${step.diagnostics.A.eventLoopDelayMaxMs} ms, ` +
      `B ${step.diagnostics.B.eventLoopDelayP99Ms}/${step.diagnostics.B.eventLoopDelayMaxMs} ms`
    : '';
  return (
    `${step.sessions} sessions, ${step.fixesPerSecond} fixes/s: ${latency}, lost ${step.lost}, ` +
    `send lag p99 ${step.sendLagMs.p99} ms, CPU µs/fix: servers ${cpu.servers ?? '?'}, ` +
    `redis ${cpu.redis ?? '?'}, postgres ${cpu.postgres ?? '–'}; other load ${step.otherCpuPercent}%${loop}${invalid}`
  );
}

function describeStartStream(probe: StartStreamResult): string {
  const latency = probe.latencyMs
    ? `p50 ${probe.latencyMs.p50} ms, p99 ${probe.latencyMs.p99} ms, max ${probe.latencyMs.max} ms`
    : 'no answer';
  const failures = probe.failed > 0 ? `; ${probe.failed} failed (${probe.firstFailure})` : '';
  return `start-stream under load: ${probe.requests} requests at ${probe.ratePerSecond}/s, ${latency}${failures}`;
}

/** Why a ramp step does not count as sustained, or null when it does. */
function rampFailure(step: StepResult, plan: Plan): string | null {
  if (step.invalidReason) return `the generator could not keep up (${step.invalidReason})`;
  if (!step.latencyMs) return 'nothing was delivered';
  if (step.latencyMs.p99 > plan.rampP99CeilingMs) {
    return `p99 ${step.latencyMs.p99} ms > ${plan.rampP99CeilingMs} ms`;
  }
  if (step.lost > step.measured * plan.rampMaxLossRatio) return `${step.lost} fixes lost`;
  if (step.socketsClosed > 0) return `${step.socketsClosed} sockets closed by the server`;
  return null;
}

/** Dispatchers first: a fix sent before its dispatcher joined would have no one to reach. */
async function openSessions(generator: Generator, count: number): Promise<void> {
  await generator.open('dispatcher', count);
  await generator.open('caller', count);
}

async function measureMemory(
  generator: Generator,
  instanceA: Instance,
  alreadyOpen: number,
  plan: Plan,
): Promise<MemoryResult> {
  // Measured after the first step, so code paths are compiled and pools warmed: the delta
  // is what each further connection costs, not the server's first-use overhead. The settle
  // before the baseline lets the step's garbage be collected, which would otherwise make the
  // delta come out low (even negative).
  // Each reading forces a full GC first (heap-probe.ts), and RSS is read right after it, so the
  // two RSS readings are taken in the same state.
  // The probe reads RSS itself, before any heap snapshot (writing one grows RSS); /proc only
  // when the probe failed, and then without the GC.
  await sleep(plan.memorySettleMs);
  const heapBefore = await readHeap(instanceA, 'memory-before');
  const rssBeforeKiB = heapBefore ? Math.round(heapBefore.rssBytes / 1024) : rssKiB(instanceA.pids);
  await generator.open('dispatcher', alreadyOpen + plan.memoryConnections);
  await sleep(plan.memorySettleMs);
  const heapAfter = await readHeap(instanceA, 'memory-after');
  const rssAfterKiB = heapAfter ? Math.round(heapAfter.rssBytes / 1024) : rssKiB(instanceA.pids);
  const perConnection = (beforeKiB: number, afterKiB: number): number =>
    Math.round(((afterKiB - beforeKiB) / plan.memoryConnections) * 10) / 10;
  const kib = (bytes: number): number => Math.round(bytes / 1024);
  return {
    connections: plan.memoryConnections,
    rssBeforeKiB,
    rssAfterKiB,
    kibPerConnection: perConnection(rssBeforeKiB, rssAfterKiB),
    heap:
      heapBefore && heapAfter
        ? {
            usedBeforeKiB: kib(heapBefore.heapUsedBytes),
            usedAfterKiB: kib(heapAfter.heapUsedBytes),
            externalBeforeKiB: kib(heapBefore.externalBytes),
            externalAfterKiB: kib(heapAfter.externalBytes),
            kibPerConnection: perConnection(
              kib(heapBefore.heapUsedBytes + heapBefore.externalBytes),
              kib(heapAfter.heapUsedBytes + heapAfter.externalBytes),
            ),
            snapshots: [heapBefore.snapshot, heapAfter.snapshot].filter(
              (path): path is string => path !== null,
            ),
          }
        : null,
  };
}

/** The instance's heap after a forced GC, or null (with a warning) when the probe failed. */
async function readHeap(instance: Instance, label: string): Promise<HeapReading | null> {
  try {
    return await instance.heap(label);
  } catch (error) {
    console.warn(`[bench] ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}

/**
 * One pipeline, start to finish: two instances (dispatchers on A, callers on B, so every fix
 * crosses Redis), latency steps, memory per connection, then the throughput ramp.
 */
export async function benchPipeline(
  pipeline: Pipeline,
  plan: Plan,
  context: { runId: string; logDir: string },
): Promise<PipelineResult> {
  const started = Date.now();
  const log = (message: string): void => console.log(`[bench] ${pipeline.name}: ${message}`);
  const result: PipelineResult = {
    name: pipeline.name,
    title: pipeline.title,
    steps: [],
    memory: null,
    ramp: null,
    persistence: null,
    startStream: null,
    startStreamStep: null,
    error: null,
    durationSeconds: 0,
  };
  const maxSessions = maxSessionsOf(plan);
  let prepared: Prepared | undefined;
  const instances: Instance[] = [];
  let generator: Generator | undefined;
  try {
    log(`preparing ${maxSessions} sessions`);
    prepared = await pipeline.prepare(maxSessions);
    const env = pipeline.env(context.runId);
    for (const side of ['A', 'B']) {
      const name = `${pipeline.name}-${side}`;
      instances.push(
        await startInstance({ name, entry: pipeline.entry, env, logDir: context.logDir }),
      );
    }
    const [a, b] = instances as [Instance, Instance];
    log(`instances up on :${a.port} (dispatchers) and :${b.port} (callers)`);
    generator = await Generator.start({
      wire: pipeline.name,
      portA: a.port,
      portB: b.port,
      sessions: prepared.sessions,
    });
    const servers = [...a.pids, ...b.pids];
    const redis = await redisPids(process.env.REDIS_URL ?? '');
    const gen = generator;
    const pg = prepared;
    const step = async (
      sessions: number,
      fixesPerSecond: number,
      ramp: boolean,
      beside?: (durationMs: number) => Promise<void>,
    ): Promise<MeasuredStep> => {
      // Postgres forks a backend per connection; list them afresh for every step.
      const postgres = (await pg.postgresPids?.()) ?? [];
      const before = pipeline.hasMetrics
        ? await Promise.all([scrape(a.port), scrape(b.port)])
        : null;
      const warmupMs = ramp ? plan.rampWarmupMs : plan.warmupMs;
      const measureMs = ramp ? plan.rampMeasureMs : plan.measureMs;
      const [outcome] = await Promise.all([
        gen.step({
          sessions,
          fixesPerSecond,
          warmupMs,
          measureMs,
          graceMs: plan.graceMs,
          cpu: { servers, redis, postgres },
        }),
        // After the warm-up, for the measured part only (the generator needs a moment to start).
        beside ? sleep(warmupMs).then(() => beside(measureMs)) : undefined,
      ]);
      const after = before ? await Promise.all([scrape(a.port), scrape(b.port)]) : null;
      const measured: MeasuredStep = {
        ...outcome,
        diagnostics:
          before && after
            ? { A: diagnose(before[0], after[0]), B: diagnose(before[1], after[1]) }
            : null,
      };
      log(describe(measured));
      await sleep(500);
      return measured;
    };

    for (const [index, sessions] of plan.sessionSteps.entries()) {
      await openSessions(gen, sessions);
      result.steps.push(await step(sessions, sessions * plan.fixesPerSessionPerSecond, false));
      if (index === 0) {
        result.memory = await measureMemory(gen, a, sessions, plan);
        const heap = result.memory.heap;
        log(
          `${result.memory.kibPerConnection} KiB RSS per idle dispatcher connection` +
            (heap ? `, ${heap.kibPerConnection} KiB heap + external after a forced GC` : ''),
        );
      }
    }

    // start-stream is timed in a step of its own, the largest latency step's load again, so that
    // the latency step above stays what it always was (the probe's requests, their Postgres
    // backends and its client cost CPU on the same two cores).
    if (pipeline.probesStartStream) {
      const baseUrl = `http://127.0.0.1:${a.port}`;
      const token = await signInDispatcher(baseUrl);
      result.startStreamStep = await step(
        maxSessions,
        maxSessions * plan.fixesPerSessionPerSecond,
        false,
        async (durationMs) => {
          result.startStream = await probeStartStream({
            baseUrl,
            token,
            durationMs,
            ratePerSecond: plan.startStreamPerSecond,
          });
        },
      );
      if (result.startStream) log(describeStartStream(result.startStream));
    }

    const ramp: RampResult = {
      sessions: maxSessions,
      steps: [],
      maxSustainedFixesPerSecond: null,
      stoppedBecause: 'reached the top of the ramp',
    };
    result.ramp = ramp;
    // BENCH_PROFILE_RAMP: those steps run with the profiler on, and run even after the ramp has
    // stopped (a profile is wanted exactly where the pipeline fails); they then count for nothing.
    const profiled = profiledRampSteps();
    const rampStep = (fixesPerSecond: number) =>
      profiled.has(fixesPerSecond)
        ? profiledStep(pipeline.name, `ramp-${fixesPerSecond}`, instances, () =>
            step(maxSessions, fixesPerSecond, true),
          )
        : step(maxSessions, fixesPerSecond, true);
    let stopped = false;
    for (const fixesPerSecond of plan.rampFixesPerSecond) {
      if (stopped) {
        if (![...profiled].some((rate) => rate >= fixesPerSecond)) break;
        if (profiled.has(fixesPerSecond)) ramp.steps.push(await rampStep(fixesPerSecond));
        continue;
      }
      let outcome = await rampStep(fixesPerSecond);
      ramp.steps.push(outcome);
      if (outcome.invalidReason) {
        // One stall (a burst of other work on the shared cores) should not end the ramp.
        log('repeating the INVALID step once');
        outcome = await step(maxSessions, fixesPerSecond, true);
        ramp.steps.push(outcome);
      }
      const failure = rampFailure(outcome, plan);
      if (failure) {
        ramp.stoppedBecause = `${failure} at ${fixesPerSecond} fixes/s`;
        stopped = true;
        continue;
      }
      ramp.maxSustainedFixesPerSecond = fixesPerSecond;
    }
    log(
      `max sustained ${ramp.maxSustainedFixesPerSecond ?? 'none'} fixes/s; stopped: ${ramp.stoppedBecause}`,
    );

    if (prepared.countPersisted) {
      await sleep(1_000); // persistence batches flush within 100 ms
      const sent = [
        ...result.steps,
        ...(result.startStreamStep ? [result.startStreamStep] : []),
        ...ramp.steps,
      ].reduce((sum, s) => sum + s.sentTotal, 0);
      result.persistence = { sent, persisted: await prepared.countPersisted() };
      log(`persisted ${result.persistence.persisted} of ${sent} fixes sent`);
    }
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
    log(`FAILED: ${result.error}`);
  } finally {
    generator?.stop();
    await Promise.all(instances.map((instance) => instance.stop()));
    await prepared?.close();
    result.durationSeconds = Math.round((Date.now() - started) / 1000);
  }
  return result;
}
