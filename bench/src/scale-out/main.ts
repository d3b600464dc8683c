// `npm run bench -- --only scale-out`: the same fix stream through the real Locus API in three
// layouts (issue 16, "scale beyond one box"): 2 instances; 4 instances with each session's
// dispatcher on one of three; 4 instances with each session watched on all three. It shows what
// a second, third, fourth instance costs, and what each extra subscribing instance per fix costs
// Redis and the servers. docs/scaling.md reads its numbers.
//   --quick           a smoke run with small numbers, about a minute
//   --sessions N      sessions per layout, each at 1 fix/s (default 2,000)
//   --warmup S        warm-up seconds per step (default 3)
//   --seconds S       measured seconds per step (default 10)
//   --repeats N       measured steps per layout, on the same instances (default 2)
import { mkdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { diagnose, scrape, type InstanceDiagnostics } from '../diagnostics';
import { Generator } from '../generator/client';
import { runsDir } from '../paths';
import { pipelines, type Prepared } from '../pipelines';
import { killAllInstances, startInstance, type Instance } from '../servers';
import { redisPids } from '../stores';
import {
  layouts,
  parseRedisInfo,
  scaleOutNumbers,
  type Layout,
  type LayoutRun,
  type RedisCounters,
  type ScaleOutStep,
} from './layouts';
import { compareLayouts, summaryTable, writeScaleOutReport, type ScaleOutReport } from './report';
import { onlyNames } from '../only';

/** True when `--only` names this bench (it cannot be combined with the realtime pipelines). */
export function isScaleOutRun(argv: string[]): boolean {
  return onlyNames(argv, 'scale-out');
}

const log = (message: string): void => console.log(`[scale-out] ${message}`);
const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));
const errorText = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

interface Settings {
  sessions: number;
  warmupMs: number;
  measureMs: number;
  graceMs: number;
  repeats: number;
}

function settingsFrom(argv: string[]): { settings: Settings; quick: boolean } {
  const { values } = parseArgs({
    args: argv,
    options: {
      only: { type: 'string' },
      quick: { type: 'boolean', default: false },
      sessions: { type: 'string' },
      warmup: { type: 'string' },
      seconds: { type: 'string' },
      repeats: { type: 'string' },
    },
  });
  const quick = values.quick ?? false;
  const number = (value: string | undefined, fallback: number, name: string): number => {
    if (value === undefined) return fallback;
    const parsed = Number(value);
    if (!Number.isFinite(parsed) || parsed <= 0) throw new Error(`--${name} must be a number > 0`);
    return parsed;
  };
  return {
    quick,
    settings: {
      sessions: Math.round(number(values.sessions, quick ? 150 : 2_000, 'sessions')),
      warmupMs: number(values.warmup, quick ? 1 : 3, 'warmup') * 1000,
      measureMs: number(values.seconds, quick ? 2 : 10, 'seconds') * 1000,
      graceMs: quick ? 1_000 : 2_000,
      repeats: Math.round(number(values.repeats, quick ? 1 : 2, 'repeats')),
    },
  };
}

async function redisCounters(redis: Redis): Promise<RedisCounters | null> {
  try {
    return parseRedisInfo(await redis.info('stats'));
  } catch {
    return null;
  }
}

async function scrapeAll(
  instances: Instance[],
): Promise<Awaited<ReturnType<typeof scrape>>[] | null> {
  try {
    return await Promise.all(instances.map((instance) => scrape(instance.port)));
  } catch {
    return null;
  }
}

/** Starts them together; if any fails, stops those that started and throws. */
async function startInstances(
  names: string[],
  env: Record<string, string>,
  logDir: string,
): Promise<Instance[]> {
  const entry = pipelines.locus.entry;
  const started = await Promise.allSettled(
    names.map((name) => startInstance({ name, entry, env, logDir })),
  );
  const up = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await Promise.all(up.map((instance) => instance.stop()));
    throw failed.reason instanceof Error ? failed.reason : new Error(String(failed.reason));
  }
  return up;
}

async function runLayout(
  layout: Layout,
  settings: Settings,
  context: { runId: string; logDir: string; redis: Redis; redisProcesses: number[] },
): Promise<LayoutRun> {
  const started = Date.now();
  const say = (message: string): void => log(`${layout.id}: ${message}`);
  const run: LayoutRun = {
    layout,
    instances: [],
    steps: [],
    persistence: null,
    error: null,
    durationSeconds: 0,
  };
  let prepared: Prepared | undefined;
  let instances: Instance[] = [];
  let generator: Generator | undefined;
  try {
    // Fresh sessions per layout: no counters, streams or socket lists left by the layout before.
    say(`preparing ${settings.sessions} sessions`);
    prepared = await pipelines.locus.prepare(settings.sessions);
    const dispatcherNames = Array.from({ length: layout.dispatcherInstances }, (_, i) =>
      layout.dispatcherInstances === 1
        ? `scale-out-${layout.id}-A`
        : `scale-out-${layout.id}-A${i + 1}`,
    );
    const callerName = `scale-out-${layout.id}-B`;
    instances = await startInstances(
      [...dispatcherNames, callerName],
      pipelines.locus.env(context.runId),
      context.logDir,
    );
    const dispatchers = instances.slice(0, layout.dispatcherInstances);
    const callers = instances[instances.length - 1]!;
    run.instances = [
      ...dispatchers.map((i) => ({ name: i.name, port: i.port, role: 'dispatchers' as const })),
      { name: callers.name, port: callers.port, role: 'callers' as const },
    ];
    say(
      `instances up: dispatchers on ${dispatchers.map((i) => `:${i.port}`).join(', ')}, callers on :${callers.port}`,
    );
    generator = await Generator.start({
      wire: 'locus',
      portA: dispatchers[0]!.port,
      portB: callers.port,
      sessions: prepared.sessions,
      dispatcherPorts: dispatchers.map((i) => i.port),
      dispatchersPerSession: layout.dispatchersPerSession,
    });
    // Dispatchers first: a fix sent before its dispatchers joined would have no one to reach.
    await generator.open('dispatcher', settings.sessions);
    await generator.open('caller', settings.sessions);
    say(
      `${settings.sessions * layout.dispatchersPerSession} dispatcher and ${settings.sessions} caller sockets open`,
    );
    await sleep(1_000);

    const servers = instances.flatMap((i) => i.pids);
    const groups = Object.fromEntries(instances.map((i) => [i.name, i.pids]));
    for (let repeat = 1; repeat <= settings.repeats; repeat += 1) {
      // Postgres forks a backend per connection; list them afresh for every step.
      const postgres = (await prepared.postgresPids?.()) ?? [];
      const metricsBefore = await scrapeAll(instances);
      const redisBefore = await redisCounters(context.redis);
      const result = await generator.step({
        sessions: settings.sessions,
        fixesPerSecond: settings.sessions,
        warmupMs: settings.warmupMs,
        measureMs: settings.measureMs,
        graceMs: settings.graceMs,
        cpu: { servers, redis: context.redisProcesses, postgres, groups },
        detail: true,
      });
      const redisAfter = await redisCounters(context.redis);
      const metricsAfter = await scrapeAll(instances);
      const diagnostics: Record<string, InstanceDiagnostics> | null =
        metricsBefore && metricsAfter
          ? Object.fromEntries(
              instances.map((instance, i) => [
                instance.name,
                diagnose(metricsBefore[i]!, metricsAfter[i]!),
              ]),
            )
          : null;
      const step: ScaleOutStep = {
        repeat,
        result,
        numbers: scaleOutNumbers(result, redisBefore, redisAfter, dispatcherNames, callerName),
        redis: redisBefore && redisAfter ? { before: redisBefore, after: redisAfter } : null,
        diagnostics,
      };
      run.steps.push(step);
      const n = step.numbers;
      say(
        `repeat ${repeat}: p50 ${result.latencyMs?.p50 ?? '–'} ms, p99 ${result.latencyMs?.p99 ?? '–'} ms, ` +
          `lost ${result.lost} of ${result.measured * layout.dispatchersPerSession} deliveries, ` +
          `${n.deliveriesPerFix ?? '–'} deliveries per fix; CPU µs per fix: servers ${n.cpuMicrosPerFix.servers ?? '?'} ` +
          `(A ${n.cpuMicrosPerFix.dispatcherInstances ?? '?'}, B ${n.cpuMicrosPerFix.callerInstance ?? '?'}), ` +
          `Redis ${n.cpuMicrosPerFix.redis ?? '?'}, Postgres ${n.cpuMicrosPerFix.postgres ?? '?'}; ` +
          `Redis out ${n.redisPerFix?.outputBytes ?? '?'} B per fix; send lag p99 ${result.sendLagMs.p99} ms; ` +
          `other CPU ${result.otherCpuPercent} %` +
          (result.invalidReason ? `; INVALID: ${result.invalidReason}` : ''),
      );
      await sleep(500);
    }

    if (prepared.countPersisted) {
      await sleep(1_000); // persistence batches flush within 100 ms
      const sent = run.steps.reduce((sum, s) => sum + s.result.sentTotal, 0);
      run.persistence = { sent, persisted: await prepared.countPersisted() };
      say(`persisted ${run.persistence.persisted} of ${sent} fixes sent`);
    }
  } catch (error) {
    run.error = errorText(error);
    say(`FAILED: ${run.error}`);
  } finally {
    generator?.stop();
    await Promise.all(instances.map((instance) => instance.stop()));
    await prepared?.close();
    run.durationSeconds = Math.round((Date.now() - started) / 1000);
  }
  return run;
}

export async function runScaleOutBench(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof settingsFrom>;
  try {
    parsed = settingsFrom(argv);
  } catch (error) {
    console.error(`[scale-out] ${errorText(error)}`);
    return 2;
  }
  const { settings, quick } = parsed;
  process.on('exit', killAllInstances);
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => process.exit(130));

  const redisUrl = process.env.REDIS_URL;
  if (!redisUrl || !process.env.DATABASE_URL) {
    console.error(
      '[scale-out] DATABASE_URL and REDIS_URL must be set (run through `npm run bench`)',
    );
    return 2;
  }
  const startedAt = new Date().toISOString();
  const runId = `${startedAt.slice(0, 19).replace(/[-:T]/g, '')}-${process.pid}-scale-out`;
  const logDir = join(runsDir, runId);
  mkdirSync(logDir, { recursive: true });
  const [loadStart = 0] = loadavg();
  log(
    `run ${runId} (${quick ? 'quick' : 'full'}): ${settings.sessions} sessions × 1 fix/s, ` +
      `${settings.warmupMs / 1000} s warm-up + ${settings.measureMs / 1000} s measured × ${settings.repeats}; logs in ${logDir}`,
  );
  if (loadStart > 0.5) {
    console.warn(
      `[scale-out] load average is ${loadStart.toFixed(2)}: other work on these cores skews the numbers`,
    );
  }

  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  const redisProcesses = await redisPids(redisUrl);
  const runs: LayoutRun[] = [];
  try {
    for (const layout of layouts) {
      runs.push(await runLayout(layout, settings, { runId, logDir, redis, redisProcesses }));
      await sleep(1_000);
    }
  } finally {
    redis.disconnect();
  }

  const [loadEnd = 0] = loadavg();
  const cpuList = cpus();
  const report: ScaleOutReport = {
    bench: 'scale-out',
    runId,
    startedAt,
    mode: quick ? 'quick' : 'full',
    durationSeconds: Math.round((Date.now() - Date.parse(startedAt)) / 1000),
    machine: {
      cpus: cpuList.length,
      cpuModel: cpuList[0]?.model.trim() ?? 'unknown',
      node: process.version,
      loadAverageStart: Math.round(loadStart * 100) / 100,
      loadAverageEnd: Math.round(loadEnd * 100) / 100,
    },
    settings: { ...settings, fixesPerSecond: settings.sessions },
    layouts: runs,
    comparison: compareLayouts(runs),
  };
  const written = writeScaleOutReport(report);
  console.log(`\n${summaryTable(report).join('\n')}\n`);
  log(`wrote ${written.join(', ')}`);
  return runs.some((r) => r.error) ? 1 : 0;
}
