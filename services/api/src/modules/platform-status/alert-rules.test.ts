import { StatusThresholds } from '@locus/contract';
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
