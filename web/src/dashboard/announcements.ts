/*
 * What a screen reader hears while tracking (WCAG 4.1.3 status messages). A stream of fixes
 * arrives every second or faster; reading each one would drown the dispatcher and the caller
 * on the phone. Events (a caller connecting or stopping, a text received) are always said, a
 * few joined into one sentence when they come together; fixes are said at most once per
 * FIX_INTERVAL_MS, the newest one, so the last thing heard is where the caller is now.
 */

/** Events closer together than this are said as one announcement. */
export const ANNOUNCE_GAP_MS = 1_500;
/** A new fix is said at most this often. */
export const FIX_INTERVAL_MS = 15_000;

/** At most this many things in one announcement; the rest are counted (they are in the log). */
export const MAX_PARTS = 5;

/** A list of 50 numbers' texts being delivered is "…. And 45 more updates in the log". */
function summarise(parts: string[]): string {
  if (parts.length <= MAX_PARTS + 1) return parts.join('. ');
  const more = parts.length - MAX_PARTS;
  return `${parts.slice(0, MAX_PARTS).join('. ')}. And ${more} more updates in the log`;
}

export interface AnnouncerClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

const realClock: AnnouncerClock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

export class AnnouncementQueue {
  private events: string[] = [];
  private fix: string | null = null;
  private lastSaidAt = -Infinity;
  private lastFixSaidAt = -Infinity;
  private timer: unknown = null;
  private timerAt = Infinity;

  constructor(
    private readonly say: (text: string) => void,
    private readonly clock: AnnouncerClock = realClock,
  ) {}

  /** Something that happened once: always said. */
  event(text: string): void {
    this.events.push(text);
    this.schedule();
  }

  /** The newest fix: replaces any fix not yet said. */
  newFix(text: string): void {
    this.fix = text;
    this.schedule();
  }

  stop(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = Infinity;
  }

  /** Flushes when the next thing is due; an event can bring a flush waiting on a fix forward. */
  private schedule(): void {
    const now = this.clock.now();
    let at = this.lastSaidAt + ANNOUNCE_GAP_MS;
    if (this.events.length === 0) at = Math.max(at, this.lastFixSaidAt + FIX_INTERVAL_MS);
    at = Math.max(at, now);
    if (this.timer !== null && this.timerAt <= at) return;
    this.stop();
    this.timerAt = at;
    this.timer = this.clock.setTimeout(() => this.flush(), at - now);
  }

  private flush(): void {
    this.timer = null;
    this.timerAt = Infinity;
    const now = this.clock.now();
    const parts = this.events;
    this.events = [];
    if (this.fix !== null && now >= this.lastFixSaidAt + FIX_INTERVAL_MS) {
      parts.push(this.fix);
      this.fix = null;
      this.lastFixSaidAt = now;
    }
    if (parts.length > 0) {
      this.say(summarise(parts));
      this.lastSaidAt = now;
    }
    if (this.fix !== null || this.events.length > 0) this.schedule();
  }
}
