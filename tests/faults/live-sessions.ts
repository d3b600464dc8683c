import { openSession } from '@locus/api';
import type { Database } from '@locus/db';
import { sql } from 'kysely';
import { fixAt, TestSocket, type ReceivedFrame } from '../support/sockets';

/**
 * Live callers and their dispatchers for the fault scenarios, behaving as the product's clients
 * do: a dispatcher whose socket drops reconnects and joins again with the last seq it has (the
 * server replays what came after); a caller's page keeps every fix until it is acked and sends
 * what is unacked again after reconnecting (the offline buffer). Nothing here hides a fault: the
 * figures are what the scenario asserts.
 */
export interface LiveOptions {
  db: Database;
  sessions: number;
  /** Each caller's fix period; callers are spread over it. */
  fixEveryMs: number;
  /** Where each socket connects, asked again at every reconnect (a load balancer, or one instance). */
  dispatcherBase: () => string;
  callerBase: () => string;
  /** The first phone number's last four digits, so that two scenarios' numbers differ. */
  firstNumber?: number;
}

interface Dispatcher {
  sessionId: string;
  token: string;
  socket: TestSocket | undefined;
  /** The highest seq taken, as the dashboard keeps it (web/src/dashboard/dispatcher-socket.ts). */
  lastSeq: number;
  /** Seqs skipped on arrival (a frame came with seq > lastSeq + 1): lost for the dashboard. */
  gaps: number;
  /** Frames dropped because their seq was not above lastSeq (a replay overlapping live). */
  stale: number;
  /** The event each seq carried, to catch a seq handed out twice. */
  seqEvents: Map<number, string>;
  seqReused: number;
  /** When each fix (by capturedAt) was first delivered; duplicate deliveries counted apart. */
  fixes: Map<number, number>;
  duplicateDeliveries: number;
  droppedAt: number | undefined;
  resumedAfterMs: number[];
}

interface Caller {
  sessionId: string;
  token: string;
  socket: TestSocket | undefined;
  /** Fixes taken (each stamped with the wall clock when taken, as a phone does). */
  next: number;
  lastCapturedAt: number;
  /** Taken and not yet acked, by capturedAt. */
  unacked: Map<number, Record<string, number>>;
  acked: Set<number>;
  reconnects: number;
}

const reconnectDelayMs = () => 200 + Math.random() * 300;

export class LiveSessions {
  private running = false;
  private timers: NodeJS.Timeout[] = [];
  private readonly dispatchers: Dispatcher[] = [];
  private readonly callers: Caller[] = [];

  private constructor(private readonly options: LiveOptions) {}

  static async open(options: LiveOptions): Promise<LiveSessions> {
    const live = new LiveSessions(options);
    const first = options.firstNumber ?? 0;
    for (let index = 0; index < options.sessions; index += 1) {
      const phoneNumber = `+1303555${String(first + index).padStart(4, '0')}`;
      const session = await openSession(options.db, { callers: [{ phoneNumber }] });
      live.dispatchers.push({
        sessionId: session.sessionId,
        token: session.dispatcherToken,
        socket: undefined,
        lastSeq: 0,
        gaps: 0,
        stale: 0,
        seqEvents: new Map(),
        seqReused: 0,
        fixes: new Map(),
        duplicateDeliveries: 0,
        droppedAt: undefined,
        resumedAfterMs: [],
      });
      live.callers.push({
        sessionId: session.sessionId,
        token: session.callers[0]!.token,
        socket: undefined,
        next: 0,
        lastCapturedAt: 0,
        unacked: new Map(),
        acked: new Set(),
        reconnects: 0,
      });
    }
    return live;
  }

  /** The sessions' ids. */
  sessionIds(): string[] {
    return this.callers.map((caller) => caller.sessionId);
  }

  /** Connects everyone (dispatchers joined first), then the callers start taking fixes. */
  async start(): Promise<void> {
    this.running = true;
    await inBatches(this.dispatchers, (dispatcher) => this.connectDispatcher(dispatcher));
    await inBatches(this.callers, (caller) => this.connectCaller(caller));
    this.startFixes();
  }

  private startFixes(): void {
    this.timers = [];
    this.callers.forEach((caller, index) => {
      const offset = (index * this.options.fixEveryMs) / this.callers.length;
      const starter = setTimeout(() => {
        const timer = setInterval(() => this.takeFix(caller), this.options.fixEveryMs);
        this.timers.push(timer);
        this.takeFix(caller);
      }, offset);
      this.timers.push(starter);
    });
  }

  /** Callers take fixes again after `settle`. */
  resume(): void {
    this.startFixes();
  }

  /** Callers stop taking fixes; resolves when every fix taken is acked and delivered, or throws. */
  async settle(timeoutMs: number): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const figures = this.figures();
      if (figures.unacked === 0 && figures.undelivered === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`not settled: ${JSON.stringify(this.figures())}`);
  }

  async close(): Promise<void> {
    this.running = false;
    for (const timer of this.timers) clearTimeout(timer);
    await Promise.all(
      [...this.dispatchers, ...this.callers].map((each) => each.socket?.terminate()),
    );
  }

  /** What the scenario asserts: delivery, order and resumption as the dispatchers saw them. */
  figures() {
    let taken = 0;
    let unacked = 0;
    let undelivered = 0;
    let gaps = 0;
    let duplicateDeliveries = 0;
    let stale = 0;
    let seqReused = 0;
    const resumes: number[] = [];
    for (const [index, caller] of this.callers.entries()) {
      const dispatcher = this.dispatchers[index]!;
      taken += caller.next;
      unacked += caller.unacked.size;
      for (const capturedAt of caller.acked)
        if (!dispatcher.fixes.has(capturedAt)) undelivered += 1;
      gaps += dispatcher.gaps;
      stale += dispatcher.stale;
      seqReused += dispatcher.seqReused;
      duplicateDeliveries += dispatcher.duplicateDeliveries;
      resumes.push(...dispatcher.resumedAfterMs);
    }
    return {
      sessions: this.callers.length,
      taken,
      unacked,
      undelivered,
      gaps,
      seqReused,
      staleFramesDropped: stale,
      duplicateDeliveries,
      dispatcherReconnects: resumes.length,
      callerReconnects: this.callers.reduce((sum, caller) => sum + caller.reconnects, 0),
      slowestResumeMs: resumes.length ? Math.max(...resumes) : 0,
    };
  }

  /** Every fix taken is stored, once: [taken, stored rows, distinct fixes stored]. */
  async stored(): Promise<{ taken: number; rows: number; distinct: number }> {
    const ids = this.callers.map((caller) => caller.sessionId);
    const result = await sql<{ rows: number; distinct: number }>`
      select count(*)::int as rows,
             count(distinct (session_id, captured_at))::int as distinct
      from location_fixes where session_id = any(${ids}::uuid[])`.execute(this.options.db);
    const row = result.rows[0]!;
    return { taken: this.figures().taken, rows: row.rows, distinct: row.distinct };
  }

  /**
   * How long after `at` every dispatcher had a fix taken at or after `at` (the slowest one), or
   * undefined while some dispatcher has none yet: when delivery had resumed for everyone.
   */
  resumedAfter(at: number): number | undefined {
    let slowest = 0;
    for (const dispatcher of this.dispatchers) {
      let first: number | undefined;
      for (const [capturedAt, deliveredAt] of dispatcher.fixes)
        if (capturedAt >= at && (first === undefined || deliveredAt < first)) first = deliveredAt;
      if (first === undefined) return undefined;
      slowest = Math.max(slowest, first - at);
    }
    return slowest;
  }

  /** Polls `resumedAfter(at)` until every dispatcher has resumed, or `timeoutMs`. */
  async waitResumed(at: number, timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const resumed = this.resumedAfter(at);
      if (resumed !== undefined) return resumed;
      if (Date.now() > deadline)
        throw new Error(
          `delivery not resumed within ${timeoutMs} ms: ${JSON.stringify(this.figures())}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  private takeFix(caller: Caller): void {
    const capturedAt = Math.max(Date.now(), caller.lastCapturedAt + 1);
    caller.lastCapturedAt = capturedAt;
    const fix = { ...fixAt(0, caller.next), capturedAt };
    caller.next += 1;
    caller.unacked.set(fix.capturedAt!, fix);
    if (caller.socket?.ws.readyState === 1) caller.socket.send('fix', fix);
  }

  private async connectCaller(caller: Caller): Promise<void> {
    for (;;) {
      if (!this.running) return;
      try {
        const socket = await TestSocket.open(
          `${this.options.callerBase()}/api/v1/caller/socket?token=${caller.token}`,
        );
        caller.socket = socket;
        socket.onFrame((frame) => {
          if (frame.event !== 'ack') return;
          const capturedAt = frame.data.capturedAt as number;
          if (caller.unacked.delete(capturedAt)) caller.acked.add(capturedAt);
        });
        void socket.closed().then(() => {
          if (!this.running || caller.socket !== socket) return;
          caller.reconnects += 1;
          setTimeout(() => void this.connectCaller(caller), reconnectDelayMs());
        });
        // The page's offline buffer: whatever is not acked goes again, oldest first.
        for (const fix of caller.unacked.values()) socket.send('fix', fix);
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, reconnectDelayMs()));
      }
    }
  }

  private async connectDispatcher(dispatcher: Dispatcher): Promise<void> {
    for (;;) {
      if (!this.running) return;
      try {
        const socket = await TestSocket.open(
          `${this.options.dispatcherBase()}/api/v1/socket?token=${dispatcher.token}`,
        );
        dispatcher.socket = socket;
        socket.onFrame((frame) => this.received(dispatcher, frame));
        void socket.closed().then(() => {
          if (!this.running || dispatcher.socket !== socket) return;
          dispatcher.droppedAt ??= Date.now();
          setTimeout(() => void this.connectDispatcher(dispatcher), reconnectDelayMs());
        });
        // Exactly what the dashboard sends: the highest seq it took.
        const lastSeq = dispatcher.lastSeq;
        socket.send('join', {
          sessionId: dispatcher.sessionId,
          ...(lastSeq > 0 ? { lastSeq } : {}),
        });
        const answer = await socket.next(
          (frame) => frame.event === 'joined' || frame.event === 'error',
        );
        if (answer.event === 'error')
          throw new Error(`join refused: ${JSON.stringify(answer.data)}`);
        if (dispatcher.droppedAt !== undefined) {
          dispatcher.resumedAfterMs.push(Date.now() - dispatcher.droppedAt);
          dispatcher.droppedAt = undefined;
        }
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, reconnectDelayMs()));
      }
    }
  }

  /** The dashboard's rule: a session event is taken only when its seq is above the last one. */
  private received(dispatcher: Dispatcher, frame: ReceivedFrame): void {
    const seq = frame.data.seq;
    if (typeof seq !== 'number') return;
    const seen = dispatcher.seqEvents.get(seq);
    const identity = `${frame.event}:${String(frame.data.dateTimeCaptured ?? '')}`;
    if (seen !== undefined && seen !== identity) dispatcher.seqReused += 1;
    dispatcher.seqEvents.set(seq, identity);
    if (seq <= dispatcher.lastSeq) {
      dispatcher.stale += 1;
      return;
    }
    if (seq > dispatcher.lastSeq + 1) dispatcher.gaps += seq - dispatcher.lastSeq - 1;
    dispatcher.lastSeq = seq;
    if (frame.event !== 'new-location-available') return;
    const capturedAt = Date.parse(String(frame.data.dateTimeCaptured));
    if (dispatcher.fixes.has(capturedAt)) dispatcher.duplicateDeliveries += 1;
    else dispatcher.fixes.set(capturedAt, Date.now());
  }
}

async function inBatches<T>(items: T[], task: (item: T) => Promise<void>): Promise<void> {
  for (let index = 0; index < items.length; index += 50)
    await Promise.all(items.slice(index, index + 50).map(task));
}
