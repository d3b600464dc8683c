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
/** A session with nothing unwritten for this long leaves the instance's list (listed again on its next row). */
const FORGET_SESSION_AFTER_MS = 10 * 60_000;
/** How long shutdown waits for rows being numbered to reach the writer. */
const SETTLE_MS = 2_000;
/** Sessions read per round trip, and rows per transaction, while recovering. */
const SESSIONS_PER_READ = 200;
const ROWS_PER_WRITE = 1_000;
/**
 * Takes a committed batch's rows off the journal in one call: KEYS are the sessions' unwritten
 * hashes, ARGV[i] the space-separated seqs of KEYS[i]. One command per session cost the API's
 * loop a command per fix at 5,000 sessions. (On a Redis Cluster this would be one call per slot;
 * Locus runs on one Redis node, with the session hash tags kept for a future cluster.)
 */
const FORGET_SCRIPT = `for i, key in ipairs(KEYS) do
  local seqs = {}
  for seq in string.gmatch(ARGV[i], '%d+') do seqs[#seqs + 1] = seq end
  redis.call('HDEL', key, unpack(seqs))
end
return #KEYS`;
/** Deletes a claim only if this instance still holds it (a slow recovery's claim may have passed). */
const RELEASE_CLAIM = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

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
  private renewTimer: NodeJS.Timeout | undefined;
  private recoverTimer: NodeJS.Timeout | undefined;
  private recovering: Promise<unknown> | undefined;
  private started = false;
  /** Shutting down: no new row is journalled (so none is numbered, nor acked). */
  private closing = false;
  /** Rows given an entry and not yet handed to the writer (`settled`). */
  private numbering = 0;
  /** Per listed session: rows with the writer not yet written, and when one last came. */
  private readonly unwritten = new Map<string, { rows: number; lastAt: number }>();
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

  /**
   * Registers this instance's journal and starts renewing it and looking for orphans, each on its
   * own timer: a recovery waiting on a slow Postgres must not let this instance's own key expire.
   */
  async start(): Promise<void> {
    await this.renew();
    this.started = true;
    this.renewTimer = setInterval(() => {
      this.renew().catch((error: unknown) =>
        this.log.warn({ err: error }, 'write journal not renewed; trying again'),
      );
    }, TICK_MS);
    this.recoverTimer = setInterval(() => {
      this.recovering ??= this.recoverOrphans()
        .catch((error: unknown) =>
          this.log.warn({ err: error }, 'write journal recovery failed; trying again'),
        )
        .finally(() => (this.recovering = undefined));
    }, TICK_MS);
    this.renewTimer.unref();
    this.recoverTimer.unref();
  }

  /**
   * The journal entry of a row (the seq is left 0; the hash field holds it), once the session is
   * listed under this instance, so that a survivor can find the row. Pair with `settled` once the
   * row is with the writer (or was not numbered). Refused once shutdown has begun.
   */
  async entryFor(sessionId: string, row: NewRow): Promise<string> {
    if (this.closing) throw new Error('this instance is shutting down');
    this.numbering += 1;
    try {
      await this.enlist(sessionId);
    } catch (error) {
      this.numbering -= 1;
      throw error;
    }
    const rows =
      'fix' in row
        ? encodeRows([{ ...row.fix, seq: 0 }], [])
        : encodeRows([], [{ ...row.event, seq: 0 }]);
    return `${this.instanceId}\n${rows}`;
  }

  /** The row of an `entryFor` is with the writer now as `seq` (0 or less: it was not numbered). */
  settled(sessionId: string, seq: number): void {
    this.numbering -= 1;
    if (seq <= 0) return;
    const session = this.unwritten.get(sessionId);
    if (session) {
      session.rows += 1;
      session.lastAt = Date.now();
    } else this.unwritten.set(sessionId, { rows: 1, lastAt: Date.now() });
  }

  /**
   * Shutdown's first step, before the writer drains: journals no new row, and waits (a little)
   * for the rows being numbered to reach the writer. Returns how many did not.
   */
  async close(): Promise<number> {
    this.closing = true;
    const deadline = Date.now() + SETTLE_MS;
    while (this.numbering > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    return this.numbering;
  }

  /** After a committed batch: its rows leave the journal. A failure only leaves them to expire. */
  written(fixes: FixRow[], events: EventRow[]): void {
    if (fixes.length + events.length === 0) return;
    const seqs = new Map<string, number[]>();
    for (const row of [...fixes, ...events]) {
      const session = this.unwritten.get(row.sessionId);
      if (session) session.rows -= 1;
      const list = seqs.get(row.sessionId);
      if (list) list.push(row.seq);
      else seqs.set(row.sessionId, [row.seq]);
    }
    const keys = [...seqs.keys()].map((sessionId) => this.sessionKeys.unwritten(sessionId));
    const lists = [...seqs.values()].map((list) => list.join(' '));
    this.redis.eval(FORGET_SCRIPT, keys.length, ...keys, ...lists).catch((error: unknown) => {
      this.log.warn({ err: error }, 'written rows not taken off the write journal');
    });
  }

  /**
   * On shutdown, after the writer drained. Everything written: the journal goes. Rows left: the
   * ownership key goes at once, so that another instance writes them now.
   */
  async stop(unwritten: number): Promise<void> {
    this.closing = true;
    this.crash();
    // A recovery in progress is left to finish in the background (another instance redoes what
    // it did not commit once its claim expires); shutdown waits for it only briefly.
    await Promise.race([this.recovering, new Promise((resolve) => setTimeout(resolve, SETTLE_MS))]);
    const id = this.instanceId;
    try {
      if (unwritten + this.numbering > 0) await this.redis.del(this.keys.alive(id));
      else {
        // Separate commands: the keys live in different cluster slots.
        await this.redis.srem(this.keys.owners, id);
        await this.redis.del(this.keys.sessions(id));
        await this.redis.del(this.keys.alive(id));
      }
    } catch (error) {
      this.log.warn({ err: error }, 'write journal not released (it expires by itself)');
    }
  }

  /**
   * Stops renewing and leaves everything as it is, as a killed process would (its owner key then
   * expires). For tests/realtime/write-journal.test.ts.
   */
  crash(): void {
    if (this.renewTimer) clearInterval(this.renewTimer);
    if (this.recoverTimer) clearInterval(this.recoverTimer);
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
        await this.redis.eval(RELEASE_CLAIM, 1, this.keys.recovering(id), this.instanceId);
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

  /**
   * Renews the owner key (every `TICK_MS`, on its own timer). Finding itself missing from the owners (Redis restarted empty, or this
   * instance was so slow that another took it for dead and recovered its journal) means the list
   * of its sessions may be gone too: every session it remembers is listed again, and any new one
   * will be, so that rows journalled since stay findable.
   */
  async renew(): Promise<void> {
    await this.forgetIdleSessions();
    const id = this.instanceId;
    await this.redis.set(this.keys.alive(id), String(Date.now()), 'PX', ALIVE_MS);
    const added = await this.redis.sadd(this.keys.owners, id);
    if (added === 1 && this.started) {
      const sessions = [...this.enlisted.keys()];
      for (let at = 0; at < sessions.length; at += SESSIONS_PER_READ)
        await this.redis.sadd(
          this.keys.sessions(id),
          ...sessions.slice(at, at + SESSIONS_PER_READ),
        );
      this.log.warn(
        { sessions: sessions.length },
        'this instance’s write journal had been taken for dead; listed its sessions again',
      );
    }
  }

  /**
   * Keeps the instance's list to the sessions it may still hold rows of: one with nothing
   * unwritten for `FORGET_SESSION_AFTER_MS` leaves it (and is listed again before its next row),
   * so the list, and a survivor's recovery, do not grow with every session the instance ever saw.
   */
  private async forgetIdleSessions(): Promise<void> {
    const idle: string[] = [];
    const now = Date.now();
    for (const [sessionId, session] of this.unwritten)
      if (session.rows <= 0 && now - session.lastAt > FORGET_SESSION_AFTER_MS) idle.push(sessionId);
    for (const sessionId of idle) {
      this.unwritten.delete(sessionId);
      this.enlisted.delete(sessionId);
    }
    // Sent before any later listing of the same session on this connection, so never undoes it.
    for (let at = 0; at < idle.length; at += SESSIONS_PER_READ)
      await this.redis.srem(
        this.keys.sessions(this.instanceId),
        ...idle.slice(at, at + SESSIONS_PER_READ),
      );
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
      const hashes = await Promise.all(
        sessionIds.map((sessionId) => this.redis.hgetall(this.sessionKeys.unwritten(sessionId))),
      );
      const fixes: FixRow[] = [];
      const events: EventRow[] = [];
      for (const hash of hashes) {
        // Other instances' rows in the same session are theirs to write.
        for (const [seq, entry] of Object.entries(hash)) {
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
        this.onRecovered?.(someFixes.length + someEvents.length);
      }
    } while (cursor !== '0');
    await this.redis.srem(this.keys.owners, id);
    await this.redis.del(this.keys.sessions(id));
    this.log.info(
      { instance: id, rows: recovered },
      'wrote the write journal of an instance that stopped without writing it',
    );
    return recovered;
  }
}
