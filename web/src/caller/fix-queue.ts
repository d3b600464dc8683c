import type { CallerFix } from '@locus/contract/caller';

/** A fix the server has not acknowledged yet, with this page's number for it. */
export interface QueuedFix {
  /** This page's number for the fix (what the server's `ack` names). */
  n: number;
  /** Where it is kept: its own key, so that two pages of one link never overwrite each other. */
  key: string;
  fix: CallerFix;
  /** When the page got it, by the phone's clock: how long it waited is sent with it. */
  takenAt: number;
  /**
   * When this page got it, by the page's monotonic clock (`performance.now()`, which a phone's
   * clock being set does not move): how long it has waited for its ack. A fix an earlier page
   * left has waited at least since this page opened: 0, the clock's origin. Never stored.
   */
  since: number;
}

/** A fix as storage keeps it. */
export interface StoredFix {
  key: string;
  fix: CallerFix;
  takenAt: number;
}

/** Where queued fixes outlive the page: IndexedDB, or nothing where the browser refuses it. */
export interface FixStore {
  /** Every fix kept for the link, oldest page first, in the order each page took them. */
  load(token: string): Promise<StoredFix[]>;
  put(entry: StoredFix): void;
  delete(keys: readonly string[]): void;
  /** Forgets everything kept for the link. */
  deleteLink(token: string): void;
}

const DB_NAME = 'locus-caller';
const STORE = 'fixes';

/**
 * Keys sort as text: `<token>|<page>|<n, 12 digits>`, the page being when it opened (and a
 * random tail), keeps one link's fixes together, each page's after the one before, in order.
 */
const pageKeyPrefix = (token: string, page: string) => `${token}|${page}|`;
const fixKey = (prefix: string, n: number) => `${prefix}${String(n).padStart(12, '0')}`;
const linkRange = (token: string) => IDBKeyRange.bound(`${token}|`, `${token}|~`);
const newPageId = () =>
  `${String(Date.now()).padStart(15, '0')}${Math.random().toString(36).slice(2, 6)}`;

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
        const [keys, values] = await Promise.all([
          request(store.getAllKeys(linkRange(token))),
          request(store.getAll(linkRange(token))),
        ]);
        return values.flatMap((value: { fix?: CallerFix; takenAt?: number }, index) => {
          const key = keys[index];
          return typeof key === 'string' && value.fix && typeof value.takenAt === 'number'
            ? [{ key, fix: value.fix, takenAt: value.takenAt }]
            : [];
        });
      } catch {
        return [];
      }
    },
    put: ({ key, fix, takenAt }) => write((store) => store.put({ fix, takenAt }, key)),
    delete: (keys) =>
      write((store) => {
        for (const key of keys) store.delete(key);
      }),
    deleteLink: (token) => write((store) => store.delete(linkRange(token))),
  };
}

/**
 * How long a page waits for storage to give back an earlier page's fixes before it gives up on
 * storage for good (and sends from memory). Long, because giving up early is worse than waiting:
 * fixes sent meanwhile are newer, and the server drops a fix older than one it already has, so an
 * earlier page's fixes adopted later would be lost. A slow phone under load can take seconds.
 */
const STORAGE_TIMEOUT_MS = 10_000;

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
  private early: { fix: CallerFix; takenAt: number; since: number }[] = [];
  private nextN = 1;
  private loaded = false;

  /** False once storage failed to answer in time: this page then keeps its queue in memory. */
  private persistent = true;
  private loading: Promise<void> | null = null;
  /** Where this page's own fixes are kept (fixes an earlier page left keep their keys). */
  private readonly keyPrefix: string;

  private constructor(
    private readonly token: string,
    private readonly store: FixStore,
    private readonly loadTimeoutMs: number,
  ) {
    this.keyPrefix = pageKeyPrefix(token, newPageId());
  }

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
    const saved = this.store.load(this.token).catch((): StoredFix[] => []);
    return Promise.race([saved, timedOut]).then((saved) => {
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

  /**
   * Since when the oldest fix queued has waited, by the page's monotonic clock (see
   * {@link QueuedFix.since}); null when the queue is empty.
   */
  get oldestSince(): number | null {
    return (this.entries[0] ?? this.early[0])?.since ?? null;
  }

  add(fix: CallerFix, takenAt = Date.now(), since = performance.now()): void {
    if (!this.loaded) {
      this.early.push({ fix, takenAt, since });
      return;
    }
    const n = this.nextN;
    this.nextN += 1;
    const key = fixKey(this.keyPrefix, n);
    const entry: QueuedFix = { n, key, fix: { ...fix, n }, takenAt, since };
    this.entries.push(entry);
    if (this.persistent) this.store.put(entry);
    if (this.entries.length > MAX_QUEUED_FIXES) {
      const dropped = this.entries.shift()!;
      if (this.persistent) this.store.delete([dropped.key]);
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
    const done = this.entries.filter((entry) => entry.n <= n);
    if (done.length === 0) return;
    this.entries = this.entries.filter((entry) => entry.n > n);
    // Only these keys: another page of the same link keeps its own fixes.
    if (this.persistent) this.store.delete(done.map((entry) => entry.key));
  }

  private onLoaded(saved: StoredFix[]): void {
    // An earlier page's fixes go first, renumbered for this page's socket; they keep their keys.
    const ordered = [...saved].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    this.entries = ordered.map((stored, index) => ({
      ...stored,
      n: index + 1,
      fix: { ...stored.fix, n: index + 1 },
      since: 0,
    }));
    this.nextN = this.entries.length + 1;
    this.loaded = true;
    const early = this.early;
    this.early = [];
    for (const { fix, takenAt, since } of early) this.add(fix, takenAt, since);
  }
}

/** The link no longer works: nothing of it stays on the caller's phone. */
export function forgetLink(token: string, store: FixStore = indexedDbStore()): void {
  store.deleteLink(token);
}
