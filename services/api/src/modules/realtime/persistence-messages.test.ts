import { describe, expect, it } from 'vitest';
import { decodeRows, encodeRows } from './persistence-messages';
import type { EventRow, FixRow } from './repo';

const full: FixRow = {
  sessionId: '6a1f2c1e-2b7d-4c1a-9a51-1b2c3d4e5f60',
  seq: 41,
  callerId: '0b9f8e7d-6c5b-4a39-8281-706f5e4d3c2b',
  latitude: -33.8688197,
  longitude: 151.2092955,
  uncertaintyRadiusM: 4.5,
  altitude: -12.25,
  heading: 359.9,
  speed: 0,
  address: '1 Macquarie St, Sydney "NSW" \\ 2000',
  source: 'RAPID_SOS',
  capturedAt: new Date(1_764_000_000_123),
  receivedAt: new Date(1_764_000_000_456),
  delayMs: 120_000,
  deliveredBy: 'sms',
  clockSkewMs: 2_147_483_647,
};
const event: EventRow = {
  sessionId: full.sessionId,
  seq: 42,
  callerId: full.callerId,
  event: 'caller-device',
  payload: '{"battery":{"level":0.5,"charging":false},"note":"ü ✓ 😀"}',
  createdAt: new Date(1_764_000_001_000),
};

describe('rows handed to the persistence thread', () => {
  it('arrive as they were sent', () => {
    expect(decodeRows(encodeRows([full], [event]))).toEqual({ fixes: [full], events: [event] });
    expect(decodeRows(encodeRows([], []))).toEqual({ fixes: [], events: [] });
  });

  it('carry a missing optional field as null, which is how it is stored', () => {
    const bare: FixRow = {
      ...full,
      address: undefined,
      altitude: null,
      heading: null,
      speed: null,
      source: 'TEXT_MESSAGE',
    };
    delete bare.delayMs;
    delete bare.deliveredBy;
    delete bare.clockSkewMs;
    const [fix] = decodeRows(encodeRows([bare], [])).fixes;
    expect(fix).toEqual({
      ...bare,
      address: null,
      delayMs: null,
      deliveredBy: null,
      clockSkewMs: null,
    });
  });
});
