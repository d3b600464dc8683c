import { describe, expect, it } from 'vitest';
import { FixQueue, MAX_QUEUED_FIXES, type FixStore, type StoredFix } from './fix-queue';

/** The store's contract, in memory: what IndexedDB holds between pages of the same link. */
function memoryStore(): FixStore & { keys(token: string): string[] } {
  const rows = new Map<string, StoredFix>();
  const ofLink = (token: string) =>
    [...rows.keys()].filter((key) => key.startsWith(`${token}|`)).sort();
  return {
    keys: ofLink,
    load: async (token) => ofLink(token).map((key) => rows.get(key)!),
    put: (entry) => void rows.set(entry.key, entry),
    delete: (keys) => keys.forEach((key) => rows.delete(key)),
    deleteLink: (token) => ofLink(token).forEach((key) => rows.delete(key)),
  };
}

const fix = (second: number) => ({
  latitude: 38.9,
  longitude: -77.03,
  accuracy: 10,
  capturedAt: Date.UTC(2026, 10, 24, 14, 0, second),
});

const opened = async (token: string, store: FixStore) => {
  const queue = FixQueue.open(token, store);
  await queue.ready;
  return queue;
};

const captures = (queue: FixQueue) =>
  queue.after(0, 100).map((entry) => [entry.n, entry.fix.capturedAt]);

describe('the caller page’s fix queue', () => {
  it('numbers fixes, forgets them up to an ack, and hands the rest to the next page of the link', async () => {
    const store = memoryStore();
    const first = await opened('link-a', store);
    for (let second = 0; second < 5; second += 1) first.add(fix(second), 1000 + second);
    expect(first.after(0, 10).map((entry) => entry.n)).toEqual([1, 2, 3, 4, 5]);
    expect(first.after(2, 2).map((entry) => entry.fix.n)).toEqual([3, 4]);
    first.ackUpTo(2);
    expect(first.size).toBe(3);
    expect(store.keys('link-a')).toHaveLength(3);

    // The page reloads: the next one starts from what was not acked (numbered for its own
    // socket), and a fix it takes before storage answers comes after them; nothing is sent before.
    const second = FixQueue.open('link-a', store);
    second.add(fix(9));
    expect(second.after(0, 10)).toEqual([]);
    expect(second.size).toBe(1);
    await second.ready;
    expect(captures(second)).toEqual([
      [1, fix(2).capturedAt],
      [2, fix(3).capturedAt],
      [3, fix(4).capturedAt],
      [4, fix(9).capturedAt],
    ]);
    expect(second.newestCapturedAt).toBe(fix(9).capturedAt);
    second.ackUpTo(4);
    expect(second.size).toBe(0);
    expect(store.keys('link-a')).toEqual([]);

    // Another link's queue is its own.
    expect((await opened('link-b', store)).size).toBe(0);
  });

  it('two pages of one link (two tabs) never delete or overwrite each other’s fixes', async () => {
    const store = memoryStore();
    const tabA = await opened('link-a', store);
    const tabB = await opened('link-a', store);
    tabA.add(fix(1));
    tabB.add(fix(2));
    tabA.add(fix(3));
    // Both number their first fix 1, yet both are kept.
    expect(store.keys('link-a')).toHaveLength(3);
    tabA.ackUpTo(2);
    expect(tabB.size).toBe(1);
    const reopened = await opened('link-a', store);
    expect(captures(reopened).map(([, capturedAt]) => capturedAt)).toEqual([fix(2).capturedAt]);
  });

  it('sends from memory when storage never answers (an IndexedDB that hangs on open)', async () => {
    const refuse = () => {
      throw new Error('must not write to storage that never opened');
    };
    const hanging: FixStore = {
      load: () => new Promise<StoredFix[]>(() => undefined),
      put: refuse,
      delete: refuse,
      deleteLink: refuse,
    };
    const queue = FixQueue.open('link-a', hanging, 20);
    queue.add(fix(1));
    await queue.ready;
    queue.add(fix(2));
    expect(queue.after(0, 10).map((entry) => entry.n)).toEqual([1, 2]);
    queue.ackUpTo(2);
    expect(queue.size).toBe(0);
  });

  it('says since when its oldest fix has waited, by the page’s monotonic clock', async () => {
    const store = memoryStore();
    const first = await opened('link-a', store);
    expect(first.oldestSince).toBeNull();
    first.add(fix(1), 1000, 50);
    first.add(fix(2), 2000, 60);
    expect(first.oldestSince).toBe(50);
    first.ackUpTo(1);
    expect(first.oldestSince).toBe(60);

    // The page reloads: a fix the earlier page left has waited at least since this page
    // opened (0, the origin of its monotonic clock); a fix taken before storage answered keeps
    // its own time.
    const second = FixQueue.open('link-a', store);
    second.add(fix(3), 3000, 5);
    expect(second.oldestSince).toBe(5);
    await second.ready;
    expect(second.oldestSince).toBe(0);
    expect(second.after(0, 10).map((entry) => entry.since)).toEqual([0, 5]);
  });

  it('keeps the newest fixes when the phone has been offline for hours', async () => {
    const store = memoryStore();
    const queue = await opened('link-a', store);
    for (let i = 0; i < MAX_QUEUED_FIXES + 3; i += 1) queue.add(fix(i % 60));
    expect(queue.size).toBe(MAX_QUEUED_FIXES);
    expect(queue.after(0, 1)[0]!.n).toBe(4);
    expect(store.keys('link-a')).toHaveLength(MAX_QUEUED_FIXES);
  });
});
