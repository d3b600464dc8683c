import { describe, expect, it } from 'vitest';
import { WatchStore } from './watch-store';

const square = {
  type: 'Polygon' as const,
  coordinates: [
    [
      [-90.01, 38.99],
      [-89.99, 38.99],
      [-89.99, 39.01],
      [-90.01, 39.01],
      [-90.01, 38.99],
    ] as [number, number][],
  ],
};
const settings = {
  staleAfterMs: 60_000,
  speedMps: 1.5,
  maxSpeedMps: 12,
  geofences: [{ id: 'zone', name: 'Levee', polygon: square }],
};

function fixFrame(seq: number, longitude: number, second: number) {
  return {
    seq,
    callerId: 'a',
    latitude: 39,
    longitude,
    uncertaintyRadiusInMeters: 5,
    dateTimeCaptured: new Date(Date.UTC(2026, 10, 28, 12, 0, second)).toISOString(),
  };
}

describe('WatchStore', () => {
  it('applies each event once: a socket that replays the history again adds no fix, log line or alert', () => {
    const store = new WatchStore(settings, (run) => run());
    store.addCallers([{ id: 'a', phoneNumber: '+12025550170' }]);
    const history = [
      { event: 'caller-connected', data: { seq: 1, callerId: 'a', connected: true } },
      { event: 'new-location-available', data: fixFrame(2, -90.0105, 0) },
      { event: 'new-location-available', data: fixFrame(3, -90.0095, 30) },
      { event: 'new-location-available', data: fixFrame(4, -89.9895, 2000) },
    ];
    for (const frame of history) store.apply(frame.event, frame.data, true);
    expect(store.alerts.map((alert) => alert.message)).toEqual(['Entered Levee', 'Left Levee']);
    // A reconnect that asks for everything again (the socket was opened anew).
    for (const frame of history) store.apply(frame.event, frame.data, true);
    expect(store.alerts).toHaveLength(2);
    expect(store.phones.get('a')!.fixes).toHaveLength(3);
    expect(store.log.filter((entry) => entry.message === 'Opened the link')).toHaveLength(1);
  });

  it('tells its listeners at most once per scheduled frame, however many events arrive', () => {
    const scheduled: (() => void)[] = [];
    const store = new WatchStore(settings, (run) => scheduled.push(run));
    let told = 0;
    store.subscribe(() => (told += 1));
    for (let seq = 1; seq <= 200; seq += 1)
      store.apply('new-location-available', { ...fixFrame(seq, -90.2, seq), callerId: `p${seq}` });
    expect(scheduled).toHaveLength(1);
    scheduled[0]!();
    expect(told).toBe(1);
  });
});
