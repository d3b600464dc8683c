import type { CallerFix } from '@locus/contract/caller';

/** A fix the server has not acknowledged yet, with the page's number for it. */
export interface QueuedFix {
  n: number;
  fix: CallerFix;
  /** When the page got it, by the phone's clock: how long it waited is sent with it. */
  takenAt: number;
}

/** Where queued fixes outlive the page: IndexedDB, or nothing where the browser refuses it. */
export interface FixStore {
  load(token: string): Promise<QueuedFix[]>;
  put(token: string, entry: QueuedFix): void;
  /** Forgets every fix numbered up to `n`. */
  deleteUpTo(token: string, n: number): void;
}

const DB_NAME = 'locus-caller';
const STORE = 'fixes';

// Keys sort as text: `<token>|<n, 12 digits>` keeps one link's fixes together, in order.
const key = (token: string, n: number) => `${token}|${String(n).padStart(12, '0')}`;
const range = (token: string, upTo?: number) =>
  IDBKeyRange.bound(key(token, 0), upTo === undefined ? `${token}|~` : key(token, upTo));

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

/**
 * IndexedDB, opened once. Each write is its own transaction, committed within milliseconds of
 * the position: a reload, a crash or the system killing the tab loses nothing written.
 */
export function indexedDbStore(factory: IDBFactory | undefined = globalThis.indexedDB): FixStore {
  let opened: Promise<IDBDatabase | null> | null = null;
  const db = (): Promise<IDBDatabase | null> => {
    opened ??= (async () => {
      if (!factory) return null;
      try {
        const open = factory.open(DB_NAME, 1);
        open.onupgradeneeded = () => open.result.createObjectStore(STORE);
        return await request(open);
      } catch {
        return null; // Private browsing may refuse storage: the queue then lives in memory only.
      }
    })();
    return opened;
  };
  const write = (change: (store: IDBObjectStore) => void) => {
    void db().then((database) => {
      if (!database) return;
      try {
        change(database.transaction(STORE, 'readwrite').objectStore(STORE));
      } catch {
        // Storage full or closing: the fix is still in memory and will be sent from there.
      }
    });
  };
  return {
    async load(token) {
      const database = await db();
      if (!database) return [];
      try {
        const store = database.transaction(STORE, 'readonly').objectStore(STORE);
        return (await request(store.getAll(range(token)))) as QueuedFix[];
      } catch {
        return [];
      }
    },
    put: (token, entry) => write((store) => store.put(entry, key(token, entry.n))),
    deleteUpTo: (token, n) => write((store) => store.delete(range(token, n))),
  };
}

/** How long a page waits for storage to give back an earlier page's fixes. */
const STORAGE_TIMEOUT_MS = 1_500;

/** Keeps the newest fixes when the phone has been offline for hours. */
export const MAX_QUEUED_FIXES = 5_000;

/**
 * The caller's unacknowledged fixes, oldest first: in memory for sending, and in the store so
 * that a reload or a killed tab sends them later, with their original capture times. Each fix
 * gets a number (`n`); the server's `ack` names the number, and every fix up to it is forgotten.
 * The queue is usable at once: what an earlier page left is loaded in the background (`ready`),
 * so the caller never waits for storage, and nothing is sent before it is loaded (the earlier
 * page's fixes are older and go first).
 */
export class FixQueue {
  private entries: QueuedFix[] = [];
  /** Fixes taken before the store answered; numbered once it has. */
  private early: { fix: CallerFix; takenAt: number }[] = [];
  private nextN = 1;
  private loaded = false;

  /** False once storage failed to answer in time: this page then keeps its queue in memory. */
  private persistent = true;
  private loading: Promise<void> | null = null;

  private constructor(
    private readonly token: string,
    private readonly store: FixStore,
    private readonly loadTimeoutMs: number,
  ) {}

  /** The queue of one link; what an earlier page on this phone left unsent loads on `ready`. */
  static open(
    token: string,
    store: FixStore = indexedDbStore(),
    loadTimeoutMs = STORAGE_TIMEOUT_MS,
  ): FixQueue {
    return new FixQueue(token, store, loadTimeoutMs);
  }

  /**
   * Resolves once what an earlier page left is loaded. Storage is first touched here, not when
   * the page opens: opening IndexedDB costs a slow phone a few hundred milliseconds that belong
   * to the consent button's first paint.
   */
  get ready(): Promise<void> {
    this.loading ??= this.load();
    return this.loading;
  }

  private load(): Promise<void> {
    // Some browsers (Safari 14.1 and iOS 14.6 among them) can leave the first IndexedDB open
    // pending forever: a queue that waited for it would never send a fix.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), this.loadTimeoutMs);
    });
    return Promise.race([this.store.load(this.token).catch(() => []), timedOut]).then((saved) => {
      clearTimeout(timer);
      if (saved === null) this.persistent = false;
      this.onLoaded(saved ?? []);
    });
  }

  get isReady(): boolean {
    return this.loaded;
  }

  get size(): number {
    return this.entries.length + this.early.length;
  }

  /** The newest capture time queued, so that a new watch does not repeat an older position. */
  get newestCapturedAt(): number {
    return (this.early.at(-1) ?? this.entries.at(-1))?.fix.capturedAt ?? 0;
  }

  add(fix: CallerFix, takenAt = Date.now()): void {
    if (!this.loaded) {
      this.early.push({ fix, takenAt });
      return;
    }
    const entry: QueuedFix = { n: this.nextN, fix: { ...fix, n: this.nextN }, takenAt };
    this.nextN += 1;
    this.entries.push(entry);
    if (this.persistent) this.store.put(this.token, entry);
    if (this.entries.length > MAX_QUEUED_FIXES) {
      const dropped = this.entries.shift()!;
      if (this.persistent) this.store.deleteUpTo(this.token, dropped.n);
    }
  }

  /** Fixes after `afterN`, oldest first, at most `limit` (none before the store answered). */
  after(afterN: number, limit: number): QueuedFix[] {
    const out: QueuedFix[] = [];
    for (const entry of this.entries) {
      if (entry.n <= afterN) continue;
      out.push(entry);
      if (out.length === limit) break;
    }
    return out;
  }

  /** The server dealt with fix `n` and, frames being handled in order, with every one before. */
  ackUpTo(n: number): void {
    const before = this.entries.length;
    this.entries = this.entries.filter((entry) => entry.n > n);
    if (this.entries.length !== before && this.persistent) this.store.deleteUpTo(this.token, n);
  }

  private onLoaded(saved: QueuedFix[]): void {
    this.entries = saved.sort((a, b) => a.n - b.n);
    this.nextN = (this.entries.at(-1)?.n ?? 0) + 1;
    this.loaded = true;
    const early = this.early;
    this.early = [];
    for (const { fix, takenAt } of early) this.add(fix, takenAt);
  }
}

/** The link no longer works: nothing of it stays on the caller's phone. */
export function forgetLink(token: string, store: FixStore = indexedDbStore()): void {
  store.deleteUpTo(token, Number.MAX_SAFE_INTEGER);
}
