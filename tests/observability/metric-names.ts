import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const repoRoot = join(import.meta.dirname, '..', '..');
const observability = join(repoRoot, 'deploy', 'observability');

/** PromQL words that are not metric names (functions are recognised by their `(`). */
const keywords = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'bool',
  'offset',
]);

/** The metric names a PromQL expression reads. */
export function metricNamesIn(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""') // label values
    .replace(/\{[^}]*\}/g, ' ') // label matchers
    .replace(/\[[^\]]*\]/g, ' ') // range selectors, Grafana's $__rate_interval among them
    .replace(/\b(?:by|without|on|ignoring)\s*\([^)]*\)/g, ' '); // grouping labels
  const names = [...stripped.matchAll(/[A-Za-z_:][\w:]*(?!\w)(?!\s*\()/g)].map((m) => m[0]);
  return names.filter((name) => !keywords.has(name) && !/^\d/.test(name));
}

interface Panel {
  targets?: { expr?: string }[];
  panels?: Panel[];
}

/** Every PromQL expression of the Grafana dashboard, rows' panels included. */
export function dashboardExprs(): string[] {
  const dashboard = JSON.parse(
    readFileSync(join(observability, 'locus-dashboard.json'), 'utf8'),
  ) as Panel;
  const exprs: string[] = [];
  const visit = (panel: Panel) => {
    for (const target of panel.targets ?? []) if (target.expr) exprs.push(target.expr);
    for (const child of panel.panels ?? []) visit(child);
  };
  visit(dashboard);
  return exprs;
}

/** Every `expr:` of the committed Prometheus rules file. */
export function alertRuleExprs(): string[] {
  const text = readFileSync(join(observability, 'alert-rules.yaml'), 'utf8');
  return [...text.matchAll(/^\s+expr: (.+)$/gm)].map((m) => m[1]!);
}

/**
 * The series names a /metrics answer declares: every sample's name, and each family of its
 * `# TYPE` lines with a histogram's or summary's derived series (a labelled metric has no
 * sample until its first label set is used, yet it exists).
 */
export function exposedNames(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const line of exposition.split('\n')) {
    const type = /^# TYPE (\S+) (\w+)$/.exec(line);
    if (type) {
      const [, name, kind] = type;
      names.add(name!);
      if (kind === 'histogram')
        for (const end of ['_bucket', '_sum', '_count']) names.add(name! + end);
      if (kind === 'summary') for (const end of ['_sum', '_count']) names.add(name! + end);
    } else if (line && !line.startsWith('#')) names.add(/^[^\s{]+/.exec(line)![0]);
  }
  return names;
}

/** The value of one sample line (`name{labels} value`), or undefined. */
export function sampleValue(exposition: string, series: string): number | undefined {
  const line = exposition.split('\n').find((each) => each.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}
