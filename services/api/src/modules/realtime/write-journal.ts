import type { Database } from '@locus/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { writeBatch } from './batch-writer';
import { decodeRows, encodeRows } from './persistence-messages';
import type { EventRow, FixRow } from './repo';
import type { SessionKeys } from './sequencer';

/** A row about to be numbered: the seq is the sequencer's to give. */
export type NewRow = { fix: Omit<FixRow, 'seq'> } | { event: Omit<EventRow, 'seq'> };

/** How long an instance's journal counts as owned without a renewal. */
const ALIVE_MS = 15_000;
/** How often the owner renews it, and every instance looks for journals nobody owns. */
const TICK_MS = 5_000;
/** How long one instance may take to recover a dead instance's journal before another may. */
const CLAIM_MS = 60_000;
/** Sessions read per round trip, and rows per transaction, while recovering. */
const SESSIONS_PER_READ = 200;
const ROWS_PER_WRITE = 1_000;

/**
 * The write-ahead journal of accepted rows (issue 18). A fix is acknowledged to the phone once it
 * is numbered, and written to Postgres in batches up to ~100 ms later: an instance killed with
 * `kill -9` in between used to take the acknowledged rows with it. Now the publish script keeps
 * each row in its session's `unwritten` hash, under its seq, in the same atomic step that numbers
 * it (so the session's keys stay in one cluster slot), tagged with the instance that owns it. The
 * owner deletes the rows once they are committed. Every instance also lists the sessions it
 * journals in and renews an ownership key; when that key expires (the process died), any other
 * instance claims the journal, writes what is left (a row already stored is skipped) and deletes
 * it. So an acknowledged fix is lost only with Redis's own data.
 */
export class WriteJournal {
  /** Sessions this instance has listed (or is listing) as holding its journal rows. */
  private readonly enlisted = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private readonly keys;

  constructor(
    private readonly redis: Redis,
    private readonly sessionKeys: SessionKeys,
    redisKeyPrefix: string,
    readonly instanceId: string,
    private readonly db: Database,
    private readonly log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>,
    /** Told how many rows each recovery wrote (`locus_journal_rows_recovered_total`). */
    private readonly onRecovered?: (rows: number) => void,
  ) {
    this.keys = {
      /** Every instance that has a journal: where survivors look. */
      owners: `${redisKeyPrefix}write-journals`,
      alive: (id: string) => `${redisKeyPrefix}write-journal:{${id}}:alive`,
      sessions: (id: string) => `${redisKeyPrefix}write-journal:{${id}}:sessions`,
      recovering: (id: string) => `${redisKeyPrefix}write-journal:{${id}}:recovering`,
    };
  }

  /** Registers this instance's journal and starts renewing it and looking for orphans. */
  async start(): Promise<void> {
    await this.renew();
    this.timer = setInterval(() => {
      this.ticking ??= this.tick().finally(() => (this.ticking = undefined));
    }, TICK_MS);
    this.timer.unref();
  }

  /**
   * The journal entry of a row (the seq is left 0; the hash field holds it), once the session is
   * listed under this instance, so that a survivor can find the row.
   */
  async entryFor(sessionId: string, row: NewRow): Promise<string> {
    await this.enlist(sessionId);
    const rows =
      'fix' in row
        ? encodeRows([{ ...row.fix, seq: 0 }], [])
        : encodeRows([], [{ ...row.event, seq: 0 }]);
    return `${this.instanceId}\n${rows}`;
  }

  /** After a committed batch: its rows leave the journal. A failure only leaves them to expire. */
  written(fixes: FixRow[], events: EventRow[]): void {
    if (fixes.length + events.length === 0) return;
    const seqs = new Map<string, number[]>();
    for (const row of [...fixes, ...events]) {
      const list = seqs.get(row.sessionId);
      if (list) list.push(row.seq);
      else seqs.set(row.sessionId, [row.seq]);
    }
    const pipeline = this.redis.pipeline();
    for (const [sessionId, list] of seqs)
      pipeline.hdel(this.sessionKeys.unwritten(sessionId), ...list.map(String));
    pipeline.exec().catch((error: unknown) => {
      this.log.warn({ err: error }, 'written rows not taken off the write journal');
    });
  }

  /**
   * On shutdown, after the writer drained. Everything written: the journal goes. Rows left: the
   * ownership key goes at once, so that another instance writes them now.
   */
  async stop(unwritten: number): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.ticking;
    const id = this.instanceId;
    try {
      if (unwritten > 0) await this.redis.del(this.keys.alive(id));
      else
        await this.redis
          .multi()
          .srem(this.keys.owners, id)
          .del(this.keys.sessions(id), this.keys.alive(id))
          .exec();
    } catch (error) {
      this.log.warn({ err: error }, 'write journal not released (it expires by itself)');
    }
  }

  /**
   * Stops renewing and leaves everything as it is, as a killed process would (its owner key then
   * expires). For tests/realtime/write-journal.test.ts.
   */
  crash(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Looks once for journals whose owner died, and writes them; returns the rows recovered. */
  async recoverOrphans(): Promise<number> {
    let recovered = 0;
    for (const id of await this.redis.smembers(this.keys.owners)) {
      if (id === this.instanceId || (await this.redis.exists(this.keys.alive(id))) === 1) continue;
      const claimed = await this.redis.set(
        this.keys.recovering(id),
        this.instanceId,
        'PX',
        CLAIM_MS,
        'NX',
      );
      if (claimed !== 'OK') continue;
      try {
        recovered += await this.recover(id);
      } finally {
        await this.redis.del(this.keys.recovering(id));
      }
    }
    return recovered;
  }

  private enlist(sessionId: string): Promise<void> {
    let listed = this.enlisted.get(sessionId);
    if (!listed) {
      listed = this.redis
        .sadd(this.keys.sessions(this.instanceId), sessionId)
        .then(() => undefined);
      this.enlisted.set(sessionId, listed);
      // Not listed: the next row tries again (and its publish would fail with Redis anyway).
      listed.catch(() => this.enlisted.delete(sessionId));
    }
    return listed;
  }

  private async renew(): Promise<void> {
    await this.redis
      .multi()
      .sadd(this.keys.owners, this.instanceId)
      .set(this.keys.alive(this.instanceId), String(Date.now()), 'PX', ALIVE_MS)
      .exec();
  }

  private async tick(): Promise<void> {
    try {
      await this.renew();
      await this.recoverOrphans();
    } catch (error) {
      this.log.warn({ err: error }, 'write journal renewal or recovery failed; trying again');
    }
  }

  /** Writes every row a dead instance journalled, then drops its journal. */
  private async recover(id: string): Promise<number> {
    const owner = `${id}\n`;
    let cursor = '0';
    let recovered = 0;
    do {
      const [next, sessionIds] = await this.redis.sscan(
        this.keys.sessions(id),
        cursor,
        'COUNT',
        SESSIONS_PER_READ,
      );
      cursor = next;
      const read = this.redis.pipeline();
      for (const sessionId of sessionIds) read.hgetall(this.sessionKeys.unwritten(sessionId));
      const hashes = (await read.exec()) ?? [];
      const fixes: FixRow[] = [];
      const events: EventRow[] = [];
      for (const [error, hash] of hashes) {
        if (error) throw error;
        // Other instances' rows in the same session are theirs to write.
        for (const [seq, entry] of Object.entries(hash as Record<string, string>)) {
          if (!entry.startsWith(owner)) continue;
          const rows = decodeRows(entry.slice(owner.length));
          for (const fix of rows.fixes) fixes.push({ ...fix, seq: Number(seq) });
          for (const event of rows.events) events.push({ ...event, seq: Number(seq) });
        }
      }
      for (let at = 0; at < Math.max(fixes.length, events.length); at += ROWS_PER_WRITE) {
        const someFixes = fixes.slice(at, at + ROWS_PER_WRITE);
        const someEvents = events.slice(at, at + ROWS_PER_WRITE);
        await this.db.transaction().execute((trx) => writeBatch(trx, someFixes, someEvents));
        this.written(someFixes, someEvents);
        recovered += someFixes.length + someEvents.length;
      }
    } while (cursor !== '0');
    await this.redis.multi().srem(this.keys.owners, id).del(this.keys.sessions(id)).exec();
    this.onRecovered?.(recovered);
    this.log.info(
      { instance: id, rows: recovered },
      'wrote the write journal of an instance that stopped without writing it',
    );
    return recovered;
  }
}
