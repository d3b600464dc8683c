import { describe, expect, it } from 'vitest';
import { jobOrigin, jobOriginOptions } from './job-origin';
import { requestIdFrom, withRequestId } from './request-id';

describe('a job origin', () => {
  it('carries the request id it was enqueued under, and nothing outside a request', () => {
    expect(jobOriginOptions()).toBeUndefined();
    const options = withRequestId('req-42', () => jobOriginOptions());
    expect(jobOrigin(options?.telemetry.metadata)).toEqual({ requestId: 'req-42' });
  });

  it('reads malformed or foreign metadata as no origin', () => {
    expect(jobOrigin(undefined)).toEqual({});
    expect(jobOrigin('not json')).toEqual({});
    expect(jobOrigin('[1]')).toEqual({});
    expect(jobOrigin('{"requestId": 7, "traceparent": "00-ab-cd-01", "x": "y"}')).toEqual({
      traceparent: '00-ab-cd-01',
    });
  });
});

describe('a request id', () => {
  it('keeps a sane incoming id and replaces any other', () => {
    expect(requestIdFrom('lb-7f3a:01')).toBe('lb-7f3a:01');
    for (const insane of [undefined, '', 'two words', 'x'.repeat(129), ['a', 'b'], 'a\u00e9'])
      expect(requestIdFrom(insane)).toMatch(/^[0-9a-f-]{36}$/);
  });
});
