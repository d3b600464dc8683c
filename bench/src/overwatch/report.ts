import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TargetCheck } from '../report';
import { resultsDir } from '../paths';
import type { Attribution, Share } from './attribution';
import type { FrameStats } from './frames';
import type { PhoneCounts } from './fleet';

/** One page under the load: its frames, and what the phones sent it. */
export interface PageRun {
  page: 'locus' | 'reference';
  frames: FrameStats | null;
  /** Fixes the phones sent and had acked within the measured window. */
  window: { sent: number; acked: number } | null;
  /** Over the whole run (warm-up, window and attribution). */
  phones: PhoneCounts | null;
  /** Locus: rows of the side list showing "Sharing" at the end, of how many. */
  sharingRows: { sharing: number; rows: number; listText: string } | null;
  pageErrors: string[];
  error: string | null;
}

export interface OverwatchReport {
  bench: 'overwatch';
  runId: string;
  startedAt: string;
  durationSeconds: number;
  machine: {
    cpus: number;
    cpuModel: string;
    node: string;
    chromium: string;
    loadAverageStart: number;
    loadAverageEnd: number;
  };
  product: { description: string; notes: string[] };
  settings: {
    phones: number;
    fixesPerSecondPerPhone: 1;
    warmUpSeconds: number;
    measuredSeconds: number;
    attributionSeconds: number;
    viewport: string;
    chromiumFlags: string[];
  };
  reference: PageRun;
  locus: PageRun;
  /** Locus p99 ÷ reference p99. */
  p99Ratio: number | null;
  attribution: { locus: Attribution | null; reference: Attribution | null };
  targets: TargetCheck[];
}

export const targetP99Ms = 50;

export function checkTargets(report: Omit<OverwatchReport, 'targets'>): TargetCheck[] {
  const frames = report.locus.frames;
  const target = `Overwatch, ${report.settings.phones} phones at 1 fix/s: frame time p99 ≤ ${targetP99Ms} ms`;
  if (!frames) return [{ target, value: 'no valid measurement', status: 'unknown' }];
  const sharing = report.locus.sharingRows;
  const delivered = `every phone shown "Sharing" at the end`;
  return [
    {
      target,
      value: `${frames.p99Ms} ms (${report.p99Ratio ?? '–'}× the reference page's ${report.reference.frames?.p99Ms ?? '–'} ms)`,
      status: frames.p99Ms <= targetP99Ms ? 'met' : 'missed',
    },
    sharing
      ? {
          target: delivered,
          value: `${sharing.sharing} of ${report.settings.phones}`,
          status: sharing.sharing === report.settings.phones ? 'met' : 'missed',
        }
      : { target: delivered, value: 'not read', status: 'unknown' },
  ];
}

const fmt = (n: number): string => n.toLocaleString('en-US');
const pct = (n: number): string => `${(n * 100).toFixed(1)} %`;

function row(run: PageRun, title: string): string {
  const f = run.frames;
  if (!f) return `| ${title} | ${run.error ?? 'no measurement'} |||||||||`;
  const fixes = run.window
    ? `${fmt(f.fixesToPage)} of ${fmt(run.window.acked)} acked (${fmt(run.window.sent)} sent)`
    : fmt(f.fixesToPage);
  return `| ${[
    title,
    `${fmt(f.frames)} (${f.fps}/s)`,
    `${f.p50Ms} ms`,
    `${f.p95Ms} ms`,
    `**${f.p99Ms} ms**`,
    `${f.maxMs} ms`,
    `${pct(f.over50Share)} (${pct(f.over50TimeShare)} of the time)`,
    `${fmt(f.longTasks)}, ${fmt(f.longTaskMs)} ms (${pct(f.longTaskShare)}; longest ${f.longestTaskMs} ms)`,
    fixes,
  ].join(' | ')} |`;
}

export function summaryTable(report: OverwatchReport): string[] {
  return [
    '| page | frames | p50 | p95 | p99 | max | frames > 50 ms | long tasks (count, total) | fixes reaching the page in the window |',
    '|---|---|---|---|---|---|---|---|---|',
    row(report.locus, 'Locus `/overwatch`'),
    row(report.reference, 'reference (plain Leaflet)'),
    '',
    `Locus p99 ÷ reference p99: **${report.p99Ratio ?? '–'}×**.` +
      (report.locus.sharingRows
        ? ` Side list at the end: ${report.locus.sharingRows.sharing} of ${report.locus.sharingRows.rows} rows "Sharing" (${report.locus.sharingRows.listText}).`
        : ''),
  ];
}

const shareRows = (shares: Share[]): string[] =>
  shares.map((s) => `| ${s.name.replace(/\|/g, '\\|')} | ${fmt(s.ms)} | ${pct(s.share)} |`);

function attributionSection(whose: string, a: Attribution | null): string[] {
  if (!a) return [];
  return [
    `## Where ${whose} main thread goes (${a.windowSeconds} s trace, then ${a.profileSeconds} s CPU profile, after the measured window, phones still sending)`,
    '',
    `Main thread busy ${pct(a.busyShare)} of the trace window.`,
    '',
    '| kind of work (trace, self time) | ms | share of the window |',
    '|---|---|---|',
    ...shareRows(a.byKind),
    '',
    '| code (CPU profile self time, by source map) | ms | share of the window |',
    '|---|---|---|',
    ...shareRows(a.bySource),
    '',
    '| function (CPU profile self time) | ms | share of the window |',
    '|---|---|---|',
    ...shareRows(a.byFunction),
    '',
  ];
}

export function toMarkdown(report: OverwatchReport): string {
  const { machine, settings } = report;
  const counts = (run: PageRun): string =>
    run.phones
      ? `${fmt(run.phones.sent)} fixes sent, ${fmt(run.phones.acked)} acked, ${fmt(run.phones.refused)} refused, ${fmt(run.phones.errors)} error frames, ${fmt(run.phones.closedEarly)} sockets closed early`
      : 'no phones';
  return [
    `# Locus Overwatch frame-time benchmark — ${report.startedAt}`,
    '',
    `Run \`${report.runId}\` on ${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}, ${machine.chromium}; ` +
      `load average ${machine.loadAverageStart} at the start, ${machine.loadAverageEnd} at the end; ${report.durationSeconds} s. ` +
      `Locus: ${report.product.description}. ${settings.phones} phones, each a caller socket sending 1 fix/s along its own ` +
      `random walk; ${settings.warmUpSeconds} s of warm-up, then ${settings.measuredSeconds} s measured. ` +
      `Viewport ${settings.viewport}. Chromium, the bench (phones), the API, worker, Postgres and Redis share this machine's cores.`,
    ...report.product.notes.map((note) => `\n**Note: ${note}.**`),
    '',
    ...summaryTable(report),
    '',
    '## Targets (issue 14)',
    '',
    '| target | measured | status |',
    '|---|---|---|',
    ...report.targets.map((t) => `| ${t.target} | ${t.value} | ${t.status.toUpperCase()} |`),
    '',
    '## Phones',
    '',
    `- Locus: ${counts(report.locus)}.`,
    `- Reference: ${counts(report.reference)}.`,
    ...[report.locus, report.reference]
      .filter((run) => run.pageErrors.length > 0 || run.error)
      .map((run) =>
        `- ${run.page}: ${run.error ?? ''} ${run.pageErrors.slice(0, 5).join('; ')}`.trimEnd(),
      ),
    '',
    ...attributionSection('Locus’s', report.attribution.locus),
    ...attributionSection('the reference page’s', report.attribution.reference),
    '- **Frame time**: the difference between successive `requestAnimationFrame` timestamps, from a loop added before the page’s own scripts; nearest-rank percentiles over the frames that began in the measured window. A frame Chromium skips shows as one longer delta (33.3, 50 ms …).',
    '- **Long tasks**: `PerformanceObserver({ type: "longtask", buffered: true })` entries (main-thread tasks over 50 ms) that began in the window.',
    '- **Fixes reaching the page**: WebSocket messages to the page that carry a fix (`new-location-available` from Locus, `"event":"fix"` from the relay), counted by a listener beside the page’s own.',
    '- **Reference**: a static page served by the bench, with the web package’s Leaflet on the same blank tile, one circle marker and one trail per phone on the canvas renderer, fed the same routes (same seed) through a WebSocket relay in the bench process, in its own context of the same Chromium, before Locus.',
    '',
  ].join('\n');
}

/** Writes latest-overwatch.{json,md} and a dated copy of each, as the other benches do. */
export function writeOverwatchReport(report: OverwatchReport): string[] {
  mkdirSync(resultsDir, { recursive: true });
  const dated = `${report.startedAt.replace(/[:.]/g, '-')}-overwatch`;
  const json = `${JSON.stringify(report, null, 2)}\n`;
  const markdown = toMarkdown(report);
  const written: string[] = [];
  for (const base of ['latest-overwatch', dated]) {
    writeFileSync(join(resultsDir, `${base}.json`), json);
    writeFileSync(join(resultsDir, `${base}.md`), markdown);
    written.push(join(resultsDir, `${base}.json`), join(resultsDir, `${base}.md`));
  }
  return written;
}
