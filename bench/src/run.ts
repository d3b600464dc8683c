// `npm run bench` (through infra's CLI, with DATABASE_URL and REDIS_URL set) runs this.
//   --quick            a smoke run with small numbers, about a minute
//   --only a,b         only these pipelines: locus, reference, peer
//   --only caller-page the caller page in a throttled Chromium (see caller-page/main.ts)
//   --only metrics     the metrics calls over a million sessions (see metrics/main.ts)
//   --only overwatch   the Overwatch screen's frame times under 200 phones (see overwatch/main.ts)
//   --only scale-out   2 vs 4 instances, 1 vs 3 subscribing instances per fix (see scale-out/main.ts)
import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { WireName } from './generator/messages';
import { isCallerPageRun, runCallerPage } from './caller-page/main';
import { isMetricsRun, runMetricsBench } from './metrics/main';
import { isOverwatchRun, runOverwatchBench } from './overwatch/main';
import { runsDir } from './paths';
import { isScaleOutRun, runScaleOutBench } from './scale-out/main';
import { pipelines } from './pipelines';
import { planFor } from './plan';
import { buildReport, toMarkdown, writeReport } from './report';
import { benchPipeline, type PipelineResult } from './scenario';
import { killAllInstances } from './servers';

// `--only caller-page` is a bench of its own (a throttled Chromium against the caller's page):
// bench/src/caller-page/, with its own options.
if (isCallerPageRun(process.argv.slice(2)))
  process.exit(await runCallerPage(process.argv.slice(2)));
// `--only metrics`: the metrics calls over a database of their own (bench/src/metrics/).
if (isMetricsRun(process.argv.slice(2))) process.exit(await runMetricsBench(process.argv.slice(2)));
// `--only overwatch`: the Overwatch screen under 200 phones in a real Chromium (bench/src/overwatch/).
if (isOverwatchRun(process.argv.slice(2)))
  process.exit(await runOverwatchBench(process.argv.slice(2)));
// `--only scale-out`: the Locus API in 2- and 4-instance layouts (bench/src/scale-out/).
if (isScaleOutRun(process.argv.slice(2)))
  process.exit(await runScaleOutBench(process.argv.slice(2)));

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string', default: 'locus,reference,peer' },
  },
});

const names = (values.only ?? '').split(',').map((name) => name.trim());
const unknown = names.filter((name) => !(name in pipelines));
if (unknown.length > 0) {
  console.error(
    `unknown pipeline(s): ${unknown.join(', ')}; choose from ${Object.keys(pipelines).join(', ')}`,
  );
  process.exit(2);
}

process.on('exit', killAllInstances);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

const plan = planFor(values.quick ?? false);
const startedAt = new Date().toISOString();
const runId = `${startedAt.slice(0, 19).replace(/[-:T]/g, '')}-${process.pid}`;
const logDir = join(runsDir, runId);
mkdirSync(logDir, { recursive: true });
console.log(`[bench] run ${runId} (${plan.mode}); server logs in ${logDir}`);
const [load = 0] = loadavg();
if (load > 0.5) {
  console.warn(
    `[bench] load average is ${load.toFixed(2)}: other work on these cores skews latency`,
  );
}

const results: PipelineResult[] = [];
for (const name of names as WireName[]) {
  // One pipeline at a time: on 2 cores, running them together would measure contention.
  const pipeline = pipelines[name];
  results.push(await benchPipeline(pipeline, plan, { runId, logDir }));
}

const report = buildReport({ runId, startedAt, mode: plan.mode, plan, pipelines: results });
const written = writeReport(report);
console.log(`\n${toMarkdown(report)}`);
console.log(`[bench] wrote ${written.join(', ')}`);
process.exit(results.some((r) => r.error) ? 1 : 0);
