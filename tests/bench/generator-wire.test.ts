import { describe, expect, it } from 'vitest';
import { jsonFix, wires } from '../../bench/src/generator/wire';

/**
 * The bench's load generator writes and reads frames without JSON.stringify or JSON.parse on its
 * hot path (issue 16: the instrument must not be the bottleneck). Its shortcuts must say exactly
 * what the full encoders and decoders would.
 */
const fixes = Array.from({ length: 2_000 }, (_, index) => ({
  latitude: 38.8977 + Math.random() * 1e-3 - (index % 3 === 0 ? 90 : 0),
  longitude: -77.0365 + Math.random() * 1e-3,
  accuracy: index % 7 === 0 ? 0 : 12 + Math.random(),
  capturedAt: 1_764_000_000_000 + index * 997,
}));

describe('the bench generator’s frames', () => {
  it('encodes a fix as JSON.stringify would, for each pipeline', () => {
    for (const fix of fixes) {
      expect(jsonFix(fix)).toBe(JSON.stringify({ event: 'fix', data: fix }));
      expect(wires.peer.encodeFix(fix)).toBe(`42${JSON.stringify(['fix', fix])}`);
    }
  });

  it('reads the capture time of a delivered fix as JSON.parse would', () => {
    for (const fix of fixes) {
      const iso = new Date(fix.capturedAt).toISOString();
      const locus = JSON.stringify({
        event: 'new-location-available',
        data: { sessionId: 's', seq: 3, latitude: fix.latitude, dateTimeCaptured: iso },
      });
      expect(wires.locus.decode('dispatcher', locus)).toEqual({
        kind: 'fix',
        capturedAt: fix.capturedAt,
      });
      expect(wires.reference.decode('dispatcher', jsonFix(fix))).toEqual({
        kind: 'fix',
        capturedAt: fix.capturedAt,
      });
      expect(wires.peer.decode('dispatcher', wires.peer.encodeFix(fix))).toEqual({
        kind: 'fix',
        capturedAt: fix.capturedAt,
      });
    }
  });

  it('tells readiness, errors and everything else apart', () => {
    const locus = wires.locus;
    expect(locus.decode('dispatcher', '{"event":"joined","data":{"lastSeq":0}}')).toEqual({
      kind: 'ready',
    });
    const error = '{"event":"error","data":{"error":"x","message":"y"}}';
    expect(locus.decode('caller', error)).toEqual({ kind: 'error', detail: error });
    expect(locus.decode('caller', '{"event":"ack","data":{"capturedAt":1,"seq":2}}')).toEqual({
      kind: 'other',
    });
    // A frame written with another key first still decodes, the slow way.
    expect(locus.decode('dispatcher', '{"data":{},"event":"joined"}')).toEqual({ kind: 'ready' });
    expect(wires.peer.decode('dispatcher', '42["joined",{}]')).toEqual({ kind: 'ready' });
    expect(wires.peer.decode('caller', '2')).toEqual({ kind: 'reply', frame: '3' });
  });
});
