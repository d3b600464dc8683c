import type { FastifyBaseLogger } from 'fastify';
import { Worker } from 'node:worker_threads';
import {
  encodeRows,
  type FromPersistence,
  type PersistenceSetup,
  type ToPersistence,
} from './persistence-messages';
import { oldestWaitMs } from './batch-writer';
import type { EventRow, FixRow } from './repo';

/** What sockets and services hand accepted rows to: batch-writer.ts, or a thread running it. */
export interface RowWriter {
  /** Rows accepted and not yet in Postgres. */
  readonly pending: number;
  /** How long the oldest row not yet in Postgres has waited (0 when all are written). */
  lagMs(now?: number): number;
  addFix(row: FixRow): void;
  addEvent(row: EventRow): void;
  /** Resolves once every row added before the call is written, or when a write fails. */
  flush(): Promise<void>;
  /** On shutdown: write what is left until `deadline` (epoch ms). */
  drain(deadline: number): Promise<void>;
}

const bootFile = new URL('./persistence-thread-boot.mjs', import.meta.url);
/** How long an accepted row may wait before it goes to the thread, and how many may. */
const handOverMs = 10;
const handOverRows = 500;
/** A wait that never keeps the process alive by itself. */
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms).unref());

/**
 * The API's side of the persistence thread (issue 16: persistence never shares an event loop
 * with delivery). Rows are handed over every few milliseconds (`scheduleHandOver`), and kept here
 * until the thread says they are committed: a thread that dies is started again and sent them
 * again (the inserts are idempotent on session and seq), so an accepted fix is never lost with
 * it. Until then the rows are held twice (here and in the thread): during a Postgres outage the
 * instance's memory grows by both copies.
 */
export class ThreadedWriter implements RowWriter {
  private worker!: Worker;
  /** Accepted, not yet committed, oldest first; the first `sent*` of them are with the thread. */
  private fixes: FixRow[] = [];
  private events: EventRow[] = [];
  private sentFixes = 0;
  private sentEvents = 0;
  private handOver: NodeJS.Timeout | undefined;
  private readonly flushes = new Map<number, () => void>();
  private nextFlush = 1;
  private closing = false;
  /** Between a thread's death and its successor's start, messages would go nowhere. */
  private alive = false;
  private drained: (() => void) | undefined;
  private restarts = 0;
  /** A thread being started (and sent the rows): drain waits for it rather than start another. */
  private starting: Promise<void> | undefined;
  /** Told the rows of each committed batch (the write journal lets them go). */
  private committed: ((fixes: FixRow[], events: EventRow[]) => void) | undefined;

  private constructor(
    private readonly setup: PersistenceSetup,
    private readonly log: FastifyBaseLogger,
    private readonly onWritten?: (rows: number, seconds: number) => void,
  ) {}

  /** Starts the thread and waits until it is ready: a thread that cannot start fails the API's. */
  static async start(
    setup: PersistenceSetup,
    log: FastifyBaseLogger,
    onWritten?: (rows: number, seconds: number) => void,
  ): Promise<ThreadedWriter> {
    const writer = new ThreadedWriter(setup, log, onWritten);
    await writer.spawn();
    return writer;
  }

  get pending(): number {
    return this.fixes.length + this.events.length;
  }

  lagMs(now = Date.now()): number {
    return oldestWaitMs(this.fixes, this.events, now);
  }

  /** Calls `listener` with the rows of every batch committed from now on. */
  onCommitted(listener: (fixes: FixRow[], events: EventRow[]) => void): void {
    this.committed = listener;
  }

  addFix(row: FixRow): void {
    this.fixes.push(row);
    this.scheduleHandOver();
  }

  addEvent(row: EventRow): void {
    this.events.push(row);
    this.scheduleHandOver();
  }

  flush(): Promise<void> {
    this.handOverNow();
    const id = this.nextFlush++;
    return new Promise((resolve) => {
      this.flushes.set(id, resolve);
      this.send({ type: 'flush', id });
    });
  }

  async drain(deadline: number): Promise<void> {
    this.closing = true;
    // Shutting down while the thread was being restarted: wait for it, or start one, to write
    // what is left.
    if (this.starting) await this.starting.catch(() => undefined);
    if (!this.alive) await this.startThread().catch(() => undefined);
    this.handOverNow();
    const drained = new Promise<void>((resolve) => (this.drained = resolve));
    this.send({ type: 'drain', deadline });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, Math.max(0, deadline - Date.now()) + 2_000);
    });
    await Promise.race([drained, late]);
    clearTimeout(timer);
    await this.worker.terminate();
    this.resolveFlushes();
    if (this.pending > 0)
      this.log.error(
        { pending: this.pending },
        'shutdown deadline passed with unpersisted rows (they remain in the Redis replay stream)',
      );
  }

  /**
   * Stops the thread the way a crash would, rows and all; it is started again and sent every row
   * not yet committed. For the fault tests (tests/realtime/postgres-stall.test.ts).
   */
  async crashThread(): Promise<void> {
    await this.worker.terminate();
  }

  /**
   * Rows go over every `handOverMs`, not one message per fix: each message wakes the thread (a
   * system call), and at thousands of fixes a second a hand-over per event-loop turn cost the
   * API's loop 8–10 µs per fix (docs/benchmarks.md, issue 16). A batch waits longer than this
   * for Postgres anyway; `flush` hands over at once.
   */
  private scheduleHandOver(): void {
    if (this.fixes.length - this.sentFixes + this.events.length - this.sentEvents >= handOverRows)
      return this.handOverNow();
    this.handOver ??= setTimeout(() => this.handOverNow(), handOverMs);
  }

  private handOverNow(): void {
    if (this.handOver) clearTimeout(this.handOver);
    this.handOver = undefined;
    if (this.sentFixes === this.fixes.length && this.sentEvents === this.events.length) return;
    this.send({
      type: 'rows',
      rows: encodeRows(this.fixes.slice(this.sentFixes), this.events.slice(this.sentEvents)),
    });
    this.sentFixes = this.fixes.length;
    this.sentEvents = this.events.length;
  }

  private send(message: ToPersistence): void {
    // A dead thread's successor is sent every uncommitted row and awaited flush on its start.
    if (this.alive) this.worker.postMessage(message);
  }

  private spawn(): Promise<void> {
    const worker = new Worker(bootFile, {
      workerData: this.setup,
      name: 'locus-persistence',
      // Not the process's flags: `--import` of a TypeScript file (tsx, a bench's profiler) fails
      // in a Node 20 thread; the boot file registers tsx itself.
      execArgv: [],
    });
    this.worker = worker;
    return new Promise((resolve, reject) => {
      let ready = false;
      worker.on('message', (message: FromPersistence) => {
        // Only the current thread speaks for the rows: a replaced one's word would count twice.
        if (this.worker !== worker) return;
        if (message.type === 'ready') {
          ready = true;
          this.alive = true;
          resolve();
          return;
        }
        this.hear(message);
      });
      worker.on('error', (error) => {
        this.log.error({ err: error }, 'persistence thread failed');
        if (!ready) reject(error);
      });
      worker.on('exit', (code) => {
        if (!ready)
          reject(new Error(`persistence thread exited with code ${code} before it was ready`));
        if (this.worker !== worker) return;
        this.alive = false;
        if (this.closing || !ready) return;
        // What the dead thread had not written counts as a failed write for those waiting (the
        // RowWriter contract); the rows themselves go to its successor.
        this.resolveFlushes();
        void this.restart(code);
      });
    });
  }

  private hear(message: FromPersistence): void {
    switch (message.type) {
      case 'written': {
        const fixes = this.fixes.splice(0, message.fixes);
        const events = this.events.splice(0, message.events);
        this.committed?.(fixes, events);
        this.sentFixes -= message.fixes;
        this.sentEvents -= message.events;
        this.onWritten?.(message.fixes + message.events, message.seconds);
        return;
      }
      case 'log':
        this.log.error(
          {
            ...(message.err === undefined ? {} : { err: new Error(message.err) }),
            pending: this.pending,
            ...(message.failures === undefined ? {} : { failures: message.failures }),
          },
          message.msg,
        );
        return;
      case 'flushed':
        this.flushes.get(message.id)?.();
        this.flushes.delete(message.id);
        return;
      case 'drained':
        this.drained?.();
        return;
      case 'ready':
        return;
    }
  }

  private resolveFlushes(): void {
    for (const resolve of this.flushes.values()) resolve();
    this.flushes.clear();
  }

  /** After a thread died: a new one, with back-off while it cannot start. */
  private async restart(code: number): Promise<void> {
    this.restarts += 1;
    this.log.error(
      { code, pending: this.pending, restarts: this.restarts },
      'persistence thread stopped; starting it again',
    );
    await sleep(Math.min(5_000, 200 * 2 ** Math.min(this.restarts, 5)));
    if (this.closing) return; // drain starts its own
    try {
      await this.startThread();
    } catch (error) {
      this.log.error({ err: error }, 'persistence thread could not start again');
      // Nobody waits for a write that cannot happen yet: to them it failed.
      this.resolveFlushes();
      return this.restart(1);
    }
    this.restarts = 0;
  }

  /** A new thread, sent every row not yet committed (once: callers share one start). */
  private startThread(): Promise<void> {
    this.starting ??= (async () => {
      try {
        await this.spawn();
        this.sentFixes = 0;
        this.sentEvents = 0;
        this.handOverNow();
        // Flushes asked for while no thread was there to hear them.
        for (const id of this.flushes.keys()) this.send({ type: 'flush', id });
      } finally {
        this.starting = undefined;
      }
    })();
    return this.starting;
  }
}
