import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TargetCheck } from '../report';
import { resultsDir } from '../paths';
import type { ConsentLoad, Resource, TapToFix } from './page-load';
import { budgets, type Profile } from './profiles';

/** One run: a fresh link and a fresh browser context for Locus, another for the reference. */
export interface Run {
  profile: Profile['name'];
  run: number;
  phoneNumber: string | null;
  locus: ConsentLoad | null;
  reference: ConsentLoad | null;
  tap: TapToFix | null;
  error: string | null;
}

export interface Stat {
  median: number;
  max: number;
  n: number;
}

export interface ProfileSummary {
  profile: Profile['name'];
  title: string;
  consentTargetMs: number;
  runs: number;
  failed: number;
  consentMs: Stat | null;
  referenceConsentMs: Stat | null;
  /** Locus's median time to consent ÷ the reference page's median, same profile. */
  consentRatio: number | null;
  bytes: Stat | null;
  jsBytes: Stat | null;
  requests: Stat | null;
  referenceBytes: Stat | null;
  tapToFixMs: Stat | null;
  clickToFixMs: Stat | null;
}

export interface Landing {
  jsBytes: number;
  bytes: number;
  requests: number;
  /** Content-Encoding of the JavaScript responses ("none" when uncompressed). */
  jsEncodings: string[];
  resources: Resource[];
}

export interface CallerPageReport {
  bench: 'caller-page';
  runId: string;
  startedAt: string;
  durationSeconds: number;
  machine: { cpus: number; cpuModel: string; node: string; chromium: string; loadAverage: number };
  product: { description: string; notes: string[] };
  settings: {
    runsPerProfile: number;
    viewport: string;
    cpuSlowdown: number;
    profiles: Profile[];
  };
  summaries: ProfileSummary[];
  landing: Landing | { error: string };
  targets: TargetCheck[];
  runs: Run[];
}

export function stat(values: (number | null | undefined)[]): Stat | null {
  const sorted = values.filter((v): v is number => typeof v === 'number').sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const middle = sorted.length >> 1;
  const median =
    sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { median: Math.round(median), max: sorted.at(-1)!, n: sorted.length };
}

export function summarise(profile: Profile, runs: Run[]): ProfileSummary {
  const mine = runs.filter((r) => r.profile === profile.name);
  const consentMs = stat(mine.map((r) => r.locus?.consentMs));
  const referenceConsentMs = stat(mine.map((r) => r.reference?.consentMs));
  return {
    profile: profile.name,
    title: profile.title,
    consentTargetMs: profile.consentTargetMs,
    runs: mine.length,
    failed: mine.filter((r) => r.error !== null).length,
    consentMs,
    referenceConsentMs,
    consentRatio:
      consentMs && referenceConsentMs && referenceConsentMs.median > 0
        ? Math.round((consentMs.median / referenceConsentMs.median) * 10) / 10
        : null,
    bytes: stat(mine.map((r) => r.locus?.bytes)),
    jsBytes: stat(mine.map((r) => r.locus?.jsBytes)),
    requests: stat(mine.map((r) => r.locus?.requests)),
    referenceBytes: stat(mine.map((r) => r.reference?.bytes)),
    tapToFixMs: stat(mine.map((r) => r.tap?.firstPositionToFixMs)),
    clickToFixMs: stat(mine.map((r) => r.tap?.clickToFixMs)),
  };
}

const fmt = (n: number): string => n.toLocaleString('en-US');
const kb = (bytes: number): string => `${(bytes / 1000).toFixed(1)} KB`;
const status = (met: boolean): TargetCheck['status'] => (met ? 'met' : 'missed');

/** Pass/fail is judged on the median; the max is shown beside it. */
export function checkTargets(
  summaries: ProfileSummary[],
  landing: CallerPageReport['landing'],
): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const unknown = (target: string): TargetCheck => ({
    target,
    value: 'no valid measurement',
    status: 'unknown',
  });
  /** The largest median over the profiles (bytes hardly depend on the profile). */
  const worst = (pick: (s: ProfileSummary) => Stat | null): number | null => {
    const stats = summaries.map(pick).filter((s): s is Stat => s !== null);
    return stats.length === 0 ? null : Math.max(...stats.map((s) => s.median));
  };
  const js = worst((s) => s.jsBytes);
  const bytes = worst((s) => s.bytes);
  const jsTarget = `caller page: ≤ ${kb(budgets.callerJsBytes)} compressed JS before the consent button`;
  checks.push(
    js === null
      ? unknown(jsTarget)
      : { target: jsTarget, value: kb(js), status: status(js <= budgets.callerJsBytes) },
  );
  const bytesTarget = `caller page: ≤ ${kb(budgets.callerBytesBeforeConsent)} transferred before the consent button`;
  checks.push(
    bytes === null
      ? unknown(bytesTarget)
      : {
          target: bytesTarget,
          value: kb(bytes),
          status: status(bytes <= budgets.callerBytesBeforeConsent),
        },
  );
  for (const s of summaries) {
    const target = `consent button visible ≤ ${fmt(s.consentTargetMs)} ms on ${s.profile} (median)`;
    checks.push(
      s.consentMs === null
        ? unknown(target)
        : {
            target,
            value: `${fmt(s.consentMs.median)} ms (max ${fmt(s.consentMs.max)}; ${s.consentRatio}× the reference page)`,
            status: status(s.consentMs.median <= s.consentTargetMs),
          },
    );
  }
  const slow = summaries.find((s) => s.profile === 'slow-4g');
  const tapTarget = `tap to fix on the dispatcher's socket ≤ ${fmt(budgets.tapToFixMs)} ms after the first position, slow-4g (median)`;
  checks.push(
    !slow?.tapToFixMs
      ? unknown(tapTarget)
      : {
          target: tapTarget,
          value: `${fmt(slow.tapToFixMs.median)} ms (max ${fmt(slow.tapToFixMs.max)})`,
          status: status(slow.tapToFixMs.median <= budgets.tapToFixMs),
        },
  );
  const landingTarget = `landing page /: ≤ ${kb(budgets.landingJsBytes)} compressed JS`;
  checks.push(
    'error' in landing
      ? unknown(landingTarget)
      : {
          target: landingTarget,
          value: kb(landing.jsBytes),
          status: status(landing.jsBytes <= budgets.landingJsBytes),
        },
  );
  return checks;
}

const mark = (met: boolean): string => (met ? 'PASS' : 'FAIL');
const cell = (s: Stat | null, show: (n: number) => string, limit?: number): string => {
  if (!s) return '–';
  const value = `${show(s.median)} / ${show(s.max)}`;
  return limit === undefined ? value : `${value} (≤ ${show(limit)} ${mark(s.median <= limit)})`;
};

/** The table printed at the end and written to the .md file. */
export function summaryTable(report: CallerPageReport): string[] {
  const rows = report.summaries.map((s) =>
    [
      s.title,
      `${s.runs - s.failed} / ${s.runs}`,
      cell(s.consentMs, (n) => `${fmt(n)} ms`, s.consentTargetMs),
      cell(s.referenceConsentMs, (n) => `${fmt(n)} ms`),
      s.consentRatio === null ? '–' : `${s.consentRatio}×`,
      cell(s.bytes, kb, budgets.callerBytesBeforeConsent),
      cell(s.jsBytes, kb, budgets.callerJsBytes),
      s.profile === 'slow-4g'
        ? cell(s.tapToFixMs, (n) => `${fmt(n)} ms`, budgets.tapToFixMs)
        : cell(s.tapToFixMs, (n) => `${fmt(n)} ms`),
    ].join(' | '),
  );
  const landing =
    'error' in report.landing
      ? `Landing page \`/\`: **FAILED: ${report.landing.error}**`
      : `Landing page \`/\` (fast profile, until the network is quiet for 1 s): ${kb(report.landing.jsBytes)} of JavaScript ` +
        `(≤ ${kb(budgets.landingJsBytes)} ${mark(report.landing.jsBytes <= budgets.landingJsBytes)}), ` +
        `${kb(report.landing.bytes)} in all, ${report.landing.requests} requests; JavaScript Content-Encoding: ${report.landing.jsEncodings.join(', ')}.`;
  return [
    '| profile (CPU 4× slower, cache off) | runs ok | consent button visible, median / max | reference page, median / max | Locus ÷ reference (medians) | transferred before the button, median / max | of which JS, median / max | first position → fix on the dispatcher socket, median / max |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row} |`),
    '',
    landing,
  ];
}

export function toMarkdown(report: CallerPageReport): string {
  const { machine } = report;
  const firstOk = report.runs.find((r) => r.locus !== null)?.locus;
  const lines = [
    `# Locus caller page benchmark — ${report.startedAt}`,
    '',
    `Run \`${report.runId}\` on ${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}, ${machine.chromium}; ` +
      `load average ${machine.loadAverage} at the start; ${report.durationSeconds} s. Locus: ${report.product.description}. ` +
      `${report.settings.runsPerProfile} runs per profile after one unrecorded warm-up run, each on a fresh link and a fresh browser context, ` +
      `${report.settings.viewport}. The API, worker, Postgres, Redis and Chromium share this machine's cores: ` +
      'the times are noisy.',
    ...report.product.notes.map((note) => `\n**Note: ${note}.**`),
    '',
    ...summaryTable(report),
    '',
    '- **Consent button visible**: `performance.now()` (the page’s clock, ms since navigation start) in the first animation frame in which a button containing the English share text has a box and is not hidden, reported by a script added before the page’s own; Playwright then confirms the button is visible by its accessible name.',
    '- **Transferred**: the sum of `Network.loadingFinished.encodedDataLength` (bytes on the wire, headers included; WebSocket frames not counted) of the responses finished by then; JS = resource type Script or a JavaScript MIME type. 1 KB = 1,000 bytes.',
    '- **First position → fix**: `Date.now()` when `new-location-available` reached a dispatcher socket in the bench process, minus `performance.timeOrigin + performance.now()` in the page when its first geolocation success callback ran (a fixed position, permission granted). Same machine, same wall clock.',
    '- **Reference page**: one HTML document with an inline-styled button, from a `node:http` server in the bench process, loaded under the same profile: the floor the network and the throttled CPU allow.',
    '',
    '## Targets (issue 10; judged on the median)',
    '',
    '| target | measured | status |',
    '|---|---|---|',
    ...report.targets.map((t) => `| ${t.target} | ${t.value} | ${t.status.toUpperCase()} |`),
    '',
    '## Every run',
    '',
    '| profile | run | consent ms | reference ms | first contentful paint ms | bytes before the button | JS bytes | requests (+ still loading) | first position → fix ms | click → fix ms | error |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...report.runs.map(
      (r) =>
        `| ${[
          r.profile,
          r.run,
          r.locus ? fmt(r.locus.consentMs) : '–',
          r.reference ? fmt(r.reference.consentMs) : '–',
          r.locus?.firstContentfulPaintMs != null ? fmt(r.locus.firstContentfulPaintMs) : '–',
          r.locus ? fmt(r.locus.bytes) : '–',
          r.locus ? fmt(r.locus.jsBytes) : '–',
          r.locus ? `${r.locus.requests} (+${r.locus.inFlightAtConsent})` : '–',
          r.tap ? fmt(r.tap.firstPositionToFixMs) : '–',
          r.tap ? fmt(r.tap.clickToFixMs) : '–',
          r.error ? r.error.split('\n')[0]!.replace(/\|/g, '\\|') : '',
        ].join(' | ')} |`,
    ),
    '',
    ...(firstOk
      ? [
          `## What the caller page loaded before its button (${report.runs.find((r) => r.locus)?.profile}, run ${report.runs.find((r) => r.locus)?.run})`,
          '',
          '| path | type | Content-Encoding | bytes | requested at ms | finished at ms |',
          '|---|---|---|---|---|---|',
          ...firstOk.resources.map(
            (r) =>
              `| \`${r.url}\` | ${r.type} | ${r.encoding || 'none'} | ${fmt(r.bytes)} | ${r.startedMs} | ${r.finishedMs ?? '–'} |`,
          ),
          '',
        ]
      : []),
  ];
  return lines.join('\n');
}

/** Writes latest-caller-page.{json,md} and a dated copy of each, as the realtime bench does. */
export function writeCallerPageReport(report: CallerPageReport): string[] {
  mkdirSync(resultsDir, { recursive: true });
  const dated = `${report.startedAt.replace(/[:.]/g, '-')}-caller-page`;
  const json = `${JSON.stringify(report, null, 2)}\n`;
  const markdown = toMarkdown(report);
  const written: string[] = [];
  for (const base of ['latest-caller-page', dated]) {
    writeFileSync(join(resultsDir, `${base}.json`), json);
    writeFileSync(join(resultsDir, `${base}.md`), markdown);
    written.push(join(resultsDir, `${base}.json`), join(resultsDir, `${base}.md`));
  }
  return written;
}
