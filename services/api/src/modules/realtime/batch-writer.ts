import type { Database, DB } from '@locus/db';
import type { Transaction } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { noteFixesStored } from '../location/lifecycle';
import { lifecyclesPastFirstFix } from '../location/lifecycle-repo';
import { recordBatchFacts } from '../webhooks/outbox';
import {
  insertEvents,
  insertFixes,
  lockSessionsInOrder,
  touchSessions,
  type EventRow,
  type FixRow,
  type SessionTouch,
} from './repo';

const pastFirstFix = new Set<string>(lifecyclesPastFirstFix);

export interface BatchWriterOptions {
  maxRows: number;
  maxDelayMs: number;
  /** After each committed batch: how many of the oldest fixes and events it wrote. */
  onWritten?: (fixes: number, events: number, seconds: number) => void;
}

/**
 * Persists accepted fixes and session events in batches (at most `maxDelayMs` late or
 * `maxRows` long), never one insert per fix. A failed batch is kept and retried with back-off:
 * rows are dropped only once Postgres has them. Meanwhile the Redis replay stream serves them.
 */
export class BatchWriter {
  private fixes: FixRow[] = [];
  private events: EventRow[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  /** Rows in the write in progress: taken off the queues, not yet committed. */
  private writing = 0;
  private failures = 0;
  /** Rows ever queued and ever written, per table: what `flush` waits on. */
  private readonly queued = { fixes: 0, events: 0 };
  private readonly written = { fixes: 0, events: 0 };

  constructor(
    private readonly db: Database,
    /** Only failures are logged (the persistence thread forwards them to the API's logger). */
    private readonly log: Pick<FastifyBaseLogger, 'error'>,
    private readonly options: BatchWriterOptions,
  ) {}

  get pending(): number {
    return this.fixes.length + this.events.length;
  }

  /**
   * How long the oldest row not yet in Postgres has waited (0 when all are written): the
   * persistence lag that health reports. The queues are in arrival order, so it is a head's age.
   */
  lagMs(now = Date.now()): number {
    return oldestWaitMs(this.fixes, this.events, now);
  }

  addFix(row: FixRow): void {
    this.fixes.push(row);
    this.queued.fixes += 1;
    this.schedule();
  }

  addEvent(row: EventRow): void {
    this.events.push(row);
    this.queued.events += 1;
    this.schedule();
  }

  private schedule(): void {
    if (this.flushing) return;
    if (this.pending >= this.options.maxRows) {
      this.clearTimer();
      void this.flushOnce();
    } else if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.flushOnce();
      }, this.options.maxDelayMs);
    }
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * Resolves once every row queued before the call is written, or when a write fails. (A write
   * already in progress may not hold the newest rows, so this can take several writes.)
   */
  async flush(): Promise<void> {
    const target = { ...this.queued };
    while (this.written.fixes < target.fixes || this.written.events < target.events) {
      await this.flushOnce();
      if (this.failures > 0) return;
    }
  }

  /** One write of up to `maxRows` per table, or the write already in progress. */
  private flushOnce(): Promise<void> {
    if (this.flushing) return this.flushing;
    if (this.pending === 0) return Promise.resolve();
    this.flushing = this.writeOnce().finally(() => {
      this.flushing = undefined;
      if (this.pending > 0) this.retryOrSchedule();
    });
    return this.flushing;
  }

  private retryOrSchedule(): void {
    if (this.failures === 0) return this.schedule();
    const delay = Math.min(5_000, this.options.maxDelayMs * 2 ** this.failures);
    this.clearTimer();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flushOnce();
    }, delay);
  }

  private async writeOnce(): Promise<void> {
    const fixes = this.fixes.splice(0, this.options.maxRows);
    const events = this.events.splice(0, this.options.maxRows);
    const started = process.hrtime.bigint();
    this.writing = fixes.length + events.length;
    try {
      await this.db.transaction().execute((trx) => writeBatch(trx, fixes, events));
      this.failures = 0;
      this.written.fixes += fixes.length;
      this.written.events += events.length;
      this.options.onWritten?.(
        fixes.length,
        events.length,
        Number(process.hrtime.bigint() - started) / 1e9,
      );
    } catch (error) {
      this.failures += 1;
      this.fixes.unshift(...fixes);
      this.events.unshift(...events);
      this.log.error(
        { err: error, pending: this.pending, failures: this.failures },
        'persisting location batch failed; will retry',
      );
    } finally {
      this.writing = 0;
    }
  }

  /**
   * On shutdown: keep flushing until everything is written or the deadline passes. A write in
   * progress counts: its rows are no longer queued (`pending` may be 0) but not yet committed,
   * and whoever awaits the drain stops the thread and its connections next, which would roll
   * that transaction back (tests/realtime/writer-drain.test.ts).
   */
  async drain(deadline: number): Promise<void> {
    this.clearTimer();
    while ((this.pending > 0 || this.flushing) && Date.now() < deadline) {
      await this.flushOnce();
      if (this.failures > 0) await new Promise((wait) => setTimeout(wait, 200));
    }
    this.clearTimer();
    const unwritten = this.pending + this.writing;
    if (unwritten > 0)
      this.log.error(
        { pending: unwritten },
        'shutdown deadline passed with unpersisted rows (they remain in the Redis replay stream)',
      );
  }
}

/**
 * One batch in one transaction: the rows (a row already stored is skipped, so a batch may be
 * written twice: a restarted thread, a recovered journal), their sessions' activity and metrics,
 * lifecycles and webhook deliveries.
 */
export async function writeBatch(
  trx: Transaction<DB>,
  fixes: FixRow[],
  events: EventRow[],
): Promise<void> {
  const touches = sessionTouches(fixes, events);
  await lockSessionsInOrder(
    trx,
    touches.map((touch) => touch.sessionId),
  );
  await insertFixes(trx, fixes);
  await insertEvents(trx, events);
  // One update for all the batch's sessions: activity, and the first fix and best
  // uncertainty (metrics), in the transaction that stores the fixes.
  const touched = await touchSessions(trx, touches, new Date());
  // A session's first stored fix moves its lifecycle to sharing (the machine decides).
  // Sessions the touch saw sharing or ended are done; any it did not touch are asked.
  const unsettled = new Set(
    fixes
      .map((row) => row.sessionId)
      .filter((id) => !pastFirstFix.has(touched.get(id)?.lifecycle ?? '')),
  );
  await noteFixesStored(trx, [...unsettled]);
  // The team's webhook deliveries (issue 15), written with what they announce; the touch
  // said which sessions' teams have endpoints, so the others cost no query at all. Their ids
  // are the fix's, so a batch written twice delivers once.
  await recordBatchFacts(trx, fixes, events, touched);
}

/** How long the head of either queue (in arrival order) has waited; 0 when both are empty. */
export function oldestWaitMs(fixes: FixRow[], events: EventRow[], now: number): number {
  const heads = [fixes[0]?.receivedAt, events[0]?.createdAt].filter(
    (time): time is Date => time !== undefined,
  );
  return heads.length === 0 ? 0 : Math.max(0, now - Math.min(...heads.map((t) => t.getTime())));
}

/**
 * Each session of a batch once, with what its fixes say for the metrics (`touchSessions`): the
 * earliest by arrival (the first in the batch among equals) and the smallest uncertainty.
 */
function sessionTouches(fixes: FixRow[], events: EventRow[]): SessionTouch[] {
  const touches = new Map<string, SessionTouch>();
  for (const row of fixes) {
    const touch = touches.get(row.sessionId);
    const first = {
      receivedAt: row.receivedAt,
      // The automatic lookup's fix, or the caller's (their page's, or one they texted back).
      source: row.source === 'RAPID_SOS' ? ('lookup' as const) : ('link' as const),
      uncertaintyM: row.uncertaintyRadiusM,
    };
    if (!touch?.firstFix) {
      touches.set(row.sessionId, {
        sessionId: row.sessionId,
        firstFix: first,
        bestUncertaintyM: row.uncertaintyRadiusM,
      });
      continue;
    }
    if (row.receivedAt < touch.firstFix.receivedAt) touch.firstFix = first;
    touch.bestUncertaintyM = Math.min(touch.bestUncertaintyM ?? Infinity, row.uncertaintyRadiusM);
  }
  for (const row of events) {
    if (!touches.has(row.sessionId))
      touches.set(row.sessionId, {
        sessionId: row.sessionId,
        firstFix: null,
        bestUncertaintyM: null,
      });
  }
  return [...touches.values()];
}
