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
 * Records activity, for the 60-second rejoin rule, and answers each touched session's lifecycle
 * state: the batch writer asks the lifecycle machine only about sessions not yet sharing, so a
 * running session costs no second query per batch.
 */
export async function touchSessions(
  db: Database,
  sessionIds: string[],
  at: Date,
): Promise<Map<string, string>> {
  if (sessionIds.length === 0) return new Map();
  const rows = await db
    .updateTable('tracking_sessions')
    .set({ last_active_at: at })
    .where('id', 'in', sessionIds)
    .where('last_active_at', '<', at)
    .returning(['id', 'lifecycle'])
    .execute();
  return new Map(rows.map((row) => [row.id, row.lifecycle]));
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
