import type { Database } from '@locus/db';
import { sql } from 'kysely';

export interface FixRow {
  sessionId: string;
  seq: number;
  callerId: string;
  latitude: number;
  longitude: number;
  uncertaintyRadiusM: number;
  altitude: number | null;
  heading: number | null;
  speed: number | null;
  /** Only the emergency-data provider reports one. */
  address?: string | null;
  source: 'TEXT_MESSAGE' | 'RAPID_SOS';
  capturedAt: Date;
  receivedAt: Date;
  /** How long the fix waited on the phone, when it arrived late; see `realtimeLimits`. */
  delayMs?: number | null;
  /** `sms`: the caller texted it back (see text-location.ts). */
  deliveredBy?: 'sms' | null;
  /** How far ahead the phone's clock stamped it, when beyond the tolerance (fix-validation.ts). */
  clockSkewMs?: number | null;
}

export interface EventRow {
  sessionId: string;
  seq: number;
  callerId: string;
  event: string;
  payload: string;
  createdAt: Date;
}

/**
 * One statement per batch whatever its size (arrays through unnest), and idempotent: a retry
 * after a commit whose answer was lost inserts nothing twice.
 */
export async function insertFixes(db: Database, rows: FixRow[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    insert into location_fixes
      (session_id, seq, caller_id, latitude, longitude, uncertainty_radius_m, altitude, heading, speed, address, source, captured_at, received_at, delay_ms, delivered_by, clock_skew_ms)
    select * from unnest(
      ${rows.map((r) => r.sessionId)}::uuid[], ${rows.map((r) => r.seq)}::int[], ${rows.map((r) => r.callerId)}::uuid[],
      ${rows.map((r) => r.latitude)}::float8[], ${rows.map((r) => r.longitude)}::float8[],
      ${rows.map((r) => r.uncertaintyRadiusM)}::float8[], ${rows.map((r) => r.altitude)}::float8[],
      ${rows.map((r) => r.heading)}::float8[], ${rows.map((r) => r.speed)}::float8[], ${rows.map((r) => r.address ?? null)}::text[], ${rows.map((r) => r.source)}::text[],
      ${rows.map((r) => r.capturedAt)}::timestamptz[], ${rows.map((r) => r.receivedAt)}::timestamptz[],
      ${rows.map((r) => r.delayMs ?? null)}::int[], ${rows.map((r) => r.deliveredBy ?? null)}::text[],
      ${rows.map((r) => r.clockSkewMs ?? null)}::int[]
    )
    on conflict (session_id, seq) do nothing
  `.execute(db);
}

export async function insertEvents(db: Database, rows: EventRow[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    insert into session_events (session_id, seq, caller_id, event, payload, created_at)
    select * from unnest(
      ${rows.map((r) => r.sessionId)}::uuid[], ${rows.map((r) => r.seq)}::int[], ${rows.map((r) => r.callerId)}::uuid[],
      ${rows.map((r) => r.event)}::text[], ${rows.map((r) => r.payload)}::json[], ${rows.map((r) => r.createdAt)}::timestamptz[]
    )
    on conflict (session_id, seq) do nothing
  `.execute(db);
}

/**
 * Locks the batch's sessions' rows in one order (by id) before anything else of the batch
 * touches them. Two batches of the same sessions at once (two instances, or a batch and a
 * journal recovery) then queue instead of deadlocking, as the update's own order (its plan's)
 * let them (tests/realtime/batch-lock-order.test.ts).
 */
export async function lockSessionsInOrder(db: Database, sessionIds: string[]): Promise<void> {
  if (sessionIds.length === 0) return;
  await sql`
    select id from tracking_sessions where id = any(${sessionIds}::uuid[])
    order by id for no key update`.execute(db);
}

/** What a batch tells its session's row besides activity: see `touchSessions`. */
export interface SessionTouch {
  sessionId: string;
  /** The batch's earliest fix of the session by `receivedAt` (none: the batch has only events). */
  firstFix: { receivedAt: Date; source: 'lookup' | 'link'; uncertaintyM: number } | null;
  /** The smallest uncertainty among the batch's fixes of the session. */
  bestUncertaintyM: number | null;
}

/**
 * One statement per batch for all its sessions: records activity, for the 60-second rejoin rule
 * (never moving `last_active_at` back), and the metrics the fixes decide (issue 13):
 * `first_fix_at`, `first_fix_source` and `first_fix_uncertainty_m` set once, from the batch's
 * earliest fix, for a session that had none (the batch writer's transaction also stores that
 * fix), and `best_uncertainty_m` kept the smallest seen. Answers each touched session's lifecycle
 * state: the batch writer asks the lifecycle machine only about sessions not yet sharing, so a
 * running session costs no second query per batch.
 */
/** What the batch writer learns about each session it touched, from the same statement. */
export interface TouchedSession {
  lifecycle: string;
  teamId: string | null;
  externalReference: string | null;
  /** The team has an enabled webhook endpoint (issue 15): only then are facts written. */
  hasWebhooks: boolean;
}

export async function touchSessions(
  db: Database,
  touches: SessionTouch[],
  at: Date,
): Promise<Map<string, TouchedSession>> {
  if (touches.length === 0) return new Map();
  const result = await sql<{
    id: string;
    lifecycle: string;
    team_id: string | null;
    external_reference: string | null;
    has_webhooks: boolean;
  }>`
    update tracking_sessions s set
      last_active_at = greatest(s.last_active_at, ${at}::timestamptz),
      first_fix_at = coalesce(s.first_fix_at, v.first_fix_at),
      first_fix_source = case when s.first_fix_at is null
        then v.first_fix_source else s.first_fix_source end,
      first_fix_uncertainty_m = case when s.first_fix_at is null
        then v.first_fix_uncertainty_m else s.first_fix_uncertainty_m end,
      best_uncertainty_m = least(s.best_uncertainty_m, v.best_uncertainty_m)
    from unnest(
      ${touches.map((t) => t.sessionId)}::uuid[],
      ${touches.map((t) => t.firstFix?.receivedAt ?? null)}::timestamptz[],
      ${touches.map((t) => t.firstFix?.source ?? null)}::text[],
      ${touches.map((t) => t.firstFix?.uncertaintyM ?? null)}::float8[],
      ${touches.map((t) => t.bestUncertaintyM)}::float8[]
    ) as v(id, first_fix_at, first_fix_source, first_fix_uncertainty_m, best_uncertainty_m)
    where s.id = v.id
    returning s.id, s.lifecycle, s.team_id, s.external_reference,
      exists (select 1 from partner_webhooks w where w.team_id = s.team_id and w.enabled)
        as has_webhooks
  `.execute(db);
  return new Map(
    result.rows.map((row) => [
      row.id,
      {
        lifecycle: row.lifecycle,
        teamId: row.team_id,
        externalReference: row.external_reference,
        hasWebhooks: row.has_webhooks,
      },
    ]),
  );
}

/** A caller's link-funnel times (issue 13), each set once by the caller socket. */
export type CallerMark = 'prompt_shown_at' | 'shared_at' | 'denied_at';

/** Sets one of a caller's funnel times unless it is set already (a later report changes nothing). */
export async function markCaller(
  db: Database,
  target: { sessionId: string; callerId: string },
  column: CallerMark,
  at: Date,
): Promise<void> {
  await sql`
    update session_callers set ${sql.ref(column)} = ${at}::timestamptz
    where id = ${target.callerId} and session_id = ${target.sessionId} and ${sql.ref(column)} is null
  `.execute(db);
}

export async function lastPersistedSeq(db: Database, sessionId: string): Promise<number> {
  const row = await sql<{ seq: number | null }>`
    select greatest(
      (select max(seq) from location_fixes where session_id = ${sessionId}),
      (select max(seq) from session_events where session_id = ${sessionId})
    ) as seq
  `.execute(db);
  return row.rows[0]?.seq ?? 0;
}

export type PersistedEvent =
  | {
      seq: number;
      kind: 'fix';
      fix: Omit<FixRow, 'sessionId' | 'receivedAt' | 'heading' | 'speed'> & {
        address: string | null;
      };
    }
  | { seq: number; kind: 'event'; event: string; payload: string };

/** Persisted events with afterSeq < seq < beforeSeq, oldest first, at most `limit`. */
export async function persistedEvents(
  db: Database,
  sessionId: string,
  afterSeq: number,
  beforeSeq: number,
  limit: number,
): Promise<PersistedEvent[]> {
  const fixes = await db
    .selectFrom('location_fixes')
    .select([
      'seq',
      'caller_id',
      'latitude',
      'longitude',
      'uncertainty_radius_m',
      'altitude',
      'address',
      'source',
      'captured_at',
      'delay_ms',
      'delivered_by',
      'clock_skew_ms',
    ])
    .where('session_id', '=', sessionId)
    .where('seq', '>', afterSeq)
    .where('seq', '<', beforeSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
  const events = await db
    .selectFrom('session_events')
    .select(['seq', 'event', sql<string>`payload::text`.as('payload')])
    .where('session_id', '=', sessionId)
    .where('seq', '>', afterSeq)
    .where('seq', '<', beforeSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
  const merged: PersistedEvent[] = [
    ...fixes.map((row) => ({
      seq: row.seq,
      kind: 'fix' as const,
      fix: {
        seq: row.seq,
        callerId: row.caller_id,
        latitude: row.latitude,
        longitude: row.longitude,
        uncertaintyRadiusM: row.uncertainty_radius_m,
        altitude: row.altitude,
        address: row.address,
        source: row.source as FixRow['source'],
        capturedAt: row.captured_at,
        delayMs: row.delay_ms,
        deliveredBy: row.delivered_by === 'sms' ? ('sms' as const) : null,
        clockSkewMs: row.clock_skew_ms,
      },
    })),
    ...events.map((row) => ({
      seq: row.seq,
      kind: 'event' as const,
      event: row.event,
      payload: row.payload,
    })),
  ];
  return merged.sort((a, b) => a.seq - b.seq).slice(0, limit);
}
