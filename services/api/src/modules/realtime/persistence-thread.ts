import { createDb } from '@locus/db';
import { parentPort, workerData } from 'node:worker_threads';
import { BatchWriter } from './batch-writer';
import {
  decodeRows,
  type FromPersistence,
  type PersistenceSetup,
  type ToPersistence,
} from './persistence-messages';

/**
 * The batch writer's own event loop (issue 16): building, sending and committing batches of
 * fixes costs CPU that must never delay a delivery, and a Postgres that stalls and then comes back
 * with a backlog must not either. The API's loop hands rows over (threaded-writer.ts) and hears
 * back what was committed; it keeps every row until then, so a thread that dies loses nothing.
 */
const port = parentPort;
if (!port) throw new Error('persistence-thread.ts runs as a worker thread');
const setup = workerData as PersistenceSetup;
const tell = (message: FromPersistence): void => port.postMessage(message);

const { db } = createDb({
  connectionString: setup.databaseUrl,
  // One transaction at a time; the second connection replaces one that failed while idle.
  maxConnections: 2,
  applicationName: 'locus-api-persistence',
  onIdleError: (error) =>
    tell({
      type: 'log',
      msg: 'idle Postgres connection of the persistence thread failed',
      err: error.message,
    }),
});

// The writer logs only errors; they go to the API's logger, with their own words.
const log = {
  error: (context: { err?: unknown; failures?: number }, msg?: string) => {
    const error = context.err;
    tell({
      type: 'log',
      msg: msg ?? 'persistence thread error',
      ...(error === undefined
        ? {}
        : { err: error instanceof Error ? error.message : String(error) }),
      ...(context.failures === undefined ? {} : { failures: context.failures }),
    });
  },
};

const writer = new BatchWriter(db, log, {
  maxRows: setup.maxRows,
  maxDelayMs: setup.maxDelayMs,
  onWritten: (fixes, events, seconds) => tell({ type: 'written', fixes, events, seconds }),
});

port.on('message', (message: ToPersistence) => {
  switch (message.type) {
    case 'rows': {
      const { fixes, events } = decodeRows(message.rows);
      for (const row of fixes) writer.addFix(row);
      for (const row of events) writer.addEvent(row);
      return;
    }
    case 'flush':
      void writer.flush().finally(() => tell({ type: 'flushed', id: message.id }));
      return;
    case 'drain':
      void writer.drain(message.deadline).finally(async () => {
        tell({ type: 'drained', pending: writer.pending });
        await db.destroy().catch(() => undefined);
        port.close();
      });
      return;
  }
});

tell({ type: 'ready' });
