import { statusThresholdDefaults } from '@locus/contract';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../config';

const minimal = {
  DATABASE_URL: 'postgres://u:p@localhost:5432/locus',
  REDIS_URL: 'redis://localhost:6379',
};

describe('STATUS_THRESHOLDS', () => {
  it('defaults to the documented thresholds', () => {
    expect(parseConfig(minimal).STATUS_THRESHOLDS).toEqual(statusThresholdDefaults);
  });

  it('overrides a threshold and keeps what the override does not set', () => {
    const { STATUS_THRESHOLDS } = parseConfig({
      ...minimal,
      STATUS_THRESHOLDS: '{"queueWaiting":{"amber":50,"red":500},"lookupSuccessRatio":{"red":0.5}}',
    });
    expect(STATUS_THRESHOLDS.queueWaiting).toEqual({ amber: 50, red: 500, direction: 'above' });
    // A success rate stays "below": the override did not say otherwise.
    expect(STATUS_THRESHOLDS.lookupSuccessRatio).toEqual({
      amber: 0.9,
      red: 0.5,
      direction: 'below',
    });
    expect(STATUS_THRESHOLDS.deliveryP99Ms).toEqual(statusThresholdDefaults.deliveryP99Ms);
  });

  it('refuses text that is not a JSON object, an unknown key and a bad value', () => {
    expect(() => parseConfig({ ...minimal, STATUS_THRESHOLDS: 'red' })).toThrow(
      /STATUS_THRESHOLDS: must be a JSON object/,
    );
    expect(() => parseConfig({ ...minimal, STATUS_THRESHOLDS: '{"queueWaitng":{}}' })).toThrow(
      /unknown threshold "queueWaitng"/,
    );
    expect(() =>
      parseConfig({ ...minimal, STATUS_THRESHOLDS: '{"queueWaiting":{"amber":"many"}}' }),
    ).toThrow(/STATUS_THRESHOLDS/);
  });
});
