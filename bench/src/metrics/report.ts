import type { HistoryCounts } from '@locus/db';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resultsDir } from '../paths';
import type { CallKind, CallName } from './calls';

export interface CallResult {
  call: CallName;
  label: string;
  kind: CallKind;
  range: string;
  from: string;
  to: string;
  /** The status of the answers (the first that was not 200, if any was not). */
  status: number;
  /** What the API said when it did not answer 200. */
  error: string | null;
  p50Ms: number | null;
  p95Ms: number | null;
  minMs: number | null;
  maxMs: number | null;
  /** Each timed request, in order, in milliseconds. */
  samplesMs: number[];
  pass: boolean;
}

export interface Explained {
  call: CallName;
  range: string;
  /** The call's slowest statement, as it ran in this process (not through HTTP). */
  statementMs: number;
  statements: number;
  sql: string;
  plan: string[];
}

export interface MetricsBenchReport {
  bench: 'metrics';
  runId: string;
  startedAt: string;
  durationSeconds: number;
  machine: { cpus: number; cpuModel: string; node: string; postgres: string; loadAverage: number };
  settings: {
    sessions: number;
    runs: number;
    warmUps: number;
    targetP95Ms: number;
    team: string;
    timeZone: string;
    userCallsFor: string;
  };
  load: {
    seconds: number;
    generatingSeconds: number;
    waitingSeconds: number;
    counts: HistoryCounts;
    foreignKeysChecked: boolean;
    analyzeSeconds: number;
    /** Table and index size on disk, MB. */
    sizesMb: Record<string, number>;
  };
  results: CallResult[];
  explains: Explained[];
  notes: string[];
}

/** Nearest rank: with 20 samples, p95 is the 19th fastest and p50 the 10th. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const fmt = (n: number): string => n.toLocaleString('en-US');
const ms = (value: number | null): string => (value === null ? '–' : value.toFixed(1));

export function resultsTable(report: MetricsBenchReport): string[] {
  const target = report.settings.targetP95Ms;
  const lines = [
    `| call | range | p50 ms | p95 ms | target p95 ≤ ${target} ms |`,
    '|---|---|---:|---:|---|',
  ];
  for (const r of report.results) {
    const cut =
      r.error === null && r.samplesMs.length < report.settings.runs
        ? ` (${r.samplesMs.length} requests: too slow for ${report.settings.runs})`
        : '';
    const verdict = (r.error ? `ERROR ${r.status}: ${r.error}` : r.pass ? 'PASS' : 'MISS') + cut;
    lines.push(`| \`${r.label}\` | ${r.range} | ${ms(r.p50Ms)} | ${ms(r.p95Ms)} | ${verdict} |`);
  }
  return lines;
}

export function toMarkdown(report: MetricsBenchReport): string {
  const { load, settings } = report;
  const passed = report.results.filter((r) => r.pass).length;
  const errors = report.results.filter((r) => r.error !== null).length;
  const lines = [
    `# Metrics bench ${report.runId}`,
    '',
    `${report.startedAt}, ${report.machine.cpus} × ${report.machine.cpuModel}, Node ${report.machine.node}, ${report.machine.postgres}; load average at the start ${report.machine.loadAverage}.`,
    '',
    `One team (${settings.team}, ${settings.timeZone}) with ${fmt(load.counts.tracking_sessions)} sessions over the two years before today, from the shared history generator (packages/db/src/history). Each call: ${settings.warmUps} warm-up requests, then ${settings.runs} timed ones, one at a time, over HTTP to the API as a team admin (the platform call as a platform admin); user calls for ${settings.userCallsFor}. Percentiles by nearest rank.`,
    '',
    `**${passed} of ${report.results.length}** call × range pairs meet p95 ≤ ${settings.targetP95Ms} ms${errors > 0 ? `; ${errors} answered an error` : ''}.`,
    '',
    ...resultsTable(report),
    '',
    '## Load',
    '',
    `${load.seconds.toFixed(0)} s to generate and write (${load.generatingSeconds.toFixed(0)} s generating in Node, ${load.waitingSeconds.toFixed(0)} s waiting for Postgres to take a batch; ${load.foreignKeysChecked ? 'foreign keys checked' : 'foreign-key triggers off during the load'}), then ${load.analyzeSeconds.toFixed(0)} s of VACUUM ANALYZE.`,
    '',
    '| table | rows | MB with indexes |',
    '|---|---:|---:|',
    ...Object.entries(load.counts).map(
      ([table, rows]) => `| ${table} | ${fmt(rows)} | ${fmt(load.sizesMb[table] ?? 0)} |`,
    ),
    '',
  ];
  if (report.explains.length > 0) {
    lines.push('## The slowest calls, explained', '');
    for (const e of report.explains) {
      lines.push(
        `### \`${e.call}\` over ${e.range}: slowest of ${e.statements} statement(s), ${e.statementMs.toFixed(0)} ms`,
        '',
        '```sql',
        e.sql.trim(),
        '```',
        '',
        '```',
        ...e.plan,
        '```',
        '',
      );
    }
  }
  if (report.notes.length > 0) lines.push('## Notes', '', ...report.notes.map((n) => `- ${n}`), '');
  return lines.join('\n');
}

/** `<startedAt>-metrics.{json,md}` and `latest-metrics.*`, beside the other benches' results. */
export function writeMetricsReport(report: MetricsBenchReport): string[] {
  mkdirSync(resultsDir, { recursive: true });
  const dated = `${report.startedAt.replace(/[:.]/g, '-')}-metrics`;
  const json = `${JSON.stringify(report, null, 2)}\n`;
  const markdown = toMarkdown(report);
  const written: string[] = [];
  for (const base of ['latest-metrics', dated]) {
    writeFileSync(join(resultsDir, `${base}.json`), json);
    writeFileSync(join(resultsDir, `${base}.md`), markdown);
    written.push(join(resultsDir, `${base}.json`), join(resultsDir, `${base}.md`));
  }
  return written;
}
