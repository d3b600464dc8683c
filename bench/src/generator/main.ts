// A load-generator child process. It holds both ends of every session (the caller's socket
// on instance B, the dispatcher's on instance A), so the scheduled send time of a fix and
// the time it reaches the dispatcher are read from the same monotonic clock. It has its own
// event loop: nothing else runs here while a step is measured. The scale-out bench may spread
// the dispatchers over several instances and give a session several dispatchers
// (`GeneratorSetup.dispatcherPorts`, `dispatchersPerSession`): then every delivery is measured.
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { cpuMicrosBetween, cpuMicrosByPid, machineBusyMicros } from '../proc';
import { percentile, round2, sortedSamples } from '../stats';
import type {
  GeneratorReply,
  GeneratorRequest,
  GeneratorSetup,
  SessionCredentials,
  StepDetail,
  StepPlan,
  StepResult,
} from './messages';
import { wires, type Role, type Wire } from './wire';

interface LiveSession {
  /** Position in the setup's session list: picks the dispatchers' ports. */
  index: number;
  credentials: SessionCredentials;
  /** One socket per dispatcher of the session (one, unless the setup asks for more). */
  dispatchers: (WebSocket | undefined)[];
  caller?: WebSocket;
  lastCapturedAt: number;
  /**
   * Per dispatcher: capturedAt → scheduled send time (performance.now() ms) of fixes that
   * dispatcher has not received yet.
   */
  inFlight: Map<number, number>[];
}

/** What the step being measured collects from socket handlers. */
interface Recording {
  measureFrom: number;
  measureTo: number;
  latencies: number[];
  /** Open between the two CPU samples; deliveries inside it are what the CPU time paid for. */
  cpuWindowOpen: boolean;
  deliveredInCpuWindow: number;
}

/** The generator falls behind when p99 send lag exceeds this … */
const maxSendLagP99Ms = 5;
/** … or when any fix waits this long: a stall as long as the throughput p99 budget. */
const maxSendLagMs = 50;
const openConcurrency = 100;
const openTimeoutMs = 20_000;

let setup: GeneratorSetup | undefined;
let wire: Wire | undefined;
let sessions: LiveSession[] = [];
const opened: Record<Role, number> = { dispatcher: 0, caller: 0 };
let recording: Recording | null = null;
let socketsClosed = 0;
let serverErrors = 0;

function reportServerError(role: Role, detail: string): void {
  serverErrors += 1;
  // The first few are enough to diagnose; thousands would drown the run's output.
  if (serverErrors <= 5) console.error(`[generator] ${role} socket error frame: ${detail}`);
}

function onDelivered(inFlight: Map<number, number>, capturedAt: number, at: number): void {
  const scheduled = inFlight.get(capturedAt);
  if (scheduled === undefined) return; // a duplicate, or a straggler from an earlier step
  inFlight.delete(capturedAt);
  const rec = recording;
  if (!rec) return;
  if (scheduled >= rec.measureFrom && scheduled < rec.measureTo) rec.latencies.push(at - scheduled);
  if (rec.cpuWindowOpen) rec.deliveredInCpuWindow += 1;
}

const dispatchersPerSession = (): number => setup?.dispatchersPerSession ?? 1;

/** The port of dispatcher `which` of the session: instance A unless the setup spreads them. */
function dispatcherPort(session: LiveSession, which: number): number {
  if (!setup) throw new Error('generator not set up');
  const ports = setup.dispatcherPorts;
  if (!ports || ports.length === 0) return setup.portA;
  return ports[(session.index + which) % ports.length] ?? setup.portA;
}

function connect(role: Role, session: LiveSession, which = 0): Promise<WebSocket> {
  if (!setup || !wire) throw new Error('generator not set up');
  const w = wire;
  const port = role === 'dispatcher' ? dispatcherPort(session, which) : setup.portB;
  const inFlight = session.inFlight[which];
  if (!inFlight) throw new Error(`session ${session.index} has no dispatcher ${which}`);
  return new Promise((resolve, reject) => {
    let settled = false;
    const ws = new WebSocket(w.url(role, port, session.credentials), { perMessageDeflate: false });
    const fail = (why: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      ws.terminate();
      reject(new Error(`${role} socket for session ${session.credentials.sessionId}: ${why}`));
    };
    const ready = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(ws);
    };
    const timer = setTimeout(() => fail(`not ready after ${openTimeoutMs} ms`), openTimeoutMs);
    ws.on('open', () => {
      for (const frame of w.hello(role, session.credentials)) ws.send(frame);
      if (w.readyOnOpen(role)) ready();
    });
    ws.on('message', (data) => {
      const at = performance.now();
      const incoming = w.decode(role, data.toString());
      if (incoming.kind === 'fix' && role === 'dispatcher')
        onDelivered(inFlight, incoming.capturedAt, at);
      else if (incoming.kind === 'ready') ready();
      else if (incoming.kind === 'reply') ws.send(incoming.frame);
      else if (incoming.kind === 'error') {
        reportServerError(role, incoming.detail);
        fail(incoming.detail);
      }
    });
    ws.on('error', (error) => fail(error.message));
    ws.on('close', (code) => {
      if (settled) socketsClosed += 1;
      fail(`closed with ${code} before it was ready`);
    });
  });
}

/** Opens sockets for sessions [already open, upTo), a bounded number at a time. */
async function openUpTo(role: Role, upTo: number): Promise<number> {
  const todo = sessions.slice(opened[role], upTo);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < todo.length) {
      const session = todo[next++];
      if (!session) return;
      if (role === 'caller') session.caller = await connect(role, session);
      else {
        for (let which = 0; which < session.dispatchers.length; which += 1)
          session.dispatchers[which] = await connect(role, session, which);
      }
    }
  };
  await Promise.all(Array.from({ length: openConcurrency }, worker));
  opened[role] = Math.max(opened[role], upTo);
  return opened[role];
}

function sendFix(w: Wire, session: LiveSession, scheduled: number): void {
  // capturedAt has ms precision and must rise strictly per caller; the in-flight map keeps
  // the sub-ms scheduled time that latency is measured from.
  const capturedAt = Math.max(Date.now(), session.lastCapturedAt + 1);
  session.lastCapturedAt = capturedAt;
  for (const inFlight of session.inFlight) inFlight.set(capturedAt, scheduled);
  session.caller?.send(
    w.encodeFix({
      latitude: 38.8977 + Math.random() * 1e-3,
      longitude: -77.0365 + Math.random() * 1e-3,
      accuracy: 12,
      capturedAt,
    }),
  );
}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/**
 * Open loop: fix n is due at t0 + n·interval whatever happened to earlier fixes, and goes to
 * session n mod S, so each session sends at the per-session rate with phases spread evenly.
 */
function sendOnSchedule(
  w: Wire,
  active: LiveSession[],
  plan: StepPlan,
  t0: number,
  lags: number[],
): Promise<number> {
  const interval = 1000 / plan.fixesPerSecond;
  const total = Math.floor(((plan.warmupMs + plan.measureMs) * plan.fixesPerSecond) / 1000);
  const measureFrom = t0 + plan.warmupMs;
  let n = 0;
  return new Promise((done) => {
    const tick = (): void => {
      const now = performance.now();
      for (; n < total; n += 1) {
        const scheduled = t0 + n * interval;
        if (scheduled > now) break;
        const sentAt = performance.now();
        const session = active[n % active.length];
        if (session) sendFix(w, session, scheduled);
        if (scheduled >= measureFrom) lags.push(sentAt - scheduled);
      }
      if (n >= total) done(total);
      else setTimeout(tick, Math.max(0, t0 + n * interval - performance.now()));
    };
    tick();
  });
}

async function runStep(plan: StepPlan): Promise<StepResult> {
  if (!wire) throw new Error('generator not set up');
  const active = sessions.slice(0, plan.sessions);
  if (
    active.length < plan.sessions ||
    active.some((s) => !s.caller || s.dispatchers.some((d) => !d))
  ) {
    throw new Error(`step needs ${plan.sessions} open sessions`);
  }
  const closedBefore = socketsClosed;
  const errorsBefore = serverErrors;
  const t0 = performance.now() + 10;
  const rec: Recording = {
    measureFrom: t0 + plan.warmupMs,
    measureTo: t0 + plan.warmupMs + plan.measureMs,
    latencies: [],
    cpuWindowOpen: false,
    deliveredInCpuWindow: 0,
  };
  recording = rec;

  const groups = Object.entries(plan.cpu.groups ?? {});
  const sampleCpu = () => ({
    servers: cpuMicrosByPid(plan.cpu.servers),
    redis: cpuMicrosByPid(plan.cpu.redis),
    postgres: cpuMicrosByPid(plan.cpu.postgres),
    groups: groups.map(([, pids]) => cpuMicrosByPid(pids)),
    machine: machineBusyMicros(),
    own: process.cpuUsage(),
  });
  let cpuStart = sampleCpu();
  const windowStart = new Promise<void>((done) =>
    setTimeout(() => {
      cpuStart = sampleCpu();
      rec.cpuWindowOpen = true;
      done();
    }, rec.measureFrom - performance.now()),
  );
  const windowEnd = new Promise<ReturnType<typeof sampleCpu>>((done) =>
    setTimeout(() => {
      rec.cpuWindowOpen = false;
      done(sampleCpu());
    }, rec.measureTo - performance.now()),
  );

  const lags: number[] = [];
  const sentTotal = await sendOnSchedule(wire, active, plan, t0, lags);
  await windowStart;
  const cpuEnd = await windowEnd;
  const ownUsage = process.cpuUsage(cpuStart.own);
  const cpu = {
    servers: cpuMicrosBetween(cpuStart.servers, cpuEnd.servers),
    redis: cpuMicrosBetween(cpuStart.redis, cpuEnd.redis),
    postgres: cpuMicrosBetween(cpuStart.postgres, cpuEnd.postgres),
    own: ownUsage.user + ownUsage.system,
  };
  const other = Math.max(
    0,
    cpuEnd.machine - cpuStart.machine - cpu.servers - cpu.redis - cpu.postgres - cpu.own,
  );

  const inWindow = (scheduled: number): boolean =>
    scheduled >= rec.measureFrom && scheduled < rec.measureTo;
  const undelivered = (): number =>
    active.reduce(
      (sum, s) =>
        sum +
        s.inFlight.reduce(
          (pending, inFlight) => pending + [...inFlight.values()].filter(inWindow).length,
          0,
        ),
      0,
    );
  const graceEnd = performance.now() + plan.graceMs;
  while (undelivered() > 0 && performance.now() < graceEnd) await sleep(20);
  const lost = undelivered();
  recording = null;
  for (const s of active) for (const inFlight of s.inFlight) inFlight.clear();

  const perFix = (micros: number, pids: number[]): number | null =>
    pids.length > 0 && rec.deliveredInCpuWindow > 0
      ? Math.round(micros / rec.deliveredInCpuWindow)
      : null;
  const percentOfOneCore = (micros: number): number =>
    Math.round((micros / 1000 / plan.measureMs) * 100);
  const latencies = sortedSamples(rec.latencies);
  const sortedLags = sortedSamples(lags);
  const lagP99 = percentile(sortedLags, 0.99);
  const lagMax = sortedLags[sortedLags.length - 1] ?? 0;
  const invalidReason =
    lagP99 > maxSendLagP99Ms
      ? `generator behind schedule: send lag p99 ${round2(lagP99)} ms > ${maxSendLagP99Ms} ms`
      : lagMax > maxSendLagMs
        ? `generator backlog: a fix waited ${round2(lagMax)} ms to be sent`
        : null;
  return {
    sessions: plan.sessions,
    fixesPerSecond: plan.fixesPerSecond,
    measured: lags.length,
    delivered: latencies.length,
    lost,
    sentTotal,
    latencyMs:
      latencies.length > 0
        ? {
            p50: round2(percentile(latencies, 0.5)),
            p99: round2(percentile(latencies, 0.99)),
            max: round2(latencies[latencies.length - 1] ?? 0),
          }
        : null,
    sendLagMs: { p99: round2(lagP99), max: round2(lagMax) },
    invalidReason,
    cpuMicrosPerFix: {
      servers: perFix(cpu.servers, plan.cpu.servers),
      redis: perFix(cpu.redis, plan.cpu.redis),
      postgres: perFix(cpu.postgres, plan.cpu.postgres),
    },
    generatorCpuPercent: percentOfOneCore(cpu.own),
    otherCpuPercent: percentOfOneCore(other),
    socketsClosed: socketsClosed - closedBefore,
    serverErrors: serverErrors - errorsBefore,
    ...(plan.detail
      ? {
          detail: {
            dispatchersPerSession: dispatchersPerSession(),
            deliveredInCpuWindow: rec.deliveredInCpuWindow,
            cpuWindowMs: plan.measureMs,
            cpuMicros: {
              servers: plan.cpu.servers.length > 0 ? cpu.servers : null,
              redis: plan.cpu.redis.length > 0 ? cpu.redis : null,
              postgres: plan.cpu.postgres.length > 0 ? cpu.postgres : null,
            },
            cpuMicrosByGroup: Object.fromEntries(
              groups.map(([name], i) => [
                name,
                cpuMicrosBetween(cpuStart.groups[i] ?? new Map(), cpuEnd.groups[i] ?? new Map()),
              ]),
            ),
          } satisfies StepDetail,
        }
      : {}),
  };
}

async function handle(request: GeneratorRequest): Promise<GeneratorReply> {
  switch (request.type) {
    case 'setup':
      setup = request.setup;
      wire = wires[setup.wire];
      if (!Number.isInteger(dispatchersPerSession()) || dispatchersPerSession() < 1) {
        throw new Error(`dispatchersPerSession must be a positive integer`);
      }
      sessions = setup.sessions.map((credentials, index) => ({
        index,
        credentials,
        dispatchers: Array.from({ length: dispatchersPerSession() }, () => undefined),
        lastCapturedAt: 0,
        inFlight: Array.from({ length: dispatchersPerSession() }, () => new Map<number, number>()),
      }));
      return { id: request.id, type: 'done' };
    case 'open':
      return { id: request.id, type: 'done', opened: await openUpTo(request.role, request.upTo) };
    case 'step':
      return { id: request.id, type: 'done', result: await runStep(request.plan) };
  }
}

process.on('message', (request: GeneratorRequest) => {
  handle(request)
    .catch((error: unknown): GeneratorReply => ({
      id: request.id,
      type: 'failed',
      message: error instanceof Error ? error.message : String(error),
    }))
    .then((reply) => process.send?.(reply));
});
// The orchestrator went away: nothing left to measure for.
process.on('disconnect', () => process.exit(0));
