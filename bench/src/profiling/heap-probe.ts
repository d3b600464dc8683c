// Loaded into every server instance the bench starts (`--import`), so the orchestrator can ask,
// over the child's IPC channel, how much JavaScript heap the instance holds after a full garbage
// collection: resident memory (RSS) alone moves with the allocator and the GC's whims (0.3 to
// 22.7 KiB per connection across runs of the same code), while the heap after a forced GC counts
// what the instance really keeps. With BENCH_HEAP_SNAPSHOT_DIR set it also writes a heap
// snapshot, for `heap-diff.ts` to say which objects each connection keeps.
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import type { HeapReading, HeapRequest } from './heap-messages';

const instance = process.env.BENCH_INSTANCE ?? String(process.pid);

if (process.send) {
  // The channel must not keep a server alive that was asked to stop.
  process.channel?.unref();
  const session = new Session();
  session.connect();

  const read = async (request: HeapRequest): Promise<HeapReading> => {
    // Twice: the first collection can leave objects whose finalizers free more.
    await session.post('HeapProfiler.collectGarbage');
    await session.post('HeapProfiler.collectGarbage');
    const usage = process.memoryUsage();
    const snapshotDir = process.env.BENCH_HEAP_SNAPSHOT_DIR;
    const snapshot = snapshotDir
      ? writeHeapSnapshot(join(snapshotDir, `${request.label}-${instance}.heapsnapshot`))
      : null;
    return {
      type: 'heap',
      id: request.id,
      heapUsedBytes: usage.heapUsed,
      externalBytes: usage.external,
      arrayBuffersBytes: usage.arrayBuffers,
      rssBytes: usage.rss,
      snapshot,
    };
  };

  process.on('message', (message: HeapRequest) => {
    if (message?.type !== 'heap') return;
    read(message).then(
      (reading) => process.send?.(reading),
      (error: unknown) =>
        process.send?.({ type: 'heap-failed', id: message.id, message: String(error) }),
    );
  });
}
