import type { EventRow, FixRow } from './repo';

/** What the API's event loop tells the persistence thread (persistence-thread.ts). */
export type ToPersistence =
  /** `encodeRows`: one string, since copying it to the thread costs far less than objects. */
  | { type: 'rows'; rows: string }
  /** Write now, and answer `flushed` once everything sent before this is written (or failed). */
  | { type: 'flush'; id: number }
  /** Shutting down: write what is left until `deadline` (epoch ms), answer, and stop. */
  | { type: 'drain'; deadline: number };

/** What the persistence thread tells the API's event loop, in the order it happened. */
export type FromPersistence =
  | { type: 'ready' }
  /** One committed batch: that many of the oldest rows sent are in Postgres. */
  | { type: 'written'; fixes: number; events: number; seconds: number }
  /** What the thread's batch writer logged (always an error): for the API's logger. */
  | { type: 'log'; msg: string; err?: string; failures?: number }
  | { type: 'flushed'; id: number }
  | { type: 'drained'; pending: number };

/** How the thread is set up (its `workerData`). */
export interface PersistenceSetup {
  databaseUrl: string;
  maxRows: number;
  maxDelayMs: number;
}

type FixTuple = [
  string,
  number,
  string,
  number,
  number,
  number,
  number | null,
  number | null,
  number | null,
  string | null,
  FixRow['source'],
  number,
  number,
  number | null,
  'sms' | null,
  number | null,
];
type EventTuple = [string, number, string, string, string, number];

/**
 * Rows as one JSON string of flat tuples (dates as epoch ms). Structured clone of the row
 * objects, with a Date each, cost the API's loop about 11 µs per fix at 4,500 fixes/s; this is
 * what the bench profile showed cheapest (docs/benchmarks.md, issue 16).
 */
export function encodeRows(fixes: FixRow[], events: EventRow[]): string {
  const f: FixTuple[] = fixes.map((r) => [
    r.sessionId,
    r.seq,
    r.callerId,
    r.latitude,
    r.longitude,
    r.uncertaintyRadiusM,
    r.altitude,
    r.heading,
    r.speed,
    r.address ?? null,
    r.source,
    r.capturedAt.getTime(),
    r.receivedAt.getTime(),
    r.delayMs ?? null,
    r.deliveredBy ?? null,
    r.clockSkewMs ?? null,
  ]);
  const e: EventTuple[] = events.map((r) => [
    r.sessionId,
    r.seq,
    r.callerId,
    r.event,
    r.payload,
    r.createdAt.getTime(),
  ]);
  return JSON.stringify([f, e]);
}

export function decodeRows(rows: string): { fixes: FixRow[]; events: EventRow[] } {
  const [f, e] = JSON.parse(rows) as [FixTuple[], EventTuple[]];
  return {
    fixes: f.map((t) => ({
      sessionId: t[0],
      seq: t[1],
      callerId: t[2],
      latitude: t[3],
      longitude: t[4],
      uncertaintyRadiusM: t[5],
      altitude: t[6],
      heading: t[7],
      speed: t[8],
      address: t[9],
      source: t[10],
      capturedAt: new Date(t[11]),
      receivedAt: new Date(t[12]),
      delayMs: t[13],
      deliveredBy: t[14],
      clockSkewMs: t[15],
    })),
    events: e.map((t) => ({
      sessionId: t[0],
      seq: t[1],
      callerId: t[2],
      event: t[3],
      payload: t[4],
      createdAt: new Date(t[5]),
    })),
  };
}
