import {
  applyWatchEvent,
  newPhone,
  type WatchAlert,
  type WatchEvent,
  type WatchSettings,
  type WatchedPhone,
} from '@locus/contract';

/** One line of a phone's log (and of the watch's): what happened, when, from which phone. */
export interface WatchLogEntry {
  seq: number;
  callerId: string;
  /** Epoch ms; null for an event replayed from before this screen opened (it carries no time). */
  time: number | null;
  message: string;
  alert?: WatchAlert['kind'];
}

const watchEventNames = new Set([
  'new-location-available',
  'caller-connected',
  'is-sharing-location',
  'location-sharing-error',
]);

/** What a frame says in a phone's log; fixes are drawn, not logged (200 phones at 1 fix/s). */
function logLine(event: string, data: Record<string, unknown>): string | null {
  switch (event) {
    case 'caller-connected':
      return data.connected ? 'Opened the link' : 'Closed the page';
    case 'is-sharing-location':
      return data.sharing ? 'Started sharing' : 'Stopped sharing';
    case 'location-sharing-error':
      return data.code === 'permission-denied'
        ? 'Denied location permission'
        : `Location error: ${String(data.message ?? data.code)}`;
    case 'sms-status':
      return `Text ${String(data.status)}`;
    default:
      return null;
  }
}

/**
 * How often the screen is told at most. 200 phones at 1 fix/s is 200 frames a second; redrawing
 * the map and the 200-row list for each (or each animation frame) kept the main thread busy
 * (the Overwatch bench, docs/benchmarks.md). Four times a second is live to a person watching.
 */
export const WATCH_REDRAW_MS = 250;

/**
 * Every phone of a watch, rebuilt from the dispatcher socket's frames (the history on join, then
 * live) with the shared analysis. Listeners are told at most once per `WATCH_REDRAW_MS`;
 * `version` says something changed.
 */
export class WatchStore {
  readonly phones = new Map<string, WatchedPhone>();
  readonly numbers = new Map<string, string>();
  readonly log: WatchLogEntry[] = [];
  readonly alerts: WatchAlert[] = [];
  version = 0;
  /** The highest seq applied: a replay (a socket opened again) never applies an event twice. */
  private lastSeq = 0;
  private readonly listeners = new Set<() => void>();
  private scheduled = false;

  constructor(
    private settings: WatchSettings,
    private readonly schedule: (run: () => void) => void = (run) =>
      setTimeout(() => requestAnimationFrame(run), WATCH_REDRAW_MS),
  ) {}

  setSettings(settings: WatchSettings): void {
    this.settings = settings;
  }

  addCallers(callers: { id: string; phoneNumber: string }[]): void {
    for (const caller of callers) {
      this.numbers.set(caller.id, caller.phoneNumber);
      if (!this.phones.has(caller.id)) this.phones.set(caller.id, newPhone(caller.id));
    }
    this.changed();
  }

  apply(event: string, data: Record<string, unknown>, fromHistory = false): WatchAlert[] {
    const callerId = data.callerId;
    if (typeof callerId !== 'string') return [];
    const seq = typeof data.seq === 'number' ? data.seq : 0;
    if (seq > 0) {
      if (seq <= this.lastSeq) return [];
      this.lastSeq = seq;
    }
    const line = logLine(event, data);
    if (line)
      this.log.push({ seq, callerId, time: fromHistory ? null : Date.now(), message: line });
    if (!watchEventNames.has(event)) {
      if (line) this.changed();
      return [];
    }
    const phone = this.phones.get(callerId) ?? newPhone(callerId);
    const applied = applyWatchEvent(phone, { event, data } as WatchEvent, this.settings);
    this.phones.set(callerId, applied.phone);
    for (const alert of applied.alerts) {
      this.alerts.push(alert);
      this.log.push({
        seq,
        callerId,
        time: alert.at,
        message: alert.message,
        alert: alert.kind,
      });
    }
    this.changed();
    return applied.alerts;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    this.version += 1;
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => {
      this.scheduled = false;
      for (const listener of this.listeners) listener();
    });
  }
}
