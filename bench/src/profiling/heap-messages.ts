/** The orchestrator asks an instance for its heap after a forced GC (heap-probe.ts). */
export interface HeapRequest {
  type: 'heap';
  id: number;
  /** Names the snapshot file, when snapshots are asked for. */
  label: string;
}

export interface HeapReading {
  type: 'heap';
  id: number;
  heapUsedBytes: number;
  /** C++ objects bound to JavaScript ones (Buffers among them), outside the V8 heap. */
  externalBytes: number;
  arrayBuffersBytes: number;
  rssBytes: number;
  /** Path of the heap snapshot written, when BENCH_HEAP_SNAPSHOT_DIR is set. */
  snapshot: string | null;
}

export type HeapReply = HeapReading | { type: 'heap-failed'; id: number; message: string };
