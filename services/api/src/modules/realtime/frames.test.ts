import { dispatcherServerEvents } from '@locus/contract';
import { describe, expect, it } from 'vitest';
import { errorFrame, locationBody, readSeq, sequencedFrame } from './frames';

describe('sequenced frames', () => {
  const body = JSON.stringify(
    locationBody('8d3c3f8e-4a43-4c55-9a0a-2f1c2b6b7a10', '0a9d2f1e-5b6c-4d7e-8f90-1a2b3c4d5e6f', {
      latitude: 38.9,
      longitude: -77.03,
      uncertaintyRadiusInMeters: 12.5,
      altitude: null,
      address: null,
      capturedFromSource: 'TEXT_MESSAGE',
      dateTimeCaptured: '2026-11-22T08:00:00.000Z',
    }),
  );

  it('are valid frames of the contract, with seq first', () => {
    const text = sequencedFrame('new-location-available', 42, body);
    const parsed = JSON.parse(text) as { event: string; data: unknown };
    expect(parsed.event).toBe('new-location-available');
    expect(dispatcherServerEvents['new-location-available'].parse(parsed.data)).toMatchObject({
      seq: 42,
      latitude: 38.9,
    });
    expect(text.startsWith('{"event":"new-location-available","data":{"seq":42,')).toBe(true);
  });

  it('handle an event whose data is only seq', () => {
    expect(JSON.parse(sequencedFrame('caller-connected', 7, '{}'))).toEqual({
      event: 'caller-connected',
      data: { seq: 7 },
    });
  });

  it('give up their seq without a JSON parse', () => {
    for (const seq of [1, 9, 10, 12345, 2 ** 31 - 1]) {
      expect(readSeq(Buffer.from(sequencedFrame('is-tab-focused', seq, '{"focused":true}')))).toBe(
        seq,
      );
    }
    expect(readSeq(Buffer.from(errorFrame('invalid-fix', 'no')))).toBe(0);
  });
});
