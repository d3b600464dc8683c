import type { Database } from '@locus/db';
import { presenceLeaseSeconds, renewCallerPresence } from '../sessions/repo';

type Log = { error(details: object, message: string): void };

/**
 * Which callers have a socket on this instance, renewed in Postgres as a lease
 * (`session_callers.connected_until`) every third of its length. A connected caller keeps the
 * session resumable (SPEC.md §9); a lease, unlike a count of sockets, cannot stay wrong when an
 * instance dies without closing its sockets: nobody renews it, and it runs out.
 */
export class CallerPresence {
  private readonly sockets = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Database,
    private readonly log: Log,
    private readonly renewEveryMs = (presenceLeaseSeconds * 1000) / 3,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.renew(), this.renewEveryMs);
    // Never what keeps a stopping process alive.
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  opened(callerId: string): void {
    this.sockets.set(callerId, (this.sockets.get(callerId) ?? 0) + 1);
  }

  /** Whether that was the caller's last socket on this instance. */
  closed(callerId: string): boolean {
    const left = (this.sockets.get(callerId) ?? 1) - 1;
    if (left > 0) this.sockets.set(callerId, left);
    else this.sockets.delete(callerId);
    return left <= 0;
  }

  async renew(): Promise<void> {
    try {
      await renewCallerPresence(this.db, [...this.sockets.keys()]);
    } catch (error) {
      // The next renewal comes well before the lease runs out.
      this.log.error({ err: error }, 'could not renew the presence of connected callers');
    }
  }
}
