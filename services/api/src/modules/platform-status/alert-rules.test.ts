import { StatusThresholds } from '@locus/contract';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { alertRulesYaml } from './alert-rules';

describe('the Prometheus alert rules', () => {
  it('alert at the thresholds the status screen uses, overrides included', () => {
    const thresholds = StatusThresholds.parse({ deliveryP99Ms: { amber: 150, red: 600 } });
    const yaml = alertRulesYaml(thresholds);
    expect(yaml).toContain('alert: LocusDeliveryLatencyHighAmber');
    expect(yaml).toMatch(/locus_delivery_seconds_bucket\[1m\]\)\)\) \* 1000 >= 150\n/);
    expect(yaml).toMatch(/locus_delivery_seconds_bucket\[1m\]\)\)\) \* 1000 >= 600\n/);
    expect(yaml).toMatch(
      new RegExp(`process_resident_memory_bytes\\) >= ${thresholds.memoryRssBytes.red}\\n`),
    );
  });
});

describe('deploy/observability/alert-rules.yaml', () => {
  it('is what `npm run alert-rules` prints for the default thresholds', () => {
    const committed = readFileSync(
      fileURLToPath(
        new URL('../../../../../deploy/observability/alert-rules.yaml', import.meta.url),
      ),
      'utf8',
    );
    expect(committed).toBe(alertRulesYaml(StatusThresholds.parse({})));
  });

  it('alert on queue backlogs, jobs failed for good and failing texts', () => {
    const yaml = alertRulesYaml(StatusThresholds.parse({}));
    expect(yaml).toContain('expr: max by (queue) (locus_queue_jobs{state="waiting"}) >= 100\n');
    expect(yaml).toMatch(/locus_job_failures_total\{final="true"\}\[15m\]\)\) >= 25\n/);
    expect(yaml).toMatch(/\/ sum\(max by \(status\) \(locus_sms_last_hour\)\) >= 0\.2\n/);
  });
});
