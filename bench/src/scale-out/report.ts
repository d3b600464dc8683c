import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resultsDir } from '../paths';
import type { LayoutRun, ScaleOutStep } from './layouts';

export interface ScaleOutReport {
  bench: 'scale-out';
  runId: string;
  startedAt: string;
  mode: 'full' | 'quick';
  durationSeconds: number;
  machine: {
    cpus: number;
    cpuModel: string;
    node: string;
    loadAverageStart: number;
    loadAverageEnd: number;
  };
  settings: {
    sessions: number;
    fixesPerSecond: number;
    warmupMs: number;
    measureMs: number;
    graceMs: number;
    repeats: number;
  };
  layouts: LayoutRun[];
  /** Each layout against the first (2 instances), medians of its valid repeats. */
  comparison: LayoutComparison[];
}

export interface LayoutComparison {
  layout: LayoutRun['layout']['id'];
  deliveriesPerFix: number | null;
  /** µs per fix, median over the layout's repeats. */
  servers: number | null;
  redis: number | null;
  postgres: number | null;
  redisOutputBytesPerFix: number | null;
  /** Ratios to the 2-instance layout. */
  serversRatio: number | null;
  redisRatio: number | null;
  redisOutputRatio: number | null;
}

const fmt = (n: number | null | undefined): string =>
  n === null || n === undefined || Number.isNaN(n) ? '–' : n.toLocaleString('en-US');

function median(values: (number | null)[]): number | null {
  const present = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
  if (present.length === 0) return null;
  const mid = Math.floor(present.length / 2);
  const value = present.length % 2 === 1 ? present[mid]! : (present[mid - 1]! + present[mid]!) / 2;
  return Math.round(value * 10) / 10;
}

const ratio = (value: number | null, base: number | null): number | null =>
  value === null || base === null || base === 0 ? null : Math.round((value / base) * 100) / 100;

/** Medians per layout (valid steps only, all steps when none is valid), and ratios to the first. */
export function compareLayouts(runs: LayoutRun[]): LayoutComparison[] {
  const rows = runs.map((run) => {
    const valid = run.steps.filter((s) => !s.result.invalidReason);
    const steps = valid.length > 0 ? valid : run.steps;
    const pick = (get: (s: ScaleOutStep) => number | null): number | null => median(steps.map(get));
    return {
      layout: run.layout.id,
      deliveriesPerFix: pick((s) => s.numbers.deliveriesPerFix),
      servers: pick((s) => s.numbers.cpuMicrosPerFix.servers),
      redis: pick((s) => s.numbers.cpuMicrosPerFix.redis),
      postgres: pick((s) => s.numbers.cpuMicrosPerFix.postgres),
      redisOutputBytesPerFix: pick((s) => s.numbers.redisPerFix?.outputBytes ?? null),
    };
  });
  const base = rows[0];
  return rows.map((row) => ({
    ...row,
    serversRatio: ratio(row.servers, base?.servers ?? null),
    redisRatio: ratio(row.redis, base?.redis ?? null),
    redisOutputRatio: ratio(row.redisOutputBytesPerFix, base?.redisOutputBytesPerFix ?? null),
  }));
}

function stepRow(run: LayoutRun, step: ScaleOutStep): string {
  const r = step.result;
  const n = step.numbers;
  const latency = r.latencyMs
    ? `${fmt(r.latencyMs.p50)} | ${fmt(r.latencyMs.p99)} | ${fmt(r.latencyMs.max)}`
    : '– | – | –';
  const perInstance = Object.entries(n.cpuMicrosPerFixByInstance)
    .map(([name, micros]) => `${name.replace(/^.*-/, '')} ${fmt(micros)}`)
    .join(', ');
  return (
    `| ${run.layout.id} | ${step.repeat} | ${latency} | ${fmt(r.lost)} / ${fmt(r.measured * (r.detail?.dispatchersPerSession ?? 1))} | ` +
    `${fmt(n.deliveriesPerFix)} | ${fmt(n.cpuMicrosPerFix.servers)} | ${fmt(n.cpuMicrosPerFix.dispatcherInstances)} / ${fmt(n.cpuMicrosPerFix.callerInstance)} | ` +
    `${perInstance} | ${fmt(n.cpuMicrosPerFix.redis)} | ${fmt(n.cpuMicrosPerFix.postgres)} | ` +
    `${fmt(n.cpuMicrosPerDelivery.servers)} / ${fmt(n.cpuMicrosPerDelivery.redis)} | ` +
    `${fmt(n.redisPerFix?.outputBytes)} / ${fmt(n.redisPerFix?.inputBytes)} / ${fmt(n.redisPerFix?.commands)} | ` +
    `${fmt(n.coresBusy.servers)} / ${fmt(n.coresBusy.redis)} / ${fmt(n.coresBusy.postgres)} | ` +
    `${fmt(r.sendLagMs.p99)} | ${fmt(r.generatorCpuPercent)} | ${fmt(r.otherCpuPercent)} | ` +
    `${r.invalidReason ? `INVALID: ${r.invalidReason}` : 'valid'} |`
  );
}

export function summaryTable(report: ScaleOutReport): string[] {
  return [
    '| layout | subscribing instances per fix | deliveries per fix | CPU µs per fix: servers (all instances) | Redis | Postgres | Redis output bytes per fix | servers / Redis / Redis output vs 2 instances |',
    '|---|---|---|---|---|---|---|---|',
    ...report.comparison.map((c) => {
      const run = report.layouts.find((l) => l.layout.id === c.layout);
      return (
        `| ${c.layout} | ${run?.layout.dispatchersPerSession ?? '?'} | ${fmt(c.deliveriesPerFix)} | ${fmt(c.servers)} | ` +
        `${fmt(c.redis)} | ${fmt(c.postgres)} | ${fmt(c.redisOutputBytesPerFix)} | ` +
        `${fmt(c.serversRatio)}× / ${fmt(c.redisRatio)}× / ${fmt(c.redisOutputRatio)}× |`
      );
    }),
  ];
}

export function toMarkdown(report: ScaleOutReport): string {
  const { machine, settings } = report;
  const diagnosticsRows = report.layouts.flatMap((run) =>
    run.steps.flatMap((step) =>
      Object.entries(step.diagnostics ?? {}).map(
        ([name, d]) =>
          `| ${run.layout.id} | ${step.repeat} | ${name} | ${d.eventLoopDelayP99Ms} / ${d.eventLoopDelayMaxMs} | ${d.gcMsPerSecond} | ${d.persistBatches} × ${d.persistBatchMeanMs ?? '–'} ms |`,
      ),
    ),
  );
  return [
    `# Locus scale-out benchmark — ${report.startedAt} (${report.mode})`,
    '',
    `Run \`${report.runId}\` on ${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}; load average ` +
      `${machine.loadAverageStart} at the start, ${machine.loadAverageEnd} at the end; ${report.durationSeconds} s. ` +
      `The real Locus API (persistence on), one Redis, one Postgres, the load generator and every instance share ` +
      `this machine's ${machine.cpus} cores. Each layout: ${fmt(settings.sessions)} fresh sessions × 1 fix/s ` +
      `(${fmt(settings.fixesPerSecond)} fixes/s), ${settings.warmupMs / 1000} s warm-up, ${settings.measureMs / 1000} s measured, ` +
      `${settings.repeats} repeat(s) on the same instances. Latency is dispatcher receive time minus the fix's scheduled ` +
      `(open-loop) send time, one sample per delivery (a fix watched by 3 dispatchers gives 3).`,
    '',
    ...report.layouts.map(
      (run) =>
        `- **${run.layout.id}**: ${run.layout.title} (${run.layout.expectation}); instances ` +
        `${run.instances.map((i) => `${i.name} :${i.port} (${i.role})`).join(', ')}` +
        (run.persistence
          ? `; persisted ${fmt(run.persistence.persisted)} of ${fmt(run.persistence.sent)} fixes sent`
          : '') +
        (run.error ? `; **ERROR** ${run.error}` : '') +
        ` (${run.durationSeconds} s)`,
    ),
    '',
    '## Per layout (medians of the valid repeats)',
    '',
    ...summaryTable(report),
    '',
    '## Every step',
    '',
    'CPU per fix divides the CPU time of the measured window by the fixes fanned out in it (deliveries ÷ dispatchers per session); per delivery divides it by the deliveries. Redis traffic is from `INFO stats` around the whole step (warm-up included) ÷ fixes sent in it. "A / B" is the dispatchers\' instances together / the callers\' instance.',
    '',
    '| layout | repeat | p50 ms | p99 ms | max ms | lost / measured deliveries | deliveries per fix | CPU µs/fix servers | A / B | per instance | Redis | Postgres | µs per delivery: servers / Redis | Redis bytes out / in / commands per fix | cores busy: servers / Redis / Postgres | send lag p99 ms | generator CPU % | other CPU % | validity |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...report.layouts.flatMap((run) => run.steps.map((step) => stepRow(run, step))),
    '',
    '## What the instances reported (Prometheus metrics, whole step)',
    '',
    '| layout | repeat | instance | event-loop delay p99 / max ms | GC ms per s | persist batches × mean |',
    '|---|---|---|---|---|---|',
    ...diagnosticsRows,
    '',
  ].join('\n');
}

/** Writes latest-scale-out.{json,md} and a dated copy of each, as the other benches do. */
export function writeScaleOutReport(report: ScaleOutReport): string[] {
  mkdirSync(resultsDir, { recursive: true });
  const suffix = report.mode === 'quick' ? 'scale-out-quick' : 'scale-out';
  const dated = `${report.startedAt.replace(/[:.]/g, '-')}-${suffix}`;
  const json = `${JSON.stringify(report, null, 2)}\n`;
  const markdown = toMarkdown(report);
  const written: string[] = [];
  for (const base of [`latest-${suffix}`, dated]) {
    writeFileSync(join(resultsDir, `${base}.json`), json);
    writeFileSync(join(resultsDir, `${base}.md`), markdown);
    written.push(join(resultsDir, `${base}.json`), join(resultsDir, `${base}.md`));
  }
  return written;
}
