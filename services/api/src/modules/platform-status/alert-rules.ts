import type { StatusThresholds, Threshold } from '@locus/contract';

/**
 * The Prometheus alert rules for the figures the API instances (and the workers, for job
 * failures) export at /metrics, built from the very thresholds the status screen uses
 * (`STATUS_THRESHOLDS` over the defaults): one source, so the screen and the pager never
 * disagree. `npm run alert-rules` prints them; `deploy/observability/alert-rules.yaml` is that
 * output for the defaults (a test keeps it so). Figures that only the status call measures
 * (Postgres, Redis, e-mail, lookups) are alerted on from there, not here.
 *
 * Queue depths and texts are shared state that every API instance reports alike, hence `max`
 * over instances before any sum.
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
    summary: 'A Locus process is too busy to answer promptly (event-loop delay p99, ms)',
  },
  {
    alert: 'LocusMemoryHigh',
    threshold: 'memoryRssBytes',
    expr: 'max by (instance) (process_resident_memory_bytes)',
    summary: 'A Locus process uses a lot of memory (resident bytes)',
  },
  {
    alert: 'LocusQueueBacklog',
    threshold: 'queueWaiting',
    expr: 'max by (queue) (locus_queue_jobs{state="waiting"})',
    summary: 'Jobs wait in a queue: workers are down, too few or stuck (waiting jobs)',
  },
  {
    alert: 'LocusJobFailures',
    threshold: 'queueFailed',
    expr: 'sum by (queue) (increase(locus_job_failures_total{final="true"}[15m]))',
    summary: 'Jobs of a queue failed for good, every attempt used (last 15 minutes)',
  },
  {
    alert: 'LocusSmsFailures',
    threshold: 'smsFailureRatio',
    expr:
      'sum(max by (status) (locus_sms_last_hour{status=~"failed|undelivered"}))' +
      ' / sum(max by (status) (locus_sms_last_hour))',
    summary: 'Texts to callers fail (failed or undelivered, of those written in the last hour)',
  },
];

/** A YAML single-quoted scalar, as Prettier writes them (the file is checked with it). */
const singleQuoted = (text: string) => `'${text.replaceAll("'", "''")}'`;

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
        '        annotations:',
        `          summary: ${singleQuoted(source.summary)}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
