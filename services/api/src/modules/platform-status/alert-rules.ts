import type { StatusThresholds, Threshold } from '@locus/contract';

/**
 * The Prometheus alert rules for the figures every API instance exports at /metrics, built from
 * the very thresholds the status screen uses (`STATUS_THRESHOLDS` over the defaults): one
 * source, so the screen and the pager never disagree. `npm run alert-rules` prints them; the
 * deployment's Prometheus loads the file. Figures that only the status call measures (queues,
 * Postgres, Redis, texts) are alerted on from there, not here.
 */
interface RuleSource {
  alert: string;
  threshold: keyof StatusThresholds;
  /** PromQL of the figure, in the threshold's unit. */
  expr: string;
  summary: string;
}

const sources: RuleSource[] = [
  {
    alert: 'LocusDeliveryLatencyHigh',
    threshold: 'deliveryP99Ms',
    expr: 'histogram_quantile(0.99, sum by (le) (rate(locus_delivery_seconds_bucket[1m]))) * 1000',
    summary: 'Fixes reach dispatchers slowly (p99 over the last minute, ms)',
  },
  {
    alert: 'LocusEventLoopLagHigh',
    threshold: 'eventLoopLagMs',
    expr: 'max by (instance) (nodejs_eventloop_lag_p99_seconds) * 1000',
    summary: 'An API instance is too busy to answer promptly (event-loop delay p99, ms)',
  },
  {
    alert: 'LocusMemoryHigh',
    threshold: 'memoryRssBytes',
    expr: 'max by (instance) (process_resident_memory_bytes)',
    summary: 'An API instance uses a lot of memory (resident bytes)',
  },
];

const comparison = (threshold: Threshold) => (threshold.direction === 'below' ? '<=' : '>=');

/** The rules file's text (YAML), two rules per figure: warning at amber, critical at red. */
export function alertRulesYaml(thresholds: StatusThresholds): string {
  const lines = ['groups:', '  - name: locus-status', '    rules:'];
  for (const source of sources) {
    const threshold = thresholds[source.threshold];
    for (const [severity, limit, suffix] of [
      ['warning', threshold.amber, 'Amber'],
      ['critical', threshold.red, 'Red'],
    ] as const) {
      lines.push(
        `      - alert: ${source.alert}${suffix}`,
        `        expr: ${source.expr} ${comparison(threshold)} ${limit}`,
        '        for: 2m',
        `        labels: { severity: ${severity}, threshold: ${source.threshold} }`,
        `        annotations: { summary: ${JSON.stringify(source.summary)} }`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
