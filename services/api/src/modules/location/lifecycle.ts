import type { Database, DB } from '@locus/db';
import {
  stepSessionLifecycle,
  type PersistedSessionLifecycle,
  type SessionLifecycleEvent,
  type SessionLifecycleState,
} from '@locus/machines/session-lifecycle';
import type { Transaction } from 'kysely';
import {
  findLifecycle,
  lockLifecycle,
  lockLifecyclesBeforeSharing,
  saveLifecycle,
  type StoredLifecycle,
} from './lifecycle-repo';

/**
 * The session-lifecycle machine (packages/machines/src/session-lifecycle) run by the API: the
 * one authority on a tracking session's state. Each change locks the session's row, loads the
 * persisted snapshot into an actor, sends the event, and writes only what the machine decided;
 * an event the machine refuses (the session has ended) writes nothing.
 */
export type Advanced =
  | { taken: true; state: SessionLifecycleState; endedAt: Date | null; teamId: string | null }
  | { taken: false; state: SessionLifecycleState };

/**
 * The stored snapshot, brought level with `status` when a row was ended outside the machine
 * (rows ended by hand, or before the machine existed): the machine ends it too.
 */
function snapshotOf(stored: StoredLifecycle): PersistedSessionLifecycle | null {
  if (stored.status !== 'ended') return stored.snapshot;
  const at = (stored.endedAt ?? new Date()).getTime();
  const ended = stepSessionLifecycle(stored.snapshot, { type: 'END', at });
  return ended.taken ? ended.persisted : stored.snapshot;
}

/** One event on a session, inside the caller's transaction (which then holds the row's lock). */
export async function advanceSessionIn(
  trx: Transaction<DB>,
  sessionId: string,
  event: SessionLifecycleEvent,
): Promise<Advanced | undefined> {
  const stored = await lockLifecycle(trx, sessionId);
  if (!stored) return undefined;
  const step = stepSessionLifecycle(snapshotOf(stored), event);
  if (!step.taken) return { taken: false, state: step.state };
  const saved = await saveLifecycle(trx, sessionId, step, event);
  return { taken: true, state: step.state, ...saved };
}

/** One event on a session, in its own transaction. */
export async function advanceSession(
  db: Database,
  sessionId: string,
  event: SessionLifecycleEvent,
): Promise<Advanced | undefined> {
  return db.transaction().execute((trx) => advanceSessionIn(trx, sessionId, event));
}

/**
 * The batch writer stored fixes of these sessions: a session that had no location yet is now
 * sharing. Only rows not yet sharing are locked, so a running session costs nothing per batch.
 */
export async function noteFixesStored(trx: Transaction<DB>, sessionIds: string[]): Promise<void> {
  const at = Date.now();
  for (const stored of await lockLifecyclesBeforeSharing(trx, sessionIds)) {
    const event = { type: 'FIX_RECEIVED', at } as const;
    const step = stepSessionLifecycle(snapshotOf(stored), event);
    if (step.taken) await saveLifecycle(trx, stored.id, step, event);
  }
}

/** Whether the machine lets a dispatcher rejoin the session (it has not ended). */
export async function mayRejoin(db: Database, sessionId: string): Promise<boolean> {
  const stored = await findLifecycle(db, sessionId);
  if (!stored) return false;
  return stepSessionLifecycle(snapshotOf(stored), { type: 'REJOIN', at: Date.now() }).taken;
}
