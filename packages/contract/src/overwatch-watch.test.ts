import { describe, expect, it } from 'vitest';
import { GeoJsonPolygon, parsePastedGeofence, type Position } from './geofence';
import {
  applyWatchEvent,
  grownRadius,
  newPhone,
  phoneStatus,
  type WatchAlert,
  type WatchEvent,
  type WatchSettings,
  type WatchedPhone,
} from './overwatch-watch';

const square: Position[] = [
  [-90.01, 38.99],
  [-89.99, 38.99],
  [-89.99, 39.01],
  [-90.01, 39.01],
  [-90.01, 38.99],
];
const settings: WatchSettings = {
  staleAfterMs: 60_000,
  speedMps: 1.5,
  maxSpeedMps: 12,
  geofences: [
    { id: 'zone', name: 'Levee breach', polygon: { type: 'Polygon', coordinates: [square] } },
  ],
};
const start = Date.parse('2026-11-28T12:00:00Z');
const callerId = 'caller';

let seq = 0;
function fix(latitude: number, longitude: number, atSeconds: number, radius = 10): WatchEvent {
  seq += 1;
  return {
    event: 'new-location-available',
    data: {
      seq,
      callerId,
      latitude,
      longitude,
      uncertaintyRadiusInMeters: radius,
      dateTimeCaptured: new Date(start + atSeconds * 1000).toISOString(),
    },
  };
}

function play(events: WatchEvent[]): { phone: WatchedPhone; alerts: WatchAlert[] } {
  let phone = newPhone(callerId);
  const alerts: WatchAlert[] = [];
  for (const event of events) {
    const applied = applyWatchEvent(phone, event, settings);
    phone = applied.phone;
    alerts.push(...applied.alerts);
  }
  return { phone, alerts };
}

describe('geofence crossings', () => {
  // Walking east at about 1.4 m/s along latitude 39: outside, inside (x = -90.01), outside (-89.99).
  const walk = (from: number, to: number) => {
    const events: WatchEvent[] = [];
    for (let second = from; second <= to; second += 30) {
      events.push(fix(39, -90.015 + (second / 30) * 0.0005, second));
    }
    return events;
  };

  it('raises one alert on entering and one on leaving, however many fixes fall inside', () => {
    const { alerts } = play(walk(0, 2400));
    expect(alerts.map((alert) => `${alert.kind} ${alert.message}`)).toEqual([
      'geofence-entered Entered Levee breach',
      'geofence-left Left Levee breach',
    ]);
  });

  it('does not count the first fix as a crossing', () => {
    const { alerts, phone } = play([fix(39, -90, 0), fix(39, -90.0001, 30)]);
    expect(alerts).toEqual([]);
    expect(phone.inside).toEqual(['zone']);
  });
});

describe('impossible jumps', () => {
  it('flags a fix farther than the configured speed allows, uncertainty granted', () => {
    // 1 km in 30 s is 33 m/s: impossible at 12 m/s.
    const { phone, alerts } = play([fix(39.1, -90.1, 0), fix(39.109, -90.1, 30)]);
    expect(phone.fixes.at(-1)!.impossibleJump).toBe(true);
    expect(alerts).toMatchObject([
      { kind: 'impossible-jump', message: 'Impossible jump: 1.0 km in 30 s' },
    ]);
  });

  it('does not flag a walk, nor a jump the two uncertainty circles explain', () => {
    const { alerts } = play([
      fix(39.1, -90.1, 0),
      fix(39.1003, -90.1, 30),
      // 300 m in 1 s, but each fix is ±200 m.
      fix(39.1006, -90.1, 31, 200),
    ]);
    expect(alerts).toEqual([]);
  });

  it('follows the threshold: the same jump is allowed at boat speed', () => {
    const events = [fix(39.1, -90.1, 0), fix(39.109, -90.1, 30)];
    let phone = newPhone(callerId);
    const alerts: WatchAlert[] = [];
    for (const event of events) {
      const applied = applyWatchEvent(phone, event, { ...settings, maxSpeedMps: 40 });
      phone = applied.phone;
      alerts.push(...applied.alerts);
    }
    expect(alerts).toEqual([]);
  });
});

describe('loss of signal', () => {
  it('marks a phone stale after the configured time and grows its circle at the assumed speed', () => {
    const { phone } = play([fix(39.1, -90.1, 0, 20)]);
    const latest = phone.fixes.at(-1)!;
    expect(phoneStatus(phone, start + 59_000, settings)).toBe('sharing');
    expect(grownRadius(latest, start + 59_000, settings)).toBe(20);
    expect(phoneStatus(phone, start + 61_000, settings)).toBe('stale');
    // Ten minutes at 1.5 m/s: 900 m more.
    expect(grownRadius(latest, start + 600_000, settings)).toBe(920);
    expect(phoneStatus(phone, start + 61_000, { ...settings, staleAfterMs: 120_000 })).toBe(
      'sharing',
    );
  });

  it('tells never opened, waiting, denied and stopped apart', () => {
    expect(phoneStatus(newPhone(callerId), start, settings)).toBe('never-opened');
    const opened = play([
      { event: 'caller-connected', data: { seq: 1, callerId, connected: true } },
    ]);
    expect(phoneStatus(opened.phone, start, settings)).toBe('waiting');
    const denied = play([
      { event: 'caller-connected', data: { seq: 1, callerId, connected: true } },
      { event: 'location-sharing-error', data: { seq: 2, callerId, code: 'permission-denied' } },
    ]);
    expect(phoneStatus(denied.phone, start, settings)).toBe('denied');
    // Denied, then allowed: the fix clears it.
    const allowed = applyWatchEvent(denied.phone, fix(39.1, -90.1, 0), settings);
    expect(phoneStatus(allowed.phone, start + 1000, settings)).toBe('sharing');
    const stopped = applyWatchEvent(
      allowed.phone,
      { event: 'is-sharing-location', data: { seq: 99, callerId, sharing: false } },
      settings,
    );
    expect(phoneStatus(stopped.phone, start + 2000, settings)).toBe('stopped');
  });
});

describe('geofence input', () => {
  it('names a polygon that crosses itself', () => {
    const bowTie = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [1, 1],
          [1, 0],
          [0, 1],
          [0, 0],
        ],
      ],
    };
    expect(parsePastedGeofence(JSON.stringify(bowTie))).toEqual({
      ok: false,
      problem: 'The polygon crosses itself (edge 1 crosses edge 3).',
    });
  });

  it('refuses more than 1,000 vertices, open rings, other geometries and non-JSON', () => {
    const circle: Position[] = Array.from({ length: 1001 }, (_, i) => [
      Math.cos((2 * Math.PI * i) / 1001),
      Math.sin((2 * Math.PI * i) / 1001),
    ]);
    circle.push(circle[0]!);
    const tooMany = GeoJsonPolygon.safeParse({ type: 'Polygon', coordinates: [circle] });
    expect(tooMany.success || tooMany.error.issues[0]!.message).toBe(
      'A geofence may have at most 1000 vertices; this one has 1001.',
    );
    expect(
      parsePastedGeofence(JSON.stringify({ type: 'Polygon', coordinates: [square.slice(0, 4)] })),
    ).toEqual({
      ok: false,
      problem: 'A polygon ring must end with its first position (GeoJSON closes rings).',
    });
    expect(parsePastedGeofence('{"type":"Point","coordinates":[0,0]}').ok).toBe(false);
    expect(parsePastedGeofence('not json')).toEqual({
      ok: false,
      problem: 'This is not GeoJSON: it is not valid JSON.',
    });
  });

  it('reads a Feature holding a polygon', () => {
    const feature = {
      type: 'Feature',
      properties: {},
      geometry: { type: 'Polygon', coordinates: [square] },
    };
    expect(parsePastedGeofence(JSON.stringify(feature)).ok).toBe(true);
  });
});
