import type { DeviceReport } from './caller-socket';

/** The parts of `navigator` that only some browsers have (Chromium: battery, connection). */
interface BatteryManager extends EventTarget {
  level: number;
  charging: boolean;
}
interface NetworkInformation extends EventTarget {
  type?: string;
  effectiveType?: string;
}
type NavigatorExtras = Navigator & {
  getBattery?: () => Promise<BatteryManager>;
  connection?: NetworkInformation;
};

/**
 * Watches what the phone can tell the dispatcher about why fixes might stop: battery level and
 * charging, network type, whether the page is in the background (screen locked, another app)
 * and for how long, and the location permission. Each browser gives what it has; the rest is
 * null. Calls `report` with the whole picture whenever a part of it changes.
 */
export class DeviceStatus {
  private battery: DeviceReport['battery'] = null;
  private permission: DeviceReport['permission'] = null;
  /** performance.now() when the page was hidden: a monotonic clock, unlike Date. */
  private hiddenAt: number | null = null;
  private readonly cleanups: (() => void)[] = [];
  private running = false;
  /** Bumped by every start and stop: answers to an earlier start's questions are ignored. */
  private generation = 0;

  constructor(private readonly report: (device: DeviceReport) => void) {}

  get isRunning(): boolean {
    return this.running;
  }

  start(): void {
    this.stop();
    this.running = true;
    const generation = this.generation;
    const current = () => generation === this.generation;
    const nav = navigator as NavigatorExtras;
    this.hiddenAt = document.visibilityState === 'hidden' ? performance.now() : null;
    this.on(document, 'visibilitychange', () => {
      const hidden = document.visibilityState === 'hidden';
      if (hidden === (this.hiddenAt !== null)) return;
      this.hiddenAt = hidden ? performance.now() : null;
      this.send();
    });
    if (nav.connection) this.on(nav.connection, 'change', () => this.send());
    nav.getBattery?.().then(
      (battery) => {
        if (!current()) return;
        const read = () => {
          const level = Math.round(battery.level * 100) / 100;
          const changed =
            this.battery?.level !== level || this.battery?.charging !== battery.charging;
          this.battery = { level, charging: battery.charging };
          if (changed) this.send();
        };
        this.on(battery, 'levelchange', read);
        this.on(battery, 'chargingchange', read);
        read();
      },
      () => undefined,
    );
    navigator.permissions?.query({ name: 'geolocation' }).then(
      (status) => {
        if (!current()) return;
        const read = () => {
          this.permission = status.state;
          this.send();
        };
        this.on(status, 'change', read);
        read();
      },
      () => undefined,
    );
    this.send();
  }

  stop(): void {
    this.running = false;
    this.generation += 1;
    for (const cleanup of this.cleanups.splice(0)) cleanup();
  }

  /** The picture as it is now (`hiddenForMs` counts up to this moment). */
  current(): DeviceReport {
    const connection = (navigator as NavigatorExtras).connection;
    return {
      battery: this.battery,
      network: connection
        ? {
            type: connection.type?.slice(0, 32) ?? null,
            effectiveType: connection.effectiveType?.slice(0, 16) ?? null,
          }
        : null,
      visibility: this.hiddenAt === null ? 'visible' : 'hidden',
      hiddenForMs: this.hiddenAt === null ? null : Math.round(performance.now() - this.hiddenAt),
      permission: this.permission,
    };
  }

  private send(): void {
    if (this.running) this.report(this.current());
  }

  private on(target: EventTarget, type: string, listener: () => void): void {
    target.addEventListener(type, listener);
    this.cleanups.push(() => target.removeEventListener(type, listener));
  }
}
