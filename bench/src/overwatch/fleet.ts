import WebSocket from 'ws';

/**
 * The phones of the Overwatch bench: each walks its own random route around a riverfront and
 * sends one fix a second, phone i at i/N of each second, so the N fixes of a second are spread
 * evenly over it (as N real phones would be). The routes come from a seeded generator, so the
 * reference page is fed exactly the fixes Locus was fed.
 */

export interface RouteFix {
  latitude: number;
  longitude: number;
  accuracy: number;
}

/** Small, fast and seeded (mulberry32): the same seed gives the same routes on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** About 1.8 × 1.7 km around St. Louis' riverfront (the browser test's geofence is there). */
export const area = { south: 38.622, north: 38.638, west: -90.21, east: -90.19 };
const metresPerDegreeLat = 111_320;
const metresPerDegreeLng = metresPerDegreeLat * Math.cos((38.63 * Math.PI) / 180);

/** A walker: 1.0–1.8 m/s, turning a little each second, kept inside the area. */
export class Route {
  private latitude: number;
  private longitude: number;
  private heading: number;
  private readonly speed: number;
  private readonly next: () => number;

  constructor(seed: number) {
    this.next = random(seed);
    this.latitude = area.south + this.next() * (area.north - area.south);
    this.longitude = area.west + this.next() * (area.east - area.west);
    this.heading = this.next() * 2 * Math.PI;
    this.speed = 1 + this.next() * 0.8;
  }

  /** The position one second on. */
  step(): RouteFix {
    this.heading += (this.next() - 0.5) * 0.6;
    const north = Math.cos(this.heading) * this.speed;
    const east = Math.sin(this.heading) * this.speed;
    this.latitude += north / metresPerDegreeLat;
    this.longitude += east / metresPerDegreeLng;
    // Turn back at the edge of the area.
    if (this.latitude < area.south || this.latitude > area.north)
      this.heading = Math.PI - this.heading;
    if (this.longitude < area.west || this.longitude > area.east) this.heading = -this.heading;
    this.latitude = Math.min(area.north, Math.max(area.south, this.latitude));
    this.longitude = Math.min(area.east, Math.max(area.west, this.longitude));
    return {
      latitude: Math.round(this.latitude * 1e6) / 1e6,
      longitude: Math.round(this.longitude * 1e6) / 1e6,
      accuracy: Math.round(5 + this.next() * 10),
    };
  }
}

export interface PhoneCounts {
  sent: number;
  /** Acks with outcome `stored` (Locus) or relayed (reference). */
  acked: number;
  refused: number;
  errors: number;
  closedEarly: number;
}

/** One phone's socket: opened, told `sharing`, then fed fixes. */
interface PhoneSocket {
  ws: WebSocket;
  route: Route;
}

/**
 * N phones on N sockets (one URL each), sending a fix a second each until stopped. `fixFrame`
 * turns a route fix into the frame the socket expects; `isAck` says which frames from the server
 * acknowledge a fix.
 */
export class Fleet {
  readonly counts: PhoneCounts = { sent: 0, acked: 0, refused: 0, errors: 0, closedEarly: 0 };
  private readonly phones: PhoneSocket[] = [];
  private timers: NodeJS.Timeout[] = [];
  private stopped = false;
  /** Fixes sent and acked since `mark()`, for the measured window alone. */
  private marked = { sent: 0, acked: 0 };

  private constructor() {}

  static async open(
    urls: string[],
    options: { seed: number; ackOf: (frame: unknown) => 'stored' | 'refused' | null },
  ): Promise<Fleet> {
    const fleet = new Fleet();
    // A few at a time: 200 handshakes at once make a queue, not a test.
    for (let from = 0; from < urls.length; from += 20) {
      const opened = await Promise.all(
        urls.slice(from, from + 20).map((url, k) => fleet.openOne(url, options, from + k)),
      );
      fleet.phones.push(...opened);
    }
    return fleet;
  }

  private openOne(
    url: string,
    options: { seed: number; ackOf: (frame: unknown) => 'stored' | 'refused' | null },
    index: number,
  ): Promise<PhoneSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      const timer = setTimeout(
        () => reject(new Error(`phone ${index}: no socket in 15 s`)),
        15_000,
      );
      ws.once('open', () => {
        clearTimeout(timer);
        ws.send(JSON.stringify({ event: 'sharing', data: { sharing: true } }));
        resolve({ ws, route: new Route(options.seed * 1000 + index) });
      });
      ws.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      ws.on('message', (raw) => {
        let frame: unknown;
        try {
          frame = JSON.parse(String(raw));
        } catch {
          return;
        }
        const outcome = options.ackOf(frame);
        if (outcome === 'stored') this.counts.acked += 1;
        else if (outcome === 'refused') this.counts.refused += 1;
        else if ((frame as { event?: string }).event === 'error') this.counts.errors += 1;
      });
      ws.on('close', () => {
        if (!this.stopped) this.counts.closedEarly += 1;
      });
      ws.on('error', () => {});
    });
  }

  /** Every phone sends a fix a second, phone i at i/N of each second, until `stop()`. */
  start(): void {
    const t0 = Date.now() + 50;
    const n = this.phones.length;
    this.phones.forEach((phone, i) => {
      let k = 0;
      const tick = (): void => {
        if (this.stopped) return;
        const fix = phone.route.step();
        if (phone.ws.readyState === WebSocket.OPEN) {
          phone.ws.send(JSON.stringify({ event: 'fix', data: { ...fix, capturedAt: Date.now() } }));
          this.counts.sent += 1;
        }
        k += 1;
        // Open loop: fix k is due at t0 + phase + k s, whatever happened to the ones before.
        const due = t0 + (i * 1000) / n + k * 1000;
        this.timers[i] = setTimeout(tick, Math.max(0, due - Date.now()));
      };
      this.timers[i] = setTimeout(tick, Math.max(0, t0 + (i * 1000) / n - Date.now()));
    });
  }

  /** Starts counting the measured window. */
  mark(): void {
    this.marked = { sent: this.counts.sent, acked: this.counts.acked };
  }

  /** Fixes sent and acked since `mark()`. */
  sinceMark(): { sent: number; acked: number } {
    return {
      sent: this.counts.sent - this.marked.sent,
      acked: this.counts.acked - this.marked.acked,
    };
  }

  /** Stops sending; the sockets stay open (the phones stay "sharing") until `close()`. */
  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers = [];
  }

  close(): void {
    this.stop();
    for (const phone of this.phones) phone.ws.close();
  }
}
