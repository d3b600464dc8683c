import { describe, expect, it } from 'vitest';
import { FixQueue, MAX_QUEUED_FIXES, type FixStore, type QueuedFix } from './fix-queue';

/** The store's contract, in memory: what IndexedDB holds between two pages of the same link. */
function memoryStore(): FixStore & { rows: Map<string, QueuedFix[]> } {
  const rows = new Map<string, QueuedFix[]>();
  return {
    rows,
    load: async (token) => [...(rows.get(token) ?? [])],
    put: (token, entry) => rows.set(token, [...(rows.get(token) ?? []), entry]),
    deleteUpTo: (token, n) =>
      rows.set(
        token,
        (rows.get(token) ?? []).filter((entry) => entry.n > n),
      ),
  };
}

const fix = (second: number) => ({
  latitude: 38.9,
  longitude: -77.03,
  accuracy: 10,
  capturedAt: Date.UTC(2026, 10, 24, 14, 0, second),
});

describe('the caller page’s fix queue', () => {
  it('numbers fixes, forgets them up to an ack, and hands the rest to the next page of the link', async () => {
    const store = memoryStore();
    const first = FixQueue.open('link-a', store);
    await first.ready;
    for (let second = 0; second < 5; second += 1) first.add(fix(second), 1000 + second);
    expect(first.after(0, 10).map((entry) => entry.n)).toEqual([1, 2, 3, 4, 5]);
    expect(first.after(2, 2).map((entry) => entry.fix.n)).toEqual([3, 4]);
    first.ackUpTo(2);
    expect(first.size).toBe(3);

    // The page reloads: the next one starts from what was not acked, and numbers on from there.
    // A fix it takes before storage answers is numbered after them, and nothing is sent before.
    const second = FixQueue.open('link-a', store);
    second.add(fix(9));
    expect(second.after(0, 10)).toEqual([]);
    expect(second.size).toBe(1);
    await second.ready;
    expect(second.after(0, 10).map((entry) => entry.n)).toEqual([3, 4, 5, 6]);
    expect(second.newestCapturedAt).toBe(fix(9).capturedAt);
    second.ackUpTo(6);
    expect(second.size).toBe(0);
    expect(store.rows.get('link-a')).toEqual([]);

    // Another link's queue is its own.
    const other = FixQueue.open('link-b', store);
    await other.ready;
    expect(other.size).toBe(0);
  });

  it('sends from memory when storage never answers (an IndexedDB that hangs on open)', async () => {
    const hanging: FixStore = {
      load: () => new Promise<QueuedFix[]>(() => undefined),
      put: () => {
        throw new Error('must not write to storage that never opened');
      },
      deleteUpTo: () => {
        throw new Error('must not write to storage that never opened');
      },
    };
    const queue = FixQueue.open('link-a', hanging, 20);
    queue.add(fix(1));
    await queue.ready;
    queue.add(fix(2));
    expect(queue.after(0, 10).map((entry) => entry.n)).toEqual([1, 2]);
    queue.ackUpTo(2);
    expect(queue.size).toBe(0);
  });

  it('keeps the newest fixes when the phone has been offline for hours', async () => {
    const store = memoryStore();
    const queue = FixQueue.open('link-a', store);
    await queue.ready;
    for (let i = 0; i < MAX_QUEUED_FIXES + 3; i += 1) queue.add(fix(i % 60));
    expect(queue.size).toBe(MAX_QUEUED_FIXES);
    expect(queue.after(0, 1)[0]!.n).toBe(4);
    expect(store.rows.get('link-a')!.length).toBe(MAX_QUEUED_FIXES);
  });
});
