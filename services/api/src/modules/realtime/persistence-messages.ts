import type { EventRow, FixRow } from './repo';

/** What the API's event loop tells the persistence thread (persistence-thread.ts). */
export type ToPersistence =
  | { type: 'rows'; fixes: FixRow[]; events: EventRow[] }
  /** Write now, and answer `flushed` once everything sent before this is written (or failed). */
  | { type: 'flush'; id: number }
  /** Shutting down: write what is left until `deadline` (epoch ms), answer, and stop. */
  | { type: 'drain'; deadline: number };

/** What the persistence thread tells the API's event loop, in the order it happened. */
export type FromPersistence =
  | { type: 'ready' }
  /** One committed batch: that many of the oldest rows sent are in Postgres. */
  | { type: 'written'; fixes: number; events: number; seconds: number }
  | { type: 'write-failed'; message: string; pending: number; failures: number }
  | { type: 'flushed'; id: number }
  | { type: 'drained'; pending: number };

/** How the thread is set up (its `workerData`). */
export interface PersistenceSetup {
  databaseUrl: string;
  maxRows: number;
  maxDelayMs: number;
}
