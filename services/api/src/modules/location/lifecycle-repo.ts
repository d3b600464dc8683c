import type { Database, DB } from '@locus/db';
import type {
  PersistedSessionLifecycle,
  SessionLifecycleState,
  SessionLifecycleStep,
} from '@locus/machines/session-lifecycle';
import { sql, type Transaction } from 'kysely';

/** A session's lifecycle as stored, read with its row locked until the transaction ends. */
export interface StoredLifecycle {
  id: string;
  status: string;
  endedAt: Date | null;
  /** Null for a session no event has reached yet: the machine starts it. */
  snapshot: PersistedSessionLifecycle | null;
}

const columns = ['id', 'status', 'ended_at', 'lifecycle_snapshot'] as const;

const stored = (row: {
  id: string;
  status: string;
  ended_at: Date | null;
  lifecycle_snapshot: unknown;
}): StoredLifecycle => ({
  id: row.id,
  status: row.status,
  endedAt: row.ended_at,
  snapshot: (row.lifecycle_snapshot ?? null) as PersistedSessionLifecycle | null,
});

/** Locks one session's row (every change of its lifecycle goes through this lock). */
export async function lockLifecycle(
  trx: Transaction<DB>,
  sessionId: string,
): Promise<StoredLifecycle | undefined> {
  const row = await trx
    .selectFrom('tracking_sessions')
    .select(columns)
    .where('id', '=', sessionId)
    .forUpdate()
    .executeTakeFirst();
  return row ? stored(row) : undefined;
}

/** States a stored fix no longer moves: the batch writer asks the machine about no other. */
export const lifecyclesPastFirstFix: readonly SessionLifecycleState[] = ['sharing', 'ended'];

/** Locks, in id order, the sessions among `sessionIds` that have not yet had a location. */
export async function lockLifecyclesBeforeSharing(
  trx: Transaction<DB>,
  sessionIds: string[],
): Promise<StoredLifecycle[]> {
  if (sessionIds.length === 0) return [];
  const rows = await trx
    .selectFrom('tracking_sessions')
    .select(columns)
    .where('id', 'in', sessionIds)
    .where('lifecycle', 'not in', [...lifecyclesPastFirstFix])
    .orderBy('id')
    .forUpdate()
    .execute();
  return rows.map(stored);
}

/**
 * Writes what the machine decided: its state and snapshot, and the columns every other query
 * reads (`status`, `location_type`, `request_error`, `ended_at`). A request's outcome counts as
 * the session's activity (the rejoin window); a fix's activity is the batch writer's to record.
 */
export async function saveLifecycle(
  trx: Transaction<DB>,
  sessionId: string,
  step: Extract<SessionLifecycleStep, { taken: true }>,
  event: { type: string },
): Promise<{ endedAt: Date | null; teamId: string | null }> {
  const { context } = step;
  const touches = event.type !== 'FIX_RECEIVED' && event.type !== 'END';
  const row = await trx
    .updateTable('tracking_sessions')
    .set({
      lifecycle: step.state,
      lifecycle_snapshot: JSON.stringify(step.persisted),
      status: step.state === 'ended' ? 'ended' : 'active',
      location_type: context.locationType,
      request_error: context.requestError,
      ended_at: context.endedAt === null ? null : new Date(context.endedAt),
      ...(touches ? { last_active_at: sql<Date>`now()` } : {}),
    })
    .where('id', '=', sessionId)
    .returning(['ended_at', 'team_id'])
    .executeTakeFirstOrThrow();
  return { endedAt: row.ended_at, teamId: row.team_id };
}

/** The stored lifecycle, unlocked (to ask the machine without changing anything). */
export async function findLifecycle(
  db: Database,
  sessionId: string,
): Promise<StoredLifecycle | undefined> {
  const row = await db
    .selectFrom('tracking_sessions')
    .select(columns)
    .where('id', '=', sessionId)
    .executeTakeFirst();
  return row ? stored(row) : undefined;
}
