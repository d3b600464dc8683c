import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import type { StepResult, WireName } from './generator/messages';
import { resultsDir } from './paths';
import type { Plan } from './plan';
import type { MeasuredStep, PipelineResult } from './scenario';

export interface Report {
  runId: string;
  startedAt: string;
  mode: Plan['mode'];
  machine: { cpus: number; cpuModel: string; node: string };
  plan: Plan;
  pipelines: PipelineResult[];
  targets: TargetCheck[];
}

export interface TargetCheck {
  target: string;
  value: string;
  status: 'met' | 'missed' | 'unknown';
}

const fmt = (n: number): string => n.toLocaleString('en-US');

const find = (report: Pick<Report, 'pipelines'>, name: WireName): PipelineResult | undefined =>
  report.pipelines.find((p) => p.name === name);

/** The p99 of the largest latency step, if that step was valid. */
function largestStepP99(pipeline: PipelineResult | undefined): number | null {
  const step = pipeline?.steps.at(-1);
  if (!step?.latencyMs || step.invalidReason) return null;
  return step.latencyMs.p99;
}

function check(
  target: string,
  value: number | null,
  unit: string,
  met: (v: number) => boolean,
): TargetCheck {
  if (value === null) return { target, value: 'no valid measurement', status: 'unknown' };
  return { target, value: `${fmt(value)}${unit}`, status: met(value) ? 'met' : 'missed' };
}

export function checkTargets(pipelines: PipelineResult[], plan: Plan): TargetCheck[] {
  const report = { pipelines };
  const locus = find(report, 'locus');
  const largest = fmt(Math.max(...plan.sessionSteps));
  const locusP99 = largestStepP99(locus);
  const referenceP99 = largestStepP99(find(report, 'reference'));
  const peer = find(report, 'peer');
  const peerP99 = largestStepP99(peer);
  const locusMax = locus?.ramp?.maxSustainedFixesPerSecond ?? null;
  const peerMax = peer?.ramp?.maxSustainedFixesPerSecond ?? null;

  const ratio =
    locusP99 !== null && referenceP99 ? Math.round((locusP99 / referenceP99) * 100) / 100 : null;
  const ahead: TargetCheck =
    locusP99 === null || peerP99 === null || !locus?.ramp || !peer?.ramp
      ? {
          target: 'ahead of the Socket.IO peer relay',
          value: 'no valid measurement',
          status: 'unknown',
        }
      : {
          target: 'ahead of the Socket.IO peer relay (lower p99 and at least its sustained rate)',
          value: `p99 ${locusP99} vs ${peerP99} ms; ${fmt(locusMax ?? 0)} vs ${fmt(peerMax ?? 0)} fixes/s`,
          status: locusP99 < peerP99 && (locusMax ?? 0) >= (peerMax ?? 0) ? 'met' : 'missed',
        };
  const persisted = locus?.persistence;
  const allStored = persisted ? persisted.persisted === persisted.sent : false;
  const throughput = check(
    '≥ 4,500 fixes/s sustained (p99 ≤ 50 ms), every fix in Postgres 1 s after the run',
    locus?.ramp ? (locusMax ?? 0) : null,
    ' fixes/s',
    (v) => v >= 4_500 && allStored,
  );
  if (persisted)
    throughput.value += ` (persisted ${fmt(persisted.persisted)} of ${fmt(persisted.sent)} sent)`;
  // Say why the ramp stopped: a pipeline over the ceiling, or a generator starved of CPU (on a
  // shared machine, mostly by the pipeline itself; the step's own p99 says how far off it was).
  if (locus?.ramp && throughput.status === 'missed')
    throughput.value += `; ramp stopped: ${locus.ramp.stoppedBecause}, p99 there ${locus.ramp.steps.at(-1)?.latencyMs?.p99 ?? '–'} ms`;
  const rampTop = Math.max(...plan.rampFixesPerSecond);
  if (throughput.status === 'missed' && locusMax === rampTop && allStored) {
    // Never failed, but the ramp stopped below the target (a quick run): nothing is known.
    throughput.status = 'unknown';
    throughput.value += `; the ramp stops at ${fmt(rampTop)}`;
  }

  // CPU per fix at the largest latency step: the same load for every pipeline, always run.
  const locusCpu = locus?.steps.at(-1)?.cpuMicrosPerFix.servers ?? null;
  const referenceCpu = find(report, 'reference')?.steps.at(-1)?.cpuMicrosPerFix.servers ?? null;
  const cpu = check(
    `server CPU per fix ≤ 1.3× the reference relay's, at ${largest} sessions`,
    locusCpu !== null && referenceCpu ? Math.round((locusCpu / referenceCpu) * 100) / 100 : null,
    '×',
    (v) => v <= 1.3,
  );
  if (cpu.status !== 'unknown')
    cpu.value += ` (${fmt(locusCpu ?? 0)} vs ${fmt(referenceCpu ?? 0)} µs)`;

  // Memory: the heap after a forced GC is what the instance keeps; RSS is shown beside it.
  const memory = check(
    '≤ 12 KiB per idle dispatcher connection (heap + external after a forced GC)',
    locus?.memory?.heap?.kibPerConnection ?? null,
    ' KiB',
    (v) => v <= 12,
  );
  if (locus?.memory) memory.value += ` (RSS delta ${locus.memory.kibPerConnection} KiB)`;

  const probe = locus?.startStream;
  const startStream: TargetCheck = !probe?.latencyMs
    ? { target: startStreamTarget(largest), value: 'no valid measurement', status: 'unknown' }
    : {
        target: startStreamTarget(largest),
        value:
          `p99 ${probe.latencyMs.p99} ms over ${fmt(probe.requests)} requests` +
          (probe.failed > 0 ? `, ${probe.failed} failed` : '') +
          (locus?.startStreamStep?.invalidReason ? ' (the step itself was INVALID)' : ''),
        status: probe.latencyMs.p99 <= 25 && probe.failed === 0 ? 'met' : 'missed',
      };

  return [
    check(`caller→dispatcher p99 ≤ 10 ms at ${largest} sessions`, locusP99, ' ms', (v) => v <= 10),
    check(`p99 ≤ 2× the reference relay's p99 at ${largest} sessions`, ratio, '×', (v) => v <= 2),
    ahead,
    throughput,
    cpu,
    memory,
    startStream,
  ];
}

const startStreamTarget = (largest: string): string =>
  `start-stream p99 ≤ 25 ms while the ${largest}-session load runs`;

function cpuCell(step: MeasuredStep | undefined): string {
  if (!step) return '–';
  const { servers, redis, postgres } = step.cpuMicrosPerFix;
  return [servers, redis, postgres].map((v) => (v === null ? '–' : fmt(v))).join(' / ');
}

function latencyCell(step: StepResult | undefined): string {
  if (!step) return '–';
  if (!step.latencyMs) return 'nothing delivered';
  const cell = `${step.latencyMs.p50} / ${step.latencyMs.p99}`;
  return step.invalidReason ? `${cell} (INVALID)` : cell;
}

function stepRow(pipeline: PipelineResult, step: MeasuredStep, kind: string): string {
  return [
    pipeline.title,
    kind,
    fmt(step.sessions),
    fmt(step.fixesPerSecond),
    step.latencyMs ? `${step.latencyMs.p50}` : '–',
    step.latencyMs ? `${step.latencyMs.p99}` : '–',
    step.latencyMs ? `${step.latencyMs.max}` : '–',
    `${step.lost} / ${fmt(step.measured)}`,
    `${step.sendLagMs.p99}`,
    `${step.generatorCpuPercent}`,
    `${step.otherCpuPercent}`,
    cpuCell(step),
    step.invalidReason ? `INVALID: ${step.invalidReason}` : 'valid',
  ].join(' | ');
}

/** What the Locus instances reported about themselves during each step. */
function diagnosticsTable(pipelines: PipelineResult[]): string[] {
  const rows = pipelines.flatMap((p) =>
    [
      ...p.steps,
      ...(p.startStreamStep ? [p.startStreamStep] : []),
      ...(p.ramp?.steps ?? []),
    ].flatMap((step) => {
      const d = step.diagnostics;
      if (!d) return [];
      return [
        [
          p.title,
          fmt(step.sessions),
          fmt(step.fixesPerSecond),
          `${d.A.eventLoopDelayP99Ms} / ${d.A.eventLoopDelayMaxMs}`,
          `${d.B.eventLoopDelayP99Ms} / ${d.B.eventLoopDelayMaxMs}`,
          `${d.A.gcMsPerSecond} / ${d.B.gcMsPerSecond}`,
          `${d.B.persistBatches} × ${d.B.persistBatchMeanMs ?? '–'} ms`,
        ].join(' | '),
      ];
    }),
  );
  if (rows.length === 0) return [];
  return [
    '',
    '## What the Locus instances reported (Prometheus metrics, whole step)',
    '',
    '| pipeline | sessions | fixes/s | event-loop delay p99 / max ms, A | same, B | GC ms per s, A / B | persist batches on B × mean |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row} |`),
  ];
}

export function toMarkdown(report: Report): string {
  const ps = report.pipelines;
  const row = (label: string, cell: (p: PipelineResult) => string): string =>
    `| ${label} | ${ps.map(cell).join(' | ')} |`;
  const lines = [
    `# Locus realtime benchmark — ${report.startedAt} (${report.mode})`,
    '',
    `Run \`${report.runId}\` on ${report.machine.cpus} × ${report.machine.cpuModel}, Node ${report.machine.node}. ` +
      'Each pipeline runs as two instances sharing one Redis: dispatchers on A, callers on B, so every ' +
      'fix crosses Redis. Latency is dispatcher receive time minus the fix’s scheduled (open-loop) send time.',
    report.mode === 'quick'
      ? '\n**Quick smoke run: the numbers are too small to judge the targets by.**'
      : '',
    '',
    `| | ${ps.map((p) => p.title).join(' | ')} |`,
    `|---|${ps.map(() => '---').join('|')}|`,
    ...report.plan.sessionSteps.map((sessions) =>
      row(`p50 / p99 ms at ${fmt(sessions)} sessions × 1 fix/s`, (p) =>
        latencyCell(p.steps.find((s) => s.sessions === sessions)),
      ),
    ),
    row('max sustained fixes/s (p99 ≤ 50 ms)', (p) =>
      p.ramp ? fmt(p.ramp.maxSustainedFixesPerSecond ?? 0) : '–',
    ),
    row('KiB per idle dispatcher connection: RSS delta / heap + external after a forced GC', (p) =>
      p.memory
        ? `${p.memory.kibPerConnection} / ${p.memory.heap ? p.memory.heap.kibPerConnection : '–'}`
        : '–',
    ),
    row(
      `start-stream p50 / p99 ms under the ${fmt(Math.max(...report.plan.sessionSteps))}-session load`,
      (p) =>
        p.startStream?.latencyMs
          ? `${p.startStream.latencyMs.p50} / ${p.startStream.latencyMs.p99}`
          : '–',
    ),
    row(
      `CPU µs per fix at ${fmt(Math.max(...report.plan.sessionSteps))} sessions: servers (A+B) / Redis / Postgres`,
      (p) => cpuCell(p.steps.at(-1)),
    ),
    '',
    '## Targets (Locus)',
    '',
    '| target | measured | status |',
    '|---|---|---|',
    ...report.targets.map((t) => `| ${t.target} | ${t.value} | ${t.status.toUpperCase()} |`),
    '',
    '## Every step',
    '',
    '| pipeline | kind | sessions | fixes/s | p50 ms | p99 ms | max ms | lost / measured | send lag p99 ms | generator CPU % | other CPU % | CPU µs/fix servers / Redis / Postgres | validity |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...ps.flatMap((p) => [
      ...p.steps.map((s) => `| ${stepRow(p, s, 'latency')} |`),
      ...(p.startStreamStep
        ? [`| ${stepRow(p, p.startStreamStep, 'latency + start-stream')} |`]
        : []),
      ...(p.ramp?.steps ?? []).map((s) => `| ${stepRow(p, s, 'ramp')} |`),
    ]),
    ...diagnosticsTable(ps),
    '',
    '## Per pipeline',
    '',
    ...ps.map((p) =>
      [
        `- **${p.title}** (${p.durationSeconds} s)`,
        p.ramp ? `: ramp stopped: ${p.ramp.stoppedBecause}` : '',
        p.memory
          ? `; memory: RSS of A ${fmt(p.memory.rssBeforeKiB)} → ${fmt(p.memory.rssAfterKiB)} KiB across ${fmt(p.memory.connections)} idle dispatchers` +
            (p.memory.heap
              ? `, heap ${fmt(p.memory.heap.usedBeforeKiB)} → ${fmt(p.memory.heap.usedAfterKiB)} KiB and external ${fmt(p.memory.heap.externalBeforeKiB)} → ${fmt(p.memory.heap.externalAfterKiB)} KiB after a forced GC`
              : '')
          : '',
        p.startStream
          ? `; start-stream: ${fmt(p.startStream.requests)} at ${p.startStream.ratePerSecond}/s, ${p.startStream.failed} failed${p.startStream.firstFailure ? ` (first: ${p.startStream.firstFailure})` : ''}`
          : '',
        p.persistence
          ? `; persisted ${fmt(p.persistence.persisted)} of ${fmt(p.persistence.sent)} fixes sent`
          : '',
        p.error ? `; **FAILED: ${p.error.split('\n')[0]}**` : '',
      ].join(''),
    ),
    '',
  ];
  return lines.join('\n');
}

export function buildReport(fields: Omit<Report, 'machine' | 'targets'>): Report {
  const cpuList = cpus();
  return {
    ...fields,
    machine: {
      cpus: cpuList.length,
      cpuModel: cpuList[0]?.model.trim() ?? 'unknown',
      node: process.version,
    },
    targets: checkTargets(fields.pipelines, fields.plan),
  };
}

/** Writes latest.{json,md} (latest-quick.* for smoke runs) and a dated copy of each. */
export function writeReport(report: Report): string[] {
  mkdirSync(resultsDir, { recursive: true });
  const suffix = report.mode === 'quick' ? '-quick' : '';
  const dated = `${report.startedAt.replace(/[:.]/g, '-')}${suffix}`;
  const json = `${JSON.stringify(report, null, 2)}\n`;
  const markdown = toMarkdown(report);
  const written: string[] = [];
  for (const base of [`latest${suffix}`, dated]) {
    writeFileSync(join(resultsDir, `${base}.json`), json);
    writeFileSync(join(resultsDir, `${base}.md`), markdown);
    written.push(join(resultsDir, `${base}.json`), join(resultsDir, `${base}.md`));
  }
  return written;
}
